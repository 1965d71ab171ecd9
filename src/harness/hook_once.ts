/**
 * One event, handled once. A harness runs every hook its settings hold, so
 * Heimdall's hooks wired at both scopes (user and project settings) receive
 * each event twice, at the same moment, with the same payload: both would
 * inject the same context and record the event twice (a failing test run
 * counted as two). The hooks of one home agree through a marker per event,
 * `$HEIMDALL_HOME/hookd.once/FINGERPRINT` (0600), holding who took it, when
 * that process started and, once it is done, when it ended:
 *
 * - the first hook to create it handles the event;
 * - a hook started before the marker's hook ended (a sibling the harness
 *   spawned with it) answers nothing;
 * - a hook started after it ended is the same payload sent again (a prompt
 *   typed twice, a fixture replayed): it takes the marker over and handles
 *   the event, so nothing the person does twice is lost.
 *
 * A marker whose hook never ended (killed) stops counting after
 * {@link ONCE_STALE_MS}; markers are removed then. Fails open: when the
 * folder cannot be used, every hook handles the event. Uses Deno's own APIs
 * only: the hook process imports it.
 */
import {
  ensurePrivateDir,
  writePrivateFile,
  writePrivateFileAtomic,
} from "../config/private_files.ts";

/** Past this, a marker no longer counts (its hook was killed) and is removed. */
export const ONCE_STALE_MS = 60_000;

/** What a marker holds. */
interface Marker {
  /** Unique to the hook run that wrote it. */
  nonce: string;
  /** When that hook's process started (ms since the epoch). */
  start: number;
  /** When it ended, once it has. */
  end?: number;
}

/** The marker folder of a home. */
export function onceDir(homeDir: string): string {
  return `${homeDir}/hookd.once`;
}

/**
 * The fingerprint of an event as a harness sends it: its harness, `--event`,
 * folder and payload, hashed (SHA-256, hex). Two hooks given the same bytes
 * get the same one.
 */
export async function eventFingerprint(
  request: { harness: string; event: string | null; cwd: string; stdin: string },
): Promise<string> {
  const text = JSON.stringify([request.harness, request.event, request.cwd, request.stdin]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A claim on one event: `first` false when another hook is handling it. */
export interface OnceClaim {
  first: boolean;
  /** Records that this hook is done (its marker gets its end); a no-op when not first. */
  done(): void;
}

/**
 * Claims the event `fingerprint` for this process, started at `start` (ms
 * since the epoch; the default is this process's start, before its modules
 * loaded). Costs a folder listing (the markers of the last minute), a
 * create and, for a repeated payload, a read and a rename.
 */
export function claimEvent(
  homeDir: string,
  fingerprint: string,
  start: number = performance.timeOrigin,
): OnceClaim {
  const none: OnceClaim = { first: false, done() {} };
  const open: OnceClaim = { first: true, done() {} };
  const dir = onceDir(homeDir);
  const path = `${dir}/${fingerprint}`;
  const mine: Marker = { nonce: nonce(), start };
  try {
    ensurePrivateDir(dir);
    sweep(dir);
    for (let attempt = 0; attempt < 3; attempt++) {
      if (create(path, mine)) {
        return {
          first: true,
          done() {
            // Still ours: rewritten with its end, for a sibling that starts claiming later.
            if (read(path)?.nonce === mine.nonce) {
              try {
                writePrivateFileAtomic(path, JSON.stringify({ ...mine, end: Date.now() }));
              } catch { /* a sibling then counts it as running, until it is stale */ }
            }
          },
        };
      }
      const held = read(path);
      if (held === null) {
        // Being written this instant (or gone meanwhile): created by a sibling, unless stale.
        if (ageMs(path) < ONCE_STALE_MS) return none;
      } else if (start < (held.end ?? held.start + ONCE_STALE_MS)) {
        return none; // started while its hook ran: the same event, sent twice
      }
      // The same payload sent again after its hook ended: take the marker over.
      if (!takeOver(path, held)) return none;
    }
  } catch { /* the folder cannot be used: every hook handles the event */ }
  return open;
}

function nonce(): string {
  return `${Deno.pid}-${
    [...crypto.getRandomValues(new Uint8Array(6))]
      .map((b) => b.toString(16).padStart(2, "0")).join("")
  }`;
}

/** Creates `path` holding `m`, whole, unless it exists (a hard link is created or fails at once). */
function create(path: string, m: Marker): boolean {
  const tmp = `${path}.${m.nonce}.tmp`;
  writePrivateFile(tmp, JSON.stringify(m));
  try {
    Deno.linkSync(tmp, path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return false;
    throw e;
  } finally {
    try {
      Deno.removeSync(tmp);
    } catch { /* gone */ }
  }
}

function read(path: string): Marker | null {
  try {
    const m = JSON.parse(Deno.readTextFileSync(path)) as Marker;
    return typeof m?.nonce === "string" && typeof m.start === "number" ? m : null;
  } catch {
    return null;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - (Deno.statSync(path).mtime?.getTime() ?? 0);
  } catch {
    return Infinity;
  }
}

/**
 * Moves the ended (or stale) marker `held` aside so a new one can be
 * created: false when what was moved is a sibling's fresh marker (another
 * hook took it over first), which is put back.
 */
function takeOver(path: string, held: Marker | null): boolean {
  const aside = `${path}.${nonce()}.old`;
  try {
    Deno.renameSync(path, aside);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return true; // moved by a sibling: create again
    throw e;
  }
  const moved = read(aside);
  try {
    if (held !== null && moved !== null && moved.nonce !== held.nonce) {
      try {
        Deno.linkSync(aside, path);
      } catch { /* another one is there already */ }
      return false;
    }
    return true;
  } finally {
    try {
      Deno.removeSync(aside);
    } catch { /* gone */ }
  }
}

/** Removes the markers (and a killed hook's leftovers) older than {@link ONCE_STALE_MS}. */
function sweep(dir: string): void {
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isFile && ageMs(p) > ONCE_STALE_MS) {
      try {
        Deno.removeSync(p);
      } catch { /* taken meanwhile */ }
    }
  }
}
