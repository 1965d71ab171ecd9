/**
 * The warm hook server: one background process per `$HEIMDALL_HOME` that
 * answers `heimdall hook` calls over TCP on 127.0.0.1 (`hookd.port` says the
 * port, the token a client must send and the server's pid), so a hook
 * process only starts Deno, forwards its stdin and prints the answer, while
 * the modules it needs (journal, memory, team, search) stay loaded here.
 *
 * Started detached by the first hook that finds no server (`heimdall hook
 * --serve`); at most one runs per home (an exclusive lock on `hookd.lock`);
 * it exits after `HEIMDALL_HOOKD_IDLE_MS` (default 10 minutes) without a
 * request, when its port file disappears or names another server (the home
 * was removed, or a newer server replaced it), when its code changes on disk
 * (an upgrade), or after refusing a client of another build. Every request is answered by the same code as an in-process
 * hook ({@link answerHook}); a request from a client with a different build
 * or acting identity is refused, and that client answers for itself.
 *
 * A hook whose server did not answer within its wait starts `heimdall hook
 * --serve --replace`: the new server pings the old one and, when the ping
 * goes unanswered too (a stopped or wedged process), kills it and takes its
 * place; a server that answers the ping is left alone. The events such a
 * hook could not hand over wait in the spool (see `hook_spool.ts`): a
 * server records them when it starts, and any left untaken for
 * {@link SPOOL_STALE_MS} while it runs, each with its answer shown to no one.
 *
 * Hostile or broken clients cost little: a connection must send the token
 * within its first bytes and its whole request within {@link FRAME_MS} and
 * {@link MAX_FRAME_BYTES}, or it is closed; at most {@link MAX_CONNECTIONS}
 * are open at once (more are closed on arrival). Journal waits are bounded
 * ({@link HOOK_BUSY_MS} per statement) and every answer is given up after
 * the client's wait, so one request stuck on a lock never holds up others
 * for long.
 */
import { type HomePaths, homePaths } from "../config/mod.ts";
import { after } from "./deadline.ts";
import {
  ensurePrivateDir,
  openPrivateFile,
  tightenHome,
  writePrivateFile,
  writePrivateFileAtomic,
} from "../config/private_files.ts";
import {
  answerHook,
  boundJournalWaits,
  type HookRequest,
  IN_PROCESS_DEADLINE_MS,
} from "./hook_run.ts";
import { hookLog } from "./hook_log.ts";
import { codeStamp } from "../files/mod.ts";
import { migrateBehindJournal } from "../reconcile/journal_upgrade.ts";
import {
  finish,
  isSpoolId,
  MAX_ATTEMPTS,
  pending,
  readSpooled,
  spooled,
  take,
} from "./hook_spool.ts";
import { HeldReader } from "./held_reader.ts";
import {
  DEFAULT_WAIT_MS,
  exchange,
  framePrefix,
  type HookFrame,
  identityKey,
  MAX_FRAME_BYTES,
  type PingFrame,
  portFile,
  readPortFile,
  type SearchFrame,
  type ServerReply,
} from "./hook_wire.ts";

const DEFAULT_IDLE_MS = 10 * 60 * 1000;
const WATCH_MS = 2000;
/** A connection must have sent its whole request line this soon after it was accepted. */
export const FRAME_MS = 2000;
/** Connections open at once; more are closed on arrival. */
export const MAX_CONNECTIONS = 32;
/** How long a replacing server waits for the old one to answer a ping before it kills it. */
const PROBE_MS = 1500;
/** The server answers this long before the client stops waiting. */
const ANSWER_MARGIN_MS = 100;
/**
 * A spooled event nobody took this long after it was written lost its way
 * to a server (the hook gave up before its request went out): the server
 * records it. Longer than any hook waits, and than {@link FRAME_MS}.
 */
const SPOOL_STALE_MS = 15_000;
/** How long a replayed event's work may go on before the server moves to the next one. */
const REPLAY_SETTLE_MS = 30_000;

