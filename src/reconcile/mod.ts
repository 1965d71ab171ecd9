/**
 * Reconciliation: keeps the journal equal to the bytes on disk.
 *
 * Owns the writer lock, hints, the queue's drain, the pure plan
 * (`planPath`, `planCommit`, `desiredRows`), the reconciler (the only code
 * that writes index rows) and its one pass (`Reconciler.pass`, with the
 * followers that come after it), the watcher, the daemon loop and the
 * read-only audit (`verifyJournal`). Never believes an event about *what*
 * happened: it only ever means "look at this path".
 */
export {
  IndexLockedError,
  waitingDaemon,
  writerHolder,
  writerHolderInfo,
  WriterLock,
} from "./lock.ts";
export { fileLogger, type Logger, silentLogger, stderrLogger } from "./log.ts";
export { type Progress, Reconciler } from "./reconciler.ts";
export type { Follower, PassOptions, PassReport } from "./pass.ts";
export { PreparePool } from "./prepare_pool.ts";
export { addStats, emptyStats, type PassStats } from "./stats.ts";
export { type DaemonEnd, runDaemon, WATCH_LIMIT_KEY } from "./daemon.ts";
export {
  classifyFault,
  type Fault,
  type FaultKind,
  type FaultRecord,
  readFault,
} from "./faults.ts";
export type { BackgroundWork, DaemonOptions } from "./daemon.ts";
export type { WatchMessage, WatchRequest } from "./watcher.ts";
export type { WatchHealthOptions } from "./watch_health.ts";
export type { WatcherHandle } from "./watch_supervisor.ts";
export { type Drift, verifyJournal, type VerifyReport } from "./verify.ts";
export { type GraphDifference, graphDifferences } from "./verify_graph.ts";
export { desiredRows, fileNodeId, nodeId } from "./desired.ts";
export { isRacy, planCommit, planPath, RACY_WINDOW_MS } from "./plan.ts";
export { homeDirs, isInside, rootInHomeError } from "./owners.ts";
export { filesToRederive } from "./rederive.ts";
export { rescreenIndexed } from "./rescreen.ts";
