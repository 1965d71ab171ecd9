/**
 * The warm hook server: one background process per `$HEIMDALL_HOME` that
 * answers `heimdall hook` calls over TCP on 127.0.0.1 (`hookd.port` says the
 * port and the token a client must send), so a hook
 * process only starts Deno, forwards its stdin and prints the answer, while
 * the modules it needs (journal, memory, team, search) stay loaded here.
 *
 * Started detached by the first hook that finds no server (`heimdall hook
 * --serve`); at most one runs per home (an exclusive lock on `hookd.lock`);
 * it exits after `HEIMDALL_HOOKD_IDLE_MS` (default 10 minutes) without a
 * request, when its port file disappears or names another server (the home
 * was removed, or a newer server replaced it), or after refusing a client of
 * another build. Every
 * request is answered by the same code as an in-process hook
 * ({@link answerHook}); a request from a client with a different build or
 * acting identity is refused, and that client answers for itself.
 */
import { homePaths } from "../config/mod.ts";
import { answerHook, DEADLINE_MS, type HookRequest } from "./hook_run.ts";
import { hookLog } from "./hook_log.ts";
import {
  type HookFrame,
  identityKey,
  portFile,
  readPortFile,
  type ServerReply,
} from "./hook_wire.ts";

const DEFAULT_IDLE_MS = 10 * 60 * 1000;
const WATCH_MS = 2000;

async function readLine(conn: Deno.Conn, limit: number): Promise<string | null> {
  const dec = new TextDecoder();
  const buf = new Uint8Array(64 * 1024);
  let text = "";
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) return null;
    text += dec.decode(buf.subarray(0, n), { stream: true });
    const nl = text.indexOf("\n");
    if (nl >= 0) return text.slice(0, nl);
    if (text.length > limit) return null;
  }
}

async function reply(conn: Deno.Conn, r: ServerReply): Promise<void> {
  const data = new TextEncoder().encode(JSON.stringify(r) + "\n");
  for (let off = 0; off < data.length;) off += await conn.write(data.subarray(off));
}

/**
 * Serves hook requests for the home at `homeDir` until idle. Returns the
 * exit code (0 also when another server already holds the lock).
 */
export async function serve(homeDir: string, build: string): Promise<number> {
  const home = homePaths(homeDir);
  Deno.mkdirSync(homeDir, { recursive: true });
  const lock = await Deno.open(`${homeDir}/hookd.lock`, { create: true, write: true });
  if (!(await lock.tryLock(true))) {
    lock.close();
    return 0;
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const token = [...crypto.getRandomValues(new Uint8Array(16))].map((b) =>
    b.toString(16).padStart(2, "0")
  ).join("");
  const tmp = `${portFile(homeDir)}.${Deno.pid}.tmp`;
  Deno.writeTextFileSync(tmp, `${port} ${token}\n`, { mode: 0o600 });
  Deno.renameSync(tmp, portFile(homeDir));
  Deno.writeTextFileSync(`${homeDir}/hookd.pid`, `${Deno.pid}\n`);
  const ours = () => readPortFile(homeDir)?.token === token;
  const identity = identityKey((n) => Deno.env.get(n));
  const idleMs = Number(Deno.env.get("HEIMDALL_HOOKD_IDLE_MS")) || DEFAULT_IDLE_MS;
  let last = Date.now();
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    hookLog(homeDir, `hook server pid ${Deno.pid} stops: ${why}`);
    try {
      listener.close();
    } catch { /* already closed */ }
  };
  const watch = setInterval(() => {
    if (Date.now() - last > idleMs) return stop(`idle for ${Math.round(idleMs / 1000)} s`);
    if (!ours()) stop("its port file is gone or names another server");
  }, WATCH_MS);
  hookLog(homeDir, `hook server pid ${Deno.pid} listening on 127.0.0.1:${port}`);
  // Load what requests need now, not on the first request.
  void import("./services_impl.ts").then(() =>
    Promise.all([
      import("../memory/mod.ts"),
      import("../search/mod.ts"),
      import("../team/mod.ts"),
      import("../map/mod.ts"),
    ])
  ).catch((e) => hookLog(homeDir, `hook server: warm-up: ${(e as Error).message}`));
  const inflight = new Set<Promise<void>>();
  const handle = async (conn: Deno.Conn) => {
    try {
      const line = await readLine(conn, 16 * 1024 * 1024);
      if (line === null) return;
      const frame = JSON.parse(line) as HookFrame;
      if (frame.token !== token) return; // not a client of this home: no answer at all
      if (frame.build !== build) {
        await reply(conn, { status: "refused", reason: "build" });
        stop(`a client of another build (${frame.build})`);
        return;
      }
      if (frame.identity !== identity) {
        await reply(conn, { status: "refused", reason: "identity" });
        return;
      }
      const req: HookRequest = frame.request;
      const stdout = await answerHook(req, home, `server pid ${Deno.pid}`);
      await reply(conn, { status: "ok", stdout });
    } catch (e) {
      hookLog(homeDir, `hook server: request failed: ${(e as Error)?.stack ?? String(e)}`);
      try {
        await reply(conn, { status: "ok", stdout: null });
      } catch { /* the client went away */ }
    } finally {
      last = Date.now();
      try {
        conn.close();
      } catch { /* already closed */ }
    }
  };
  try {
    for await (const conn of listener) {
      last = Date.now();
      const p = handle(conn);
      inflight.add(p);
      p.finally(() => inflight.delete(p));
    }
  } catch (e) {
    if (!stopping) hookLog(homeDir, `hook server: accept failed: ${(e as Error).message}`);
  } finally {
    clearInterval(watch);
    await Promise.race([Promise.all(inflight), new Promise((r) => setTimeout(r, DEADLINE_MS))]);
    try {
      if (ours()) Deno.removeSync(portFile(homeDir));
    } catch { /* gone already */ }
    try {
      Deno.removeSync(`${homeDir}/hookd.pid`);
    } catch { /* gone already */ }
    lock.close();
  }
  return 0;
}
