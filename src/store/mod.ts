/**
 * The journal: the only folder that imports `node:sqlite`.
 *
 * Owns the schema and its forward migrations, and every query. Knows nothing of
 * files on disk: callers hand it rows. Writes happen only inside the
 * reconciler's transactions (the single writer); readers open read-only.
 */
export {
  Journal,
  JournalError,
  JournalMissingError,
  schemaBehind,
  setBusyTimeout,
} from "./journal.ts";
export { journalFile } from "./journal_file.ts";
export { journalVersion } from "./version.ts";
export { prototypeSql } from "./prototype.ts";
export type { WriteHolds } from "./write_lock.ts";
export {
  clearDamage,
  corruptionDetail,
  headerDamage,
  isCorruption,
  JournalCorruptError,
  knownDamage,
  markDamaged,
  quickCheck,
} from "./corruption.ts";
export { describeFault, firstLine } from "./fault_text.ts";
export type {
  ChunkFields,
  ChunkRecord,
  EdgeRecord,
  NodeRecord,
  OwnedRows,
  PathRecord,
  PathRow,
  PathStat,
  PendingRecord,
  QueueRow,
  RootRow,
  VocabRows,
  VocabSet,
} from "./types.ts";
export {
  pathNodes,
  replaceOwnedRows,
  replaceOwnedRowsInParts,
  retractPath,
  retractPathInParts,
  StaleCommitError,
  touchPath,
  UNFINISHED,
} from "./owned.ts";
export type { ExpectedGeneration, Replaced } from "./owned.ts";
export {
  completeQueued,
  deferQueued,
  dueQueue,
  enqueuePaths,
  queuedFor,
  queueStats,
} from "./queue.ts";
export {
  deleteRoot,
  lastAudit,
  listRoots,
  recordAudit,
  retractRootPaths,
  rootFor,
  upsertRoot,
} from "./roots.ts";
export {
  depthClamps,
  depthCounts,
  filesPerRoot,
  getPath,
  hashesUnder,
  hasPathsUnder,
  iteratePaths,
  iteratePathStats,
  journalCounts,
  recentCodeFiles,
  unreadablePaths,
} from "./paths.ts";
export { deleteMeta, deleteMetaPrefixed, getMeta, setMeta } from "./meta.ts";
export { dumpIndex } from "./dump.ts";
export {
  decodeVocabSets,
  encodeVocabSets,
  flushVocab,
  VocabDelta,
  vocabDrift,
  vocabRows,
} from "./vocab_counts.ts";
export { backupJournal } from "./backup.ts";
export { ID_PAGE, pagesById } from "./by_id.ts";
export { clearIndex } from "./clear_index.ts";
export { fullTextMergeDue, fullTextSegments, mergeFullTextSteps } from "./full_text.ts";
export { eraseFreedSpace, purgeRewritten } from "./purge.ts";
export { dropLooseChunk, type LooseChunkRow, putLooseChunk } from "./loose_chunks.ts";
export { MEMORY_TABLES, salvageJournal, type SalvageReport, type TableSalvage } from "./salvage.ts";
