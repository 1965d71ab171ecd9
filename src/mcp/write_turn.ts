/**
 * An MCP write while another process holds the journal's write lock.
 *
 * SQLite waits for a lock synchronously: with its default 5 s wait one
 * `remember` held up every other request of the server, `ping` included,
 * and then said only "database is locked". So the server bounds every
 * SQLite wait to {@link MCP_BUSY_MS}, waits for its turn to write between
 * short tries without blocking ({@link awaitWriteTurn}), and when the lock
 * stays held answers with who holds it and what to do ({@link busyMessage}).
 */
import type { HomePaths } from "../config/mod.ts";
import { classifyFault, writerHolderInfo } from "../reconcile/mod.ts";
import type { Journal } from "../store/mod.ts";
import { EnvironmentError } from "../errors/mod.ts";

/** The most one journal statement of the server waits for another process's lock, in ms. */
export const MCP_BUSY_MS = 50;
/** How long a write tool waits for its turn to write before it gives up, in ms. */
export const WRITE_WAIT_MS = 2000;
/** The pause between two tries for the lock, in ms: other requests are served meanwhile. */
const RETRY_MS = 100;

/** True when `e` is SQLite saying that another connection holds the lock it needs. */
export function isBusy(e: unknown): boolean {
  return classifyFault(e).kind === "busy";
}

/**
 * Waits until the journal's write lock is free, trying an empty write
 * transaction every {@link RETRY_MS} (each try blocks for at most
 * {@link MCP_BUSY_MS}, and a bulk writer steps aside for it; see the store's
 * `write_lock.ts`). Returns true when the lock was free, false once
 * `waitMs` has passed without it. Any other error (a damaged journal, say)
 * also returns true: it is the tool's to meet, or not, if it never writes
 * there. Stops waiting, returning false, once `signal` is aborted (the
 * client cancelled the call). Costs one BEGIN IMMEDIATE and COMMIT when the
 * lock is free.
 */
export async function awaitWriteTurn(
  journal: () => Journal,
  waitMs = WRITE_WAIT_MS,
  signal?: AbortSignal,
): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      journal().tx(() => {});
      return true;
    } catch (e) {
      if (!isBusy(e)) return true;
    }
    if (Date.now() >= deadline || signal?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/** Who holds the index's writer lock, as `writerHolderInfo` tells: null when nobody does. */
export type Holder = { pid: number | undefined; role: string | undefined } | null;

/**
 * How far a tool got before the lock stopped it: it waited `waitedMs` for
 * its turn and wrote nothing; it was stopped partway through its writes; or
 * it only reads (a read meets a lock only while SQLite recovers the WAL).
 */
export type BusyOutcome = { waitedMs: number } | "partway" | "reading";

/**
 * What an agent reads when tool `tool` met the journal at `file` locked by
 * another process: who holds the index's writer lock (`holder`, when
 * anyone does), what was done, and what to do.
 *
 * @example
 * ```ts
 * import { busyMessage } from "./write_turn.ts";
 * const m = busyMessage("/h/journal.db", "remember", { pid: 41, role: "daemon" }, { waitedMs: 2000 });
 * console.assert(m.includes("the daemon (pid 41)") && m.includes("call remember again"));
 * ```
 */
export function busyMessage(
  file: string,
  tool: string,
  holder: Holder,
  outcome: BusyOutcome,
): string {
  const by = holder === null
    ? "another process (a heimdall command or hook writing memories, or a program such as sqlite3 with the journal open in a transaction)"
    : holder.role === "daemon"
    ? `the daemon (${pidText(holder.pid)}), which may be indexing`
    : holder.role !== undefined
    ? `a one-shot \`heimdall ${holder.role}\` (${pidText(holder.pid)})`
    : `${pidText(holder.pid)} (the daemon or a one-shot heimdall command)`;
  const done = outcome === "reading"
    ? ""
    : outcome === "partway"
    ? " it was stopped partway: check with `why` or `search` what was recorded before repeating it;"
    : ` ${tool} waited ${(outcome.waitedMs / 1000).toFixed(1)} s and wrote nothing;`;
  return `Cannot ${tool} now: the journal "${file}" is locked ${
    outcome === "reading" ? "" : "for writing "
  }by ${by};${done} call ${tool} again in a few seconds`;
}

function pidText(pid: number | undefined): string {
  return pid === undefined ? "pid unknown" : `pid ${pid}`;
}

/** A tool met the journal locked by another process; the message is {@link busyMessage}. */
export class JournalBusyError extends EnvironmentError {
  /** Tool `tool` met `file` locked, the writer lock held by `holder`, with `outcome`. */
  constructor(
    readonly file: string,
    readonly tool: string,
    readonly holder: Holder,
    readonly outcome: BusyOutcome,
  ) {
    super(busyMessage(file, tool, holder, outcome));
    this.name = "JournalBusyError";
  }

  /** The error for `tool` in `home`, with the holder of the writer lock looked up now. */
  static async about(
    home: HomePaths,
    tool: string,
    outcome: BusyOutcome,
  ): Promise<JournalBusyError> {
    const holder = await writerHolderInfo(home).catch(() => null);
    return new JournalBusyError(home.journal, tool, holder, outcome);
  }
}
