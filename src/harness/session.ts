/**
 * Per-session state of a harness session, one small JSON file each under
 * `$HEIMDALL_HOME/sessions/`.
 *
 * Hooks are separate processes, several of which may run at once for one
 * session (parallel tool calls), so every read-modify-write holds an
 * exclusive lock on the session's `.lock` file and writes atomically
 * (temporary file, then rename). Nothing here touches the journal.
 */
import { join } from "../files/mod.ts";
import type { HomePaths } from "../config/mod.ts";
import {
  ensurePrivateDir,
  openPrivateFile,
  writePrivateFileAtomic,
} from "../config/private_files.ts";
import { redactDeep, screenRecord, type StoredSecret } from "../files/secrets.ts";
import type { GuardState } from "./grep_guard.ts";

/** A symbol an edit changed (its structural hash moved, or it appeared or went). */
export interface ChangedSymbol {
  id: string;
  qualname: string;
  path: string;
  change: "modified" | "added" | "removed";
}

/** One symbol's structural hash and qualified name at a moment. */
export interface SymbolSnap {
  h: string | null;
  q: string;
}

/** A test command the session ran. */
export interface SessionTestRun {
  command: string;
  runner: string;
  outcome: "pass" | "fail";
  failed: string[];
  atMs: number;
  /** What its attempt was recorded on: the symbols changed and files edited before it. */
  about?: { symbols: ChangedSymbol[]; paths: string[] };
  /** Its attempt is not in memory yet (the journal was locked): written at the next event. */
  unrecorded?: true;
}

/** Everything Heimdall remembers about one harness session between hook calls. */
export interface SessionState {
  harness: string;
  sessionId: string;
  cwd: string;
  startedMs: number;
  updatedMs: number;
  /**
   * The session's task: its first substantial prompt, and the team task id
   * when one was started; `unstarted` while a held journal lock kept it from
   * being started (it is started at the session's next event).
   */
  task: { title: string; id: string | null; unstarted?: true } | null;
  prompts: number;
  /** Keys of context items already injected, so re-injection never repeats them. */
  injected: string[];
  /** Estimated tokens injected so far this session. */
  injectedTokens: number;
  /** Files of the search results injected this session, and those the agent then opened. */
  injectedPaths?: string[];
  usedPaths?: string[];
  guard: GuardState;
  /** Claim-conflict pairs already warned about (`mine|theirs`). */
  warnedPairs: string[];
  /** Symbols claimed before an edit this session (claimed once; the claim's TTL covers the rest). */
  claimed?: string[];
  /** Files edited, most recent last. */
  edited: string[];
  /**
   * A file's symbols before the session first edited it: path → id → hash
   * and name. For an edit the journal took in before any snapshot, what the
   * edit's texts tell (`snapshotFromEdits` in region.ts).
   */
  before: Record<string, Record<string, SymbolSnap>>;
  /** Edited files whose new symbols the journal has not shown yet. */
  pending: string[];
  changed: ChangedSymbol[];
  /** The latest test runs (at most `MAX_TEST_RUNS` in handler.ts). */
  tests: SessionTestRun[];
  /** How many test runs the session made in all (absent in a state from before it was kept). */
  testRuns?: number;
  /** What the last stored summary covered (edits + tests), so a stop with no news stores nothing. */
  summarized: string | null;
  /** Transcript turns already scanned for personal memory (a new stop scans only the rest). */
  personalTurns?: number;
  /**
   * Where the last turn scanned starts in the transcript (bytes), when it is
   * written line by line: what is new past 4 MiB, where a count of turns
   * in the part read no longer tells.
   */
  personalAt?: number;
}

/** A fresh state. */
export function newSession(
  harness: string,
  sessionId: string,
  cwd: string,
  now = Date.now(),
): SessionState {
  return {
    harness,
    sessionId,
    cwd,
    startedMs: now,
    updatedMs: now,
    task: null,
    prompts: 0,
    injected: [],
    injectedTokens: 0,
    guard: { streak: 0, reminded: false },
    warnedPairs: [],
    edited: [],
    before: {},
    pending: [],
    changed: [],
    tests: [],
    summarized: null,
  };
}

