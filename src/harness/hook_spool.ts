/**
 * The hand-off of a hook event to the warm server, made durable: before a
 * hook sends its event, it writes it to `$HEIMDALL_HOME/hookd.spool/ID.json`
 * (0600). Whoever records the event first takes the file, by one atomic
 * rename or removal, so an event is handled once:
 *
 * - the server that reads the request renames it `ID.1.PID.taken` and
 *   removes it once the event's work has finished (after its answer, when
 *   the answer was given up at the client's deadline);
 * - a hook whose server could not be asked (none listening, another build)
 *   removes it and answers in its own process;
 * - a hook whose server did not answer in time (stopped, wedged, killed)
 *   leaves it: the server that replaces it, or the same one once it answers
 *   again, records it later ({@link spooled}), with nothing shown to anyone.
 *
 * A file taken by a server that died before the work finished is taken
 * again by the next one, at most {@link MAX_ATTEMPTS} times in all (an event
 * that kills every server that handles it is then dropped, and logged).
 * Uses Deno's own APIs and the pure secret screen only: the hook process
 * imports it.
 */
import { ensurePrivateDir, writePrivateFileAtomic } from "../config/private_files.ts";
import { redactDeep, redactSecrets, screenRecord, type StoredSecret } from "../files/secrets.ts";
import type { HookRequest } from "./hook_run.ts";

/** What a spool file holds: the hook's request and who was acting. */
export interface SpooledEvent {
  /** {@link identityKey} of the hook's environment: only a server that agrees records it. */
  identity: string;
  request: HookRequest;
}

/** One file in the spool: waiting for a taker, or taken by a server that may have died. */
export interface SpoolEntry {
  id: string;
  path: string;
  /** How many servers took it before (0: nobody yet). */
  attempts: number;
  /** The server that took it last (null: nobody yet). */
  pid: number | null;
  mtimeMs: number;
}

/** How many servers may take one event before it is dropped. */
export const MAX_ATTEMPTS = 3;

const ID = /^\d{13}-\d+-[0-9a-f]{8}$/;
const PENDING = /^(\d{13}-\d+-[0-9a-f]{8})\.json$/;
const TAKEN = /^(\d{13}-\d+-[0-9a-f]{8})\.(\d+)\.(\d+)\.taken$/;

/** The spool folder of a home. */
export function spoolDir(homeDir: string): string {
  return `${homeDir}/hookd.spool`;
}

/** True when `id` names a spool file (what a server accepts from a client). */
export function isSpoolId(id: unknown): id is string {
  return typeof id === "string" && ID.test(id);
}

/**
 * Writes the event to the spool and returns its id. Throws when it cannot
 * be written (a full disk, a read-only home): the hook then sends it
 * without a spool file, as before. What the file holds is redacted
 * ({@link redactedRequest}): a secret typed in a prompt or printed by a tool
 * never sits on disk, even when no server ever records the event.
 */
export function spool(homeDir: string, event: SpooledEvent): string {
  const dir = spoolDir(homeDir);
  ensurePrivateDir(dir);
  const rand = [...crypto.getRandomValues(new Uint8Array(4))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  const id = `${String(Date.now()).padStart(13, "0")}-${Deno.pid}-${rand}`;
  const kept: SpooledEvent = { ...event, request: redactedRequest(event.request) };
  writePrivateFileAtomic(`${dir}/${id}.json`, JSON.stringify(kept));
  return id;
}

/**
 * `request` as a spool file keeps it: secrets redacted in its payload (every
 * string of a JSON payload, so it stays JSON; the text otherwise) and in its
 * environment (a harness's own token in `CLAUDE_*`), but for
 * `HEIMDALL_TEAM_URL`, the store the replayed event writes to, which
 * `config.json` keeps as it is too. The replayed event records what it
 * would have recorded: everything stored is redacted on write anyway.
 */
export function redactedRequest(request: HookRequest): HookRequest {
  let stdin = request.stdin;
  try {
    const parsed: unknown = JSON.parse(stdin);
    const clean = redactDeep(parsed);
    if (clean !== parsed) stdin = JSON.stringify(clean);
  } catch {
    stdin = redactSecrets(stdin);
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.env)) {
    env[k] = k === "HEIMDALL_TEAM_URL" ? v : redactSecrets(v);
  }
  return { ...request, stdin, env };
}

/**
 * The hook takes its own event back to answer it itself: true when it
 * removed the file, false when someone else (a server) has taken it.
 */
