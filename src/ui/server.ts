/**
 * The dashboard's HTTP server: loopback only, every request checked by
 * {@link checkRequest}, static assets from `assets/` (embedded in the
 * binary), a JSON API over the journal, and server-sent events when the
 * journal changes.
 */
import { type Config, type HomePaths, logUsage } from "../config/mod.ts";
import { EnvironmentError, HeimdallError } from "../errors/mod.ts";
import { configuredTuning, search, type SearchKind, searchUsage } from "../search/mod.ts";
import { describeFault, Journal, journalFile, listRoots } from "../store/mod.ts";
import { openTeamStore, SharedMemory, syncTeamMemories } from "../team/mod.ts";
import { CodeMap } from "./code_map.ts";
import { fileLines, FileRefusedError } from "./files.ts";
import type { DemoState } from "./demo.ts";
import { checkRequest, type CodeState, cookieName, newToken } from "./guard.ts";
import { addMemory, type AddMemoryInput, badges, memoryView } from "./memory_data.ts";
import { repoMaps } from "./map_data.ts";
import { teamView } from "./team_data.ts";
import { usage } from "./usage_data.ts";

/** What the server needs from the command that starts it. */
export interface UiOptions {
  /** The home whose journal the dashboard reads. */
  home: HomePaths;
  /** The configuration, as it is now. */
  config(): Config;
  /** 0: any free port. */
  port: number;
  /** Who writes from this dashboard (decisions are recorded with this author). */
  author: string;
  /** `heimdall status --json`'s data, for the health view. */
  status?: () => Promise<unknown>;
  /** `heimdall map check --json` of each repository holding a map, for the map view. */
  mapCheck?: (repos: string[]) => Promise<unknown>;
  /** Fixed token (tests); random otherwise. */
  token?: string;
  /** How often the journal is looked at for changes, ms. */
  pollMs?: number;
  /** `--demo`: the scripted scenario the page steps through. */
  demo?: DemoPlayer;
  /**
   * Called when a one-time link ({@link UiServer.openUrl}) is used a second
   * time, with what to tell the person and the new address: the token was
   * changed, so that whoever took the link (it was on a command line any
   * user may read) holds a cookie worth nothing.
   */
  onReuse?: (message: string, url: string) => void;
  /** How long a one-time link stays usable, ms (default 2 minutes). */
  codeTtlMs?: number;
}

/** Plays `heimdall ui --demo`'s scenario (see `demo.ts`), one step per call. */
export interface DemoPlayer {
  /** Where the demo stands. */
  state(): DemoState;
  /** Runs the next step; resolves with the new state (its output or error in `last`). */
  next(): Promise<DemoState>;
}

/** A running dashboard. */
export interface UiServer {
  /** The address to open, with the token (`http://127.0.0.1:PORT/?token=…`), to print. */
  readonly url: string;
  /** The port it listens on (127.0.0.1). */
  port: number;
  /** The token every request must carry (changed when a one-time link is used twice). */
  readonly token: string;
  /**
   * A new one-time address (`http://127.0.0.1:PORT/?code=…`) for a program
   * whose command line others may read (xdg-open, open): its code is
   * exchanged for the cookie once, within {@link UiOptions.codeTtlMs}, and
   * is worth nothing after; a second use changes the token.
   */
  openUrl(): string;
  /** Stops serving and closes the journal. */
  close(): Promise<void>;
}

const ASSETS = `${import.meta.dirname}/assets`;
const SEARCH_KINDS: readonly SearchKind[] = ["code", "docs", "notes", "memory"];
const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};
const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" },
  });
}

function fail(status: number, message: string): Response {
  return json({ error: message }, status);
}