/** The folder holding session state files. */
export function sessionsDir(home: HomePaths): string {
  return join(home.home, "sessions");
}

/** The file that holds a session's state (ids are sanitised into a file name). */
export function sessionFile(sessionsDir: string, harness: string, sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120);
  let h = 0;
  for (let i = 0; i < sessionId.length; i++) h = (Math.imul(h, 31) + sessionId.charCodeAt(i)) | 0;
  return join(sessionsDir, `${harness}--${safe}--${(h >>> 0).toString(36)}.json`);
}

/** Reads a session's state, or null when there is none (or it is unreadable). */
export function readSession(file: string): SessionState | null {
  try {
    const raw = JSON.parse(Deno.readTextFileSync(file));
    return typeof raw === "object" && raw !== null ? raw as SessionState : null;
  } catch {
    return null;
  }
}

/**
 * Runs `change` on the session's state under the session lock and writes the
 * result back atomically; creates the state when missing. Returns what
 * `change` returns.
 */
export async function updateSession<T>(
  file: string,
  create: () => SessionState,
  change: (s: SessionState) => T | Promise<T>,
): Promise<T> {
  ensurePrivateDir(join(file, ".."));
  const lock = await openPrivateFile(`${file}.lock`, { create: true, write: true });
  try {
    await lock.lock(true);
    const state = readSession(file) ?? create();
    const out = await change(state);
    state.updatedMs = Date.now();
    // Prompts, commands and test names pass through here: no secret reaches the file.
    writePrivateFileAtomic(file, JSON.stringify(redactDeep(state)));
    return out;
  } finally {
    lock.close();
  }
}

/** Removes session files (and their locks) not touched for `maxAgeMs`. Best effort. */
export function pruneSessions(sessionsDir: string, maxAgeMs: number, now = Date.now()): number {
  let removed = 0;
  try {
    for (const e of Deno.readDirSync(sessionsDir)) {
      if (!e.isFile || !e.name.endsWith(".json")) continue;
      const p = join(sessionsDir, e.name);
      try {
        const m = Deno.statSync(p).mtime?.getTime() ?? now;
        if (now - m > maxAgeMs) {
          Deno.removeSync(p);
          try {
            Deno.removeSync(`${p}.lock`);
          } catch { /* no lock file */ }
          removed++;
        }
      } catch { /* raced with another prune */ }
    }
  } catch { /* no sessions folder yet */ }
  return removed;
}

/**
 * The session files in `sessionsDir` holding a secret-shaped value, as an
 * older build wrote them before a rule of the screen existed: each named by
 * its file and the fields holding one (`task`, `tests`…), never a value.
 * With `apply`, each is rewritten under its session's lock, every string
 * redacted as {@link updateSession} writes them now; nothing else changes
 * (its `updatedMs` neither). Reads every session file; a missing folder
 * holds none.
 */
export function redactStoredSessions(sessionsDir: string, apply: boolean): StoredSecret[] {
  const out: StoredSecret[] = [];
  let names: string[];
  try {
    names = [...Deno.readDirSync(sessionsDir)]
      .filter((e) => e.isFile && e.name.endsWith(".json")).map((e) => e.name).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const file = join(sessionsDir, name);
    const state = readSession(file);
    if (state === null) continue;
    const fields = Object.fromEntries(
      Object.entries(state).map(([k, v]) => [k, stringsIn(v)]),
    );
    const hit = screenRecord("sessions", name, fields);
    if (hit === undefined) continue;
    out.push(hit.found);
    if (!apply) continue;
    let lock: Deno.FsFile | undefined;
    try {
      lock = Deno.openSync(`${file}.lock`, { create: true, write: true, mode: 0o600 });
      lock.lockSync(true);
      // Read again under the lock: a hook may have written it since.
      const now = readSession(file);
      if (now !== null) writePrivateFileAtomic(file, JSON.stringify(redactDeep(now)));
    } finally {
      lock?.close();
    }
  }
  return out;
}

/** Every string inside `value` (object values, array items), in order. */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) { for (const v of value) stringsIn(v, out); }
  else if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) stringsIn(v, out);
  }
  return out;
}
