/// <reference lib="dom" />
/** The front-end's calls to the dashboard server: GETs with the cookie, POSTs with the token header. */

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
}

/** Who writes from this page (the server's --author). */
export const AUTHOR = meta("heimdall-author");

/** An answer the server refused, with its message. */
export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

async function answer<T>(res: Response): Promise<T> {
  const body = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new ApiError((body as { error?: string }).error ?? res.statusText, res.status);
  return body as T;
}

/** GET `/api/<path>` with `params`; throws ApiError on a refusal. */
export async function get<T>(path: string, params: Record<string, string> = {}): Promise<T> {
  const qs = new URLSearchParams(params).toString();
  return answer<T>(
    await fetch(`/api/${path}${qs ? `?${qs}` : ""}`, { credentials: "same-origin" }),
  );
}

/** POST JSON to `/api/<path>` (the only way to write). */
export async function post<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(
    await fetch(`/api/${path}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-heimdall-token": meta("heimdall-token") },
      body: JSON.stringify(body),
    }),
  );
}

/** A stable colour for a person: the same name always gets the same hue. */
export function personColour(name: string): string {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  const palette = ["#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c564b"];
  return palette[(h >>> 0) % palette.length]!;
}

/** Milliseconds since the epoch as `YYYY-MM-DD HH:MM:SS` (UTC). */
export function when(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "";
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

/** Where the map interactions' timings go (read by scripts/bench_ui.ts). */
export const timings: { action: string; ms: number; fetched_ms: number; server_ms: number }[] = [];
(globalThis as unknown as { __heimdallTimings: typeof timings }).__heimdallTimings = timings;

/** Records how long `action` took from `t0` to the next painted frame (and to its answer, `fetched`). */
export function timeToPaint(
  action: string,
  t0: number,
  fetched: number,
  serverMs: number,
): void {
  requestAnimationFrame(() =>
    setTimeout(() => {
      timings.push({
        action,
        ms: performance.now() - t0,
        fetched_ms: fetched - t0,
        server_ms: serverMs,
      });
    }, 0)
  );
}