function escapeAttr(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Where the journal stands on disk: changes when any process commits to it. */
function journalStamp(path: string): string {
  const parts: string[] = [];
  for (const p of [path, `${path}-wal`]) {
    try {
      const s = Deno.statSync(p);
      parts.push(`${s.size}:${s.mtime?.getTime() ?? 0}`);
    } catch {
      parts.push("-");
    }
  }
  return parts.join("|");
}

/**
 * Starts the dashboard on 127.0.0.1. Throws JournalError when there is no
 * journal yet (nothing indexed), Deno.errors.AddrInUse when `port` is taken,
 * EnvironmentError when this user may not listen on it.
 */
export function startUi(opts: UiOptions): UiServer {
  let token = opts.token ?? newToken();
  // One-time codes given out, each with when it expires (0 once used).
  const codes = new Map<string, number>();
  const codeState = (code: string): CodeState => {
    const expires = codes.get(code);
    return expires === undefined
      ? "unknown"
      : expires === 0
      ? "used"
      : Date.now() > expires
      ? "expired"
      : "valid";
  };
  const path = opts.home.journal;
  let j = Journal.open(path, { readOnly: true, mapped: true });
  let file = journalFile(path);
  // Connections to a journal since replaced: a request may still be reading
  // one, so they are closed when no request is under way.
  const retired: Journal[] = [];
  let running = 0;
  const settle = () => {
    if (running === 0) { for (const old of retired.splice(0)) old.close(); }
  };
  const listeners = new Set<(event: string) => void>();
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const broadcast = (event: string) => {
    for (const l of listeners) l(event);
  };
  let map = new CodeMap(j, () => broadcast("map-ready"));
  let stamp = journalStamp(path);
  const poll = setInterval(() => {
    const now = journalStamp(path);
    if (now === stamp) return;
    const current = journalFile(path);
    if (current !== null && current !== file) {
      // Another file at the journal's path (deleted and indexed again, a rebuild's salvage):
      // read that one, or this connection shows the old file's rows for ever.
      let fresh: Journal;
      try {
        fresh = Journal.open(path, { readOnly: true, mapped: true });
      } catch {
        return; // not a journal yet (still being created): looked at again on the next tick
      }
      retired.push(j);
      j = fresh;
      file = current;
      map = new CodeMap(j, () => broadcast("map-ready"));
      settle();
    }
    stamp = now;
    map.invalidate();
    broadcast("change");
  }, opts.pollMs ?? 1000);

  let port = opts.port;
  const handler = async (req: Request): Promise<Response> => {
    const verdict = checkRequest(req, token, port, codeState);
    if (!verdict.ok) {
      if (verdict.reused !== undefined) {
        // Two visits with one code: the browser's and someone else's, who read it from the
        // opener's command line. Whichever came first, a new token shuts them out.
        // The codes are forgotten too: a third use is no more than a wrong token, so
        // whoever keeps the link cannot keep changing the token.
        token = newToken();
        codes.clear();
        opts.onReuse?.(
          "The one-time link given to the browser was used twice: someone else on this machine may have read it from the process list (ps). The dashboard's token was changed, which shuts out whoever used it; open the new URL",
          printedUrl(),
        );
      }
      return fail(verdict.status, verdict.reason);
    }
    const url = new URL(req.url);
    if (verdict.setCookie) {
      // First visit: keep the token in a cookie and take it (or the code) out of the address bar.
      if (verdict.code !== undefined) codes.set(verdict.code, 0);
      url.searchParams.delete("token");
      url.searchParams.delete("code");
      const location = url.pathname + url.search;
      const setCookie = `${cookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
      const site = req.headers.get("sec-fetch-site");
      if (site === "cross-site" || site === "same-site") {
        // Followed from another site's page (a web terminal, a chat): a redirect stays that
        // site's navigation, which a SameSite=Strict cookie does not go with, and the page
        // answered "Missing or wrong token" to the URL `heimdall ui` printed. A navigation
        // from this page is this site's; "refresh" replaces the entry, as the redirect did.
        return new Response(
          `<!doctype html><meta http-equiv="refresh" content="0;url=${escapeAttr(location)}">` +
            `<title>Heimdall</title><a href="${escapeAttr(location)}">Open the dashboard</a>\n`,
          {
            headers: {
              ...SECURITY_HEADERS,
              "content-type": TYPES.html!,
              "set-cookie": setCookie,
            },
          },
        );
      }
      return new Response(null, {
        status: 303,
        headers: { ...SECURITY_HEADERS, location, "set-cookie": setCookie },
      });
    }
    try {
      return await route(req, url);
    } catch (e) {
      // By kind, as the CLI's exit codes are: bad input 400, the environment 503.
      if (e instanceof FileRefusedError) return fail(e.status, e.message);
      if (e instanceof HeimdallError && e.kind === "usage") return fail(400, e.message);
      if (e instanceof HeimdallError && e.kind === "environment") return fail(503, e.message);
      // A body that is not JSON, or not the object a POST takes.
      if (e instanceof TypeError || e instanceof SyntaxError) return fail(400, e.message);
      // SQLite's own "database disk image is malformed" met by a query on a bad page (or
      // busy, I/O, disk full): said as every command says it, with the remedy, not as a bug.
      const fault = describeFault(e, path);
      if (fault.kind === "environment") return fail(503, fault.message);
      return fail(500, `Internal error: ${(e as Error).message ?? e}`);
    }
  };

  const route = async (req: Request, url: URL): Promise<Response> => {
    const p = url.pathname;
    const q = (k: string) => url.searchParams.get(k);
    if (req.method === "POST") {
      if (p === "/api/remember") return await remember(await req.json() as AddMemoryInput);
      if (p === "/api/demo/next" && opts.demo) {
        await req.body?.cancel();
        const state = await opts.demo.next();
        map.invalidate();
        broadcast("change");
        return json(state);
      }
      return fail(404, `No such endpoint "${p}"`);
    }
    switch (p) {
      case "/":
        return index();
      case "/favicon.ico":
        return new Response(null, { status: 204, headers: SECURITY_HEADERS });
      case "/app.js":
      case "/app.css":
        return asset(p.slice(1));
      case "/api/search": {
        const query = (q("q") ?? "").trim();
        if (query === "") return fail(400, "Missing q: what you are looking for");
        const limit = Math.min(200, Math.max(1, Number(q("limit") ?? 10) || 10));
        const kind = q("kind");
        if (kind && !SEARCH_KINDS.includes(kind as SearchKind)) {
          return fail(400, `Invalid kind "${kind}": expected one of ${SEARCH_KINDS.join(", ")}`);
        }
        // The team's memories, copied in before the journal is read, as `heimdall search` does.
        let warning: string | null = null;
        if (!kind || kind === "memory") await syncTeamMemories(opts, (m) => (warning = m));
        const result = await search(j, {
          query,
          limit,
          ...(q("repo") ? { repo: q("repo")! } : {}),
          ...(q("path") ? { pathPrefix: q("path")! } : {}),
          ...(q("lang") ? { lang: q("lang")!.toLowerCase() } : {}),
          ...(kind ? { kind: kind as SearchKind } : {}),
          viewer: opts.author,
        }, configuredTuning(opts.config()));
        logUsage(opts.home, searchUsage("ui", result));
        return json({ ...result, warning });
      }
      case "/api/file":
        return json(await fileLines(j, q("path") ?? "", Number(q("line") ?? 1)));
      case "/api/map": {
        const at = q("at");
        const file = q("file");
        const symbol = q("symbol");
        if (symbol) return json(map.symbol(symbol));
        if (file) return json(map.file(file));
        return json(map.level(at && at !== "" ? at : null));
      }
      case "/api/badges":
        return json(badges(j, opts.author));
      case "/api/team": {
        const store = await openTeamStore(opts);
        try {
          return json(await teamView(j, store));
        } finally {
          await store.close();
        }
      }
      case "/api/memory": {
        // With a shared team store, its memories are copied in first (as `heimdall search` does).
        let warning: string | null = null;
        await syncTeamMemories(opts, (m) => (warning = m));
        return json({ ...memoryView(j, opts.author), now: Date.now(), warning });
      }
      case "/api/health": {
        const maps = repoMaps(listRoots(j).map((r) => r.path));
        return json({
          status: opts.status ? await opts.status() : null,
          check: opts.mapCheck ? await opts.mapCheck(maps.map((m) => m.repo)) : null,
          maps,
        });
      }
      case "/api/usage":
        return json(usage(opts.home));
      case "/api/events":
        return events();
      case "/api/demo":
        return opts.demo ? json(opts.demo.state()) : fail(404, "Not a demo (`heimdall ui --demo`)");
      default:
        return fail(404, `No such page "${p}"`);
    }
  };

  const remember = async (input: AddMemoryInput): Promise<Response> => {
    if (typeof input !== "object" || input === null || typeof input.text !== "string") {
      return fail(400, "Expected {kind, text, about[], author}");
    }
    const author = typeof input.author === "string" && input.author.trim() !== ""
      ? input.author.trim()
      : opts.author;
    const w = Journal.open(opts.home.journal);
    const shared = await SharedMemory.open(opts);
    try {
      const r = await addMemory(w, shared, {
        ...input,
        author,
        about: Array.isArray(input.about) ? input.about.map(String) : [],
      });
      map.invalidate();
      broadcast("change");
      return json(r);
    } finally {
      await shared.close();
      w.close();
    }
  };

  const index = (): Response => {
    const html = Deno.readTextFileSync(`${ASSETS}/index.html`)
      .replace(
        "<!--meta-->",
        `<meta name="heimdall-token" content="${escapeAttr(token)}">` +
          `<meta name="heimdall-author" content="${escapeAttr(opts.author)}">`,
      );
    return new Response(html, { headers: { ...SECURITY_HEADERS, "content-type": TYPES.html! } });
  };

  const asset = (name: string): Response => {
    const ext = name.split(".").pop()!;
    return new Response(Deno.readFileSync(`${ASSETS}/${name}`), {
      headers: { ...SECURITY_HEADERS, "content-type": TYPES[ext] ?? "application/octet-stream" },
    });
  };

  const events = (): Response => {
    let send: ((event: string) => void) | undefined;
    let ping: ReturnType<typeof setInterval> | undefined;
    let own: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const enc = new TextEncoder();
        send = (event) => {
          try {
            controller.enqueue(enc.encode(`event: ${event}\ndata: {}\n\n`));
          } catch { /* closed */ }
        };
        listeners.add(send);
        streams.add(own = controller);
        controller.enqueue(enc.encode(": connected\n\n"));
        ping = setInterval(() => send?.("ping"), 25_000);
      },
      cancel() {
        if (send) listeners.delete(send);
        if (own) streams.delete(own);
        clearInterval(ping);
      },
    });
    return new Response(body, {
      headers: { ...SECURITY_HEADERS, "content-type": "text/event-stream" },
    });
  };

  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname: "127.0.0.1",
      port: opts.port,
      onListen: () => {},
    }, async (req) => {
      running++;
      try {
        return await handler(req);
      } finally {
        running--;
        settle();
      }
    });
  } catch (e) {
    // Nothing is served: stop polling the journal and close it (a caller may try another port).
    clearInterval(poll);
    j.close();
    if (e instanceof Deno.errors.PermissionDenied) {
      // Said as a path's permissions, and there is no path: a port below 1024 needs root.
      throw new EnvironmentError(
        `Cannot listen on 127.0.0.1:${opts.port}: permission denied (a port below 1024 needs root); pass another --port (0: any free one)`,
        { cause: e },
      );
    }
    throw e;
  }
  port = server.addr.port;
  // Read the file list before the first page asks for it.
  setTimeout(() => {
    try {
      map.warm();
    } catch { /* a damaged journal: the request that reads it next answers why (503) */ }
  }, 0);
  const printedUrl = () => `http://127.0.0.1:${port}/?token=${token}`;
  return {
    get url() {
      return printedUrl();
    },
    port,
    get token() {
      return token;
    },
    openUrl() {
      const code = newToken();
      codes.set(code, Date.now() + (opts.codeTtlMs ?? 120_000));
      return `http://127.0.0.1:${port}/?code=${code}`;
    },
    async close() {
      clearInterval(poll);
      // Open event streams would keep shutdown() waiting for ever.
      for (const c of streams) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      listeners.clear();
      await server.shutdown();
      for (const old of retired) old.close();
      j.close();
    },
  };
}