/**
 * Reads one request line: null when the connection closes, sends more than
 * `limit` bytes, or starts with anything but `prefix` (ASCII). Bytes are
 * kept as they came and decoded once, at the end: memory stays at the
 * line's size and each chunk is looked at once.
 */
async function readFrame(conn: Deno.Conn, prefix: string, limit: number): Promise<string | null> {
  const want = new TextEncoder().encode(prefix);
  const chunks: Uint8Array[] = [];
  const buf = new Uint8Array(64 * 1024);
  let size = 0;
  for (;;) {
    const n = await conn.read(buf);
    if (n === null) return null;
    const chunk = buf.subarray(0, n);
    // A stranger is dropped after the first few bytes, not after megabytes.
    for (let i = 0; i < n && size + i < want.length; i++) {
      if (chunk[i] !== want[size + i]) return null;
    }
    const nl = chunk.indexOf(0x0a);
    if (nl >= 0) {
      if (size + nl < want.length) return null;
      chunks.push(chunk.subarray(0, nl));
      const line = new Uint8Array(size + nl);
      let off = 0;
      for (const c of chunks) {
        line.set(c, off);
        off += c.length;
      }
      return new TextDecoder().decode(line);
    }
    size += n;
    if (size > limit) return null;
    chunks.push(chunk.slice()); // a copy of what came, not the whole read buffer
  }
}

async function reply(conn: Deno.Conn, r: ServerReply): Promise<void> {
  const data = new TextEncoder().encode(JSON.stringify(r) + "\n");
  for (let off = 0; off < data.length;) off += await conn.write(data.subarray(off));
}

/**
 * A command line's search, answered within the client's wait or refused:
 * the client then searches in its own process, where any error is reported
 * as the command always reports it.
 */
async function searched(
  frame: SearchFrame,
  home: HomePaths,
  reader: HeldReader,
): Promise<ServerReply> {
  const { answerSearch } = await import("./search_answer.ts");
  let gaveUp = false;
  const wait = Math.max(20, frame.waitMs - ANSWER_MARGIN_MS);
  const started = performance.now();
  const answer = await Promise.race([
    answerSearch(
      frame.search,
      home,
      frame.env,
      () => gaveUp ||= performance.now() - started >= wait,
      reader,
    )
      .catch(() => "failed" as const),
    after(wait, "failed" as const).then((v) => {
      gaveUp = true;
      return v;
    }),
  ]);
  if (answer === "model" || answer === "failed") return { status: "refused", reason: answer };
  return { status: "searched", answer };
}

/**
 * True when `pid` is a running `hook --serve` process, as `ps` shows its
 * command line (/proc needs every permission under Deno). False when `ps`
 * cannot tell: a process that is not ours is never killed.
 */
async function isHookServer(pid: number): Promise<boolean> {
  try {
    const out = await new Deno.Command("ps", {
      args: ["-p", String(pid), "-o", "args="],
      stdout: "piped",
      stderr: "null",
    }).output();
    const args = new TextDecoder().decode(out.stdout).trim().split(/\s+/);
    return out.success && args.includes("hook") && args.includes("--serve");
  } catch {
    return false;
  }
}

/**
 * Takes the server lock from a server that holds it but answers nothing:
 * pings it, and when no pong comes within {@link PROBE_MS}, kills it (only
 * if it is the hook server the port file names) and waits for its lock.
 * Returns false when the holder is alive, or the lock cannot be had.
 */