export function unspool(homeDir: string, id: string): boolean {
  try {
    Deno.removeSync(`${spoolDir(homeDir)}/${id}.json`);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    return true; // it cannot be removed, so nobody can take it: answered here
  }
}

/**
 * Takes `entry` for this process: the path it has now, or null when another
 * process took it first. Throws when it cannot be renamed for another reason
 * (the folder turned read-only): nobody else can take it either.
 */
export function take(
  homeDir: string,
  entry: Pick<SpoolEntry, "id" | "path" | "attempts">,
): string | null {
  const to = `${spoolDir(homeDir)}/${entry.id}.${entry.attempts + 1}.${Deno.pid}.taken`;
  try {
    Deno.renameSync(entry.path, to);
    return to;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/** The pending file of `id` as an entry nobody has taken. */
export function pending(homeDir: string, id: string): SpoolEntry {
  return { id, path: `${spoolDir(homeDir)}/${id}.json`, attempts: 0, pid: null, mtimeMs: 0 };
}

/** The event in a spool file, or null when it holds none (cut short, not ours). */
export function readSpooled(path: string): SpooledEvent | null {
  try {
    const v = JSON.parse(Deno.readTextFileSync(path)) as SpooledEvent;
    const r = v?.request;
    return typeof v.identity === "string" && r && typeof r.harness === "string" &&
        typeof r.stdin === "string" && typeof r.cwd === "string" && typeof r.env === "object"
      ? v
      : null;
  } catch {
    return null;
  }
}

/** Removes a spool file; gone already is fine. */
export function finish(path: string): void {
  try {
    Deno.removeSync(path);
  } catch { /* gone */ }
}

/**
 * Every event in the spool, oldest first: pending ones, and those taken by
 * another process (this one's are being handled). Temporary files of a
 * hook killed mid-write are removed once an hour old.
 */
export function spooled(homeDir: string): SpoolEntry[] {
  const dir = spoolDir(homeDir);
  const out: SpoolEntry[] = [];
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name);
  } catch {
    return out;
  }
  for (const name of names) {
    const path = `${dir}/${name}`;
    let mtimeMs = 0;
    try {
      mtimeMs = Deno.statSync(path).mtime?.getTime() ?? 0;
    } catch {
      continue; // taken meanwhile
    }
    const p = PENDING.exec(name);
    if (p) {
      out.push({ id: p[1]!, path, attempts: 0, pid: null, mtimeMs });
      continue;
    }
    const t = TAKEN.exec(name);
    if (t) {
      const pid = Number(t[3]);
      if (pid !== Deno.pid) out.push({ id: t[1]!, path, attempts: Number(t[2]), pid, mtimeMs });
      continue;
    }
    if (name.endsWith(".tmp") && Date.now() - mtimeMs > 3600_000) finish(path);
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The events waiting in the spool (nobody took them yet) whose payload or
 * environment holds a secret-shaped value, as a build from before
 * {@link redactedRequest} (or before a rule of the screen) wrote them: each
 * named `hookd.spool ID` with its fields (`stdin`, an environment
 * variable), never a value. With `apply`, each is rewritten as
 * {@link spool} writes one now, still waiting to be recorded: moved aside
 * first, so that no server takes it half-written (one that looks meanwhile
 * finds it at its next replay), then put back redacted. An event a server
 * has taken is being recorded, and is removed once it is.
 */
export function redactStoredSpool(homeDir: string, apply: boolean): StoredSecret[] {
  const out: StoredSecret[] = [];
  for (const e of spooled(homeDir)) {
    if (e.pid !== null) continue;
    const event = readSpooled(e.path);
    if (event === null) continue;
    const { stdin, env } = event.request;
    const fields: Record<string, string> = { stdin };
    for (const [k, v] of Object.entries(env)) if (k !== "HEIMDALL_TEAM_URL") fields[k] = v;
    const hit = screenRecord("hookd.spool", e.id, fields);
    if (hit === undefined) continue;
    out.push(hit.found);
    if (!apply) continue;
    const aside = `${e.path}.${Deno.pid}.redact`;
    try {
      Deno.renameSync(e.path, aside);
    } catch {
      continue; // taken meanwhile: recorded, then removed
    }
    const held = readSpooled(aside);
    if (held !== null) {
      writePrivateFileAtomic(
        e.path,
        JSON.stringify({ ...held, request: redactedRequest(held.request) }),
      );
    }
    finish(aside);
  }
  return out;
}
