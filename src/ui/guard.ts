/**
 * Who may talk to the dashboard: pure checks of one request against the
 * server's token and address, no I/O.
 *
 * Every request carries the token (in `?token=` on the first visit, then in
 * a cookie named after this port), or, once, a one-time code in `?code=`:
 * the link given to the program that opens the browser, whose command line
 * any user of the machine may read (`ps`), so it is worth nothing once the
 * browser used it (see {@link CodeState}); a write also carries it in the
 * `X-Heimdall-Token` header and is a POST with a JSON body. Every request
 * but a top-level visit of `/` comes from this origin (`Origin`,
 * `Sec-Fetch-Site`): a page of another server on 127.0.0.1 is the same site
 * whatever its port, and the browser sends it the cookie (cookies ignore
 * ports), so neither SameSite nor the cookie's name keeps it out. The
 * `Host` header must name the loopback address, so a DNS-rebinding page
 * cannot reach the server through a name of its own.
 */

/**
 * What a check decided: let it through (maybe setting the cookie), or refuse with a status.
 *
 * @internal
 */
export type Verdict =
  | { ok: true; setCookie: boolean; code?: string }
  | { ok: false; status: 400 | 403 | 405 | 415; reason: string; reused?: string };

/**
 * Where a one-time code stands: `valid` (not used yet, not expired), `used`
 * (exchanged for the cookie already: a second use means someone else may
 * hold it), `expired` (never used in time), `unknown` (never given out).
 */
export type CodeState = "valid" | "used" | "expired" | "unknown";

/** A fresh random token: 24 bytes, hex. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The cookie holding the token; named after the port, since cookies ignore ports. */
export function cookieName(port: number): string {
  return `heimdall_ui_${port}`;
}

/** Compares two strings in time independent of where they differ. */
export function sameToken(a: string | null | undefined, b: string): boolean {
  if (typeof a !== "string" || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function cookie(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return null;
}

/**
 * The `Host` values this server answers to: loopback, on its port (a
 * browser leaves out port 80, HTTP's default, so there the bare name too).
 */
export function ownHosts(port: number): string[] {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  return port === 80 ? [...hosts, "127.0.0.1", "localhost"] : hosts;
}

/** The origins this server answers as: loopback, on its port. */
export function ownOrigins(port: number): string[] {
  return ownHosts(port).map((h) => `http://${h}`);
}

/**
 * Decides whether `req` may be served by the dashboard listening on `port`
 * with `token`. Reads only the method, URL and headers.
 */
export function checkRequest(
  req: Request,
  token: string,
  port: number,
  codeState: (code: string) => CodeState = () => "unknown",
): Verdict {
  const host = req.headers.get("host");
  if (host === null || !ownHosts(port).includes(host)) {
    return { ok: false, status: 403, reason: `Host "${host}" is not this loopback server` };
  }
  if (req.method !== "GET" && req.method !== "POST") {
    return { ok: false, status: 405, reason: `Method ${req.method} is not allowed` };
  }
  const url = new URL(req.url);
  // Cookies ignore the port: a page of any other server on 127.0.0.1 (another app, another
  // dashboard) is the same site, so the browser sends it the cookie, SameSite=Strict or not.
  // Only opening the dashboard itself (a top-level visit of "/") may come from elsewhere.
  const site = req.headers.get("sec-fetch-site");
  const origin = req.headers.get("origin");
  const visit = req.method === "GET" && url.pathname === "/" &&
    req.headers.get("sec-fetch-mode") === "navigate";
  if (!visit && site !== null && site !== "same-origin" && site !== "none") {
    return {
      ok: false,
      status: 403,
      reason: `A request from another site (Sec-Fetch-Site: ${site}) is refused; ` +
        `open the dashboard at http://127.0.0.1:${port}/`,
    };
  }
  if (!visit && origin !== null && !ownOrigins(port).includes(origin)) {
    return {
      ok: false,
      status: 403,
      reason: `A request from "${origin}" is refused: only this dashboard's own pages ` +
        `(http://127.0.0.1:${port}) may call it`,
    };
  }
  const code = url.searchParams.get("code");
  if (code !== null && req.method === "GET") {
    const state = codeState(code);
    if (state === "valid") return { ok: true, setCookie: true, code };
    const printed = "open the URL `heimdall ui` printed in its terminal (it carries ?token=…)";
    if (state === "used") {
      return {
        ok: false,
        status: 403,
        reason: `This one-time link was used already: it opens the dashboard once; ${printed}`,
        reused: code,
      };
    }
    if (state === "expired") {
      return { ok: false, status: 403, reason: `This one-time link has expired; ${printed}` };
    }
  }
  const fromQuery = url.searchParams.get("token");
  const fromCookie = cookie(req.headers.get("cookie"), cookieName(port));
  const queryOk = sameToken(fromQuery, token);
  if (!queryOk && !sameToken(fromCookie, token)) {
    return {
      ok: false,
      status: 403,
      reason: "Missing or wrong token; open the URL `heimdall ui` printed (it carries ?token=…)",
    };
  }
  if (req.method === "POST") {
    if (!sameToken(req.headers.get("x-heimdall-token"), token)) {
      return { ok: false, status: 403, reason: "A write needs the X-Heimdall-Token header" };
    }
    const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") {
      return { ok: false, status: 415, reason: "A write needs Content-Type: application/json" };
    }
  }
  return { ok: true, setCookie: queryOk && fromCookie !== token };
}