async function takeOver(homeDir: string, lock: Deno.FsFile): Promise<boolean> {
  const at = readPortFile(homeDir);
  if (at !== null) {
    const ping: PingFrame = { token: at.token, ping: true };
    const r = await exchange(at.port, ping, PROBE_MS);
    if (typeof r === "object") return false; // it answered: nothing to replace
    const pid = at.pid;
    if (r === "late" && pid !== null && pid !== Deno.pid && await isHookServer(pid)) {
      hookLog(
        homeDir,
        `hook server pid ${pid} did not answer a ping in ${PROBE_MS} ms; pid ${Deno.pid} replaces it`,
      );
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone already */ }
    }
  }
  // The old holder is dead or dying: its lock is released with it.
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    if (await lock.tryLock(true)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** The code on disk is looked at every this many {@link WATCH_MS} ticks. */
const CODE_EVERY = 5;

/**
 * Serves hook requests for the home at `homeDir` until idle. With `replace`,
 * first takes the place of a server that no longer answers. Returns the exit
 * code (0 also when another, live, server already holds the lock).
 */
export async function serve(homeDir: string, build: string, replace = false): Promise<number> {
  const home = homePaths(homeDir);
  boundJournalWaits();
  ensurePrivateDir(homeDir);
  tightenHome(homeDir);
  const lock = await openPrivateFile(`${homeDir}/hookd.lock`, { create: true, write: true });
  if (!(await lock.tryLock(true)) && !(replace && await takeOver(homeDir, lock))) {
    lock.close();
    return 0;
  }
  // The first server of a new build, after an upgrade: a journal the older build wrote is
  // migrated before any hook reads it, unless a writer holds the lock (an older daemon,
  // named in the log: hooks read nothing until it is started again with this build).
  try {
    const done = await migrateBehindJournal(home, 0);
    if (done) {
      hookLog(
        homeDir,
        `hook server: migrated the journal from schema version ${done.have} to ${done.want}`,
      );
    }
  } catch (e) {
    hookLog(
      homeDir,
      `hook server: the journal needs migrating and cannot be now: ${(e as Error).message}`,
    );
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const token = [...crypto.getRandomValues(new Uint8Array(16))].map((b) =>
    b.toString(16).padStart(2, "0")
  ).join("");
  const prefix = framePrefix(token);
  // Events spooled before this are nobody's: hooks send later ones here.
  const listening = Date.now();
  writePrivateFileAtomic(portFile(homeDir), `${port} ${token} ${Deno.pid}\n`);
  writePrivateFile(`${homeDir}/hookd.pid`, `${Deno.pid}\n`);
  const ours = () => readPortFile(homeDir)?.token === token;
  const homeExists = () => {
    try {
      return Deno.statSync(homeDir).isDirectory;
    } catch {
      return false;
    }
  };
  const code = codeStamp();
  let ticks = 0;
  const identity = identityKey((n) => Deno.env.get(n));
  const idleMs = Number(Deno.env.get("HEIMDALL_HOOKD_IDLE_MS")) || DEFAULT_IDLE_MS;
  let last = Date.now();
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    // A home removed under the server stays removed: the log would bring its folder back.
    if (homeExists()) hookLog(homeDir, `hook server pid ${Deno.pid} stops: ${why}`);
    try {
      listener.close();
    } catch { /* already closed */ }
  };
  const watch = setInterval(() => {
    if (Date.now() - last > idleMs) return stop(`idle for ${Math.round(idleMs / 1000)} s`);
    if (!ours()) return stop("its port file is gone or names another server");
    if (++ticks % CODE_EVERY !== 0) return;
    if (codeStamp() !== code) {
      return stop("its code changed on disk (the next hook starts it anew)");
    }
    if (!replaying) track(replay(Date.now() - SPOOL_STALE_MS));
  }, WATCH_MS);
  hookLog(homeDir, `hook server pid ${Deno.pid} listening on 127.0.0.1:${port}`);
  // One mapped connection for every request's reads (a hook's writes open their own).
  const reader = new HeldReader(home.journal);
  // Load what requests need now, not on the first request, then search once so
  // that the first search asked runs compiled code on pages already read.
  void import("./services_impl.ts").then(() =>
    Promise.all([
      import("../memory/mod.ts"),
      import("../search/mod.ts"),
      import("./search_answer.ts"),
      import("../team/mod.ts"),
      import("../map/mod.ts"),
    ])
  ).then(async ([, , answers]) => {
    const t0 = performance.now();
    if (await answers.warmSearch(home, reader)) {
      hookLog(
        homeDir,
        `hook server pid ${Deno.pid} warmed up: a search in ${
          Math.round(performance.now() - t0)
        } ms`,
      );
    }
  }).catch((e) => hookLog(homeDir, `hook server: warm-up: ${(e as Error).message}`));
  const inflight = new Set<Promise<void>>();
  let open = 0;
  let turnedAway = 0;
  const handle = async (conn: Deno.Conn) => {
    // Whatever the client does, the request line arrives in time or the connection goes.
    const slow = setTimeout(() => {
      try {
        conn.close();
      } catch { /* closed */ }
    }, FRAME_MS);
    let authentic = false;
    // The spool file this request took, removed once all of its work is done.
    let taken: string | null = null;
    let settled = false;
    let settle!: () => void;
    const done = new Promise<void>((r) => (settle = r));
    try {
      const line = await readFrame(conn, prefix, MAX_FRAME_BYTES);
      clearTimeout(slow);
      if (line === null) return;
      const frame = JSON.parse(line) as HookFrame | SearchFrame | PingFrame;
      if (frame.token !== token) return; // not a client of this home: no answer at all
      authentic = true;
      if ("ping" in frame) {
        await reply(conn, { status: "pong", pid: Deno.pid });
        return;
      }
      if (frame.build !== build) {
        await reply(conn, { status: "refused", reason: "build" });
        // Hooks of another build mean this server is out of date; a search typed with
        // another build (a second checkout, a binary beside `deno run`) does not.
        if (!("search" in frame)) stop(`a client of another build (${frame.build})`);
        return;
      }
      if (frame.identity !== identity) {
        await reply(conn, { status: "refused", reason: "identity" });
        return;
      }
      if ("search" in frame) {
        await reply(conn, await searched(frame, home, reader));
        return;
      }
      const req: HookRequest = frame.request;
      const arrived = performance.now();
      // Events a dead server left are older than this one: recorded first, in order (a
      // session's edit after its before-edit snapshot). Past the wait, it is recorded late.
      await leftOver;
      if (isSpoolId(frame.spool)) {
        let took: string | null | undefined;
        try {
          took = take(homeDir, pending(homeDir, frame.spool));
        } catch (e) {
          // Nobody can take it: answered and recorded here, as without a spool.
          hookLog(homeDir, `hook server: spooled event ${frame.spool}: ${(e as Error).message}`);
        }
        // Recorded already (this server replayed it: the request came that late).
        if (took === null) return await reply(conn, { status: "ok", stdout: null });
        taken = took ?? null;
      }
      const wait = frame.waitMs ?? DEFAULT_WAIT_MS;
      const stdout = await answerHook(
        req,
        home,
        `server pid ${Deno.pid}`,
        Math.max(20, wait - ANSWER_MARGIN_MS - (performance.now() - arrived)),
        reader,
        {
          settled: () => {
            settled = true;
            settle();
          },
        },
      );
      // Done before the answer: a hook that returned leaves nothing behind. Given up at
      // the deadline, the work goes on, and its file goes when it is done (below).
      if (settled && taken !== null) {
        finish(taken);
        taken = null;
      }
      await reply(conn, { status: "ok", stdout });
    } catch (e) {
      if (authentic) {
        hookLog(homeDir, `hook server: request failed: ${(e as Error)?.stack ?? String(e)}`);
        try {
          await reply(conn, { status: "ok", stdout: null });
        } catch { /* the client went away */ }
      }
    } finally {
      clearTimeout(slow);
      if (authentic) last = Date.now();
      try {
        conn.close();
      } catch { /* already closed */ }
      // Its work goes on without holding a connection's place.
      const left = taken;
      if (left !== null) track(done.then(() => finish(left)));
    }
  };
  let replaying = false;
  const told = new Set<string>();
  /**
   * Records the events hooks left in the spool (see hook_spool.ts): every
   * one a dead server had taken, and those nobody took, written before
   * `before` (epoch ms). Each is handled as the hook would have been, its
   * answer shown to no one.
   */
  const replay = async (before: number) => {
    if (replaying) return;
    replaying = true;
    try {
      for (const e of spooled(homeDir)) {
        if (stopping) return;
        if (e.pid === null ? e.mtimeMs >= before : await isHookServer(e.pid)) continue;
        const event = readSpooled(e.path);
        if (event === null) {
          hookLog(homeDir, `hook server: spooled event ${e.id} is unreadable; removed`);
          finish(e.path);
          continue;
        }
        const what = `spooled ${event.request.harness} event ${e.id}`;
        if (event.identity !== identity) {
          if (!told.has(e.id)) {
            told.add(e.id);
            hookLog(
              homeDir,
              `hook server: ${what} was sent by another user or author; left for a server of theirs`,
            );
          }
          continue;
        }
        if (e.attempts >= MAX_ATTEMPTS) {
          hookLog(
            homeDir,
            `hook server: ${what} was taken by ${e.attempts} servers that died before recording it; dropped`,
          );
          finish(e.path);
          continue;
        }
        let path: string | null;
        try {
          path = take(homeDir, e);
        } catch (err) {
          hookLog(homeDir, `hook server: ${what} cannot be taken: ${(err as Error).message}`);
          continue;
        }
        if (path === null) continue; // its hook, or a request, took it meanwhile
        let settle!: () => void;
        const settled = new Promise<void>((r) => (settle = r));
        await answerHook(
          event.request,
          home,
          `server pid ${Deno.pid}, replayed`,
          IN_PROCESS_DEADLINE_MS,
          reader,
          { unseen: true, settled: () => settle() },
        );
        if (await Promise.race([settled.then(() => true), after(REPLAY_SETTLE_MS, false)])) {
          // Said before its file goes: whoever sees the spool empty finds the line too.
          hookLog(
            homeDir,
            `hook server pid ${Deno.pid}: recorded ${what}, which its hook could not hand over`,
          );
          finish(path);
        } else {
          hookLog(
            homeDir,
            `hook server: ${what} still runs after ${REPLAY_SETTLE_MS} ms; left for the next server`,
          );
        }
      }
    } catch (e) {
      hookLog(homeDir, `hook server: replaying the spool: ${(e as Error)?.stack ?? String(e)}`);
    } finally {
      replaying = false;
    }
  };
  const track = (p: Promise<void>) => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };
  // What hooks left for this server: the one it replaces died or stopped with them.
  const leftOver = replay(listening);
  track(leftOver);
  try {
    for await (const conn of listener) {
      if (open >= MAX_CONNECTIONS) {
        // Full: the client fails open (it never waits past its budget) rather than queue here.
        if (turnedAway++ % 1000 === 0) {
          hookLog(homeDir, `hook server: ${MAX_CONNECTIONS} connections open; turning others away`);
        }
        try {
          conn.close();
        } catch { /* closed */ }
        continue;
      }
      open++;
      const p = handle(conn).finally(() => {
        open--;
        inflight.delete(p);
      });
      inflight.add(p);
    }
  } catch (e) {
    if (!stopping) hookLog(homeDir, `hook server: accept failed: ${(e as Error).message}`);
  } finally {
    clearInterval(watch);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(inflight),
      new Promise((r) => (timer = setTimeout(r, IN_PROCESS_DEADLINE_MS))),
    ]);
    clearTimeout(timer);
    reader.close();
    try {
      if (ours()) Deno.removeSync(portFile(homeDir));
    } catch { /* gone already */ }
    try {
      // Not when it names the server that replaced this one.
      if (Number(Deno.readTextFileSync(`${homeDir}/hookd.pid`).trim()) === Deno.pid) {
        Deno.removeSync(`${homeDir}/hookd.pid`);
      }
    } catch { /* gone already */ }
    lock.close();
  }
  return 0;
}
