/**
 * Memory: what code cannot say. Decisions, conventions, attempts, notes and
 * facts, attached to code by anchors (symbols, files, folders), bi-temporal
 * (valid time and record time), superseded or forgotten by marking and never
 * deleted — least of all by re-indexing: anchors follow code that moves and
 * are marked orphaned when it is gone.
 *
 * Owns the `memories` and `memory_anchors` rows and their search chunks, and
 * `memory_shared`: which rows are copies of a team store's (`src/team`
 * decides and stores memories of shared scope when one is connected, and
 * pulls them here through {@link mirrorMemories}).
 * Writes in plain SQLite transactions from any process; never takes the
 * writer lock and never writes a code-index row.
 */
export {
  cleanAuthor,
  cleanText,
  currentOnSameAnchors,
  forget,
  markSuperseded,
  memoryById,
  newRow,
  notCurrent,
  parseKind,
  parseScope,
  type PreparedMemory,
  prepareRemember,
  remember,
  type RememberInput,
  type RememberResult,
  validSince,
  visibleTo,
  writeRemembered,
} from "./remember.ts";
export {
  ACCOUNT_PREFIX,
  type AttemptInput,
  type AttemptResult,
  describeFailure,
  findRepeat,
  openFailures,
  passResolves,
  prepareAttempt,
  type PreparedAttempt,
  recordAttempt,
  type Repeat,
  resolveFailures,
  withAccount,
} from "./attempts.ts";
export { mirrorMemories, type MirrorReport, missingIds, sharedIn } from "./mirror.ts";
export {
  freshMemoryId,
  getMemoryRow,
  loadMemories,
  memoryCounts,
  updateAnchor,
} from "./records.ts";
export { refreshLooseText, syncAllSearch, syncSearch } from "./searchable.ts";
export { redactStoredMemories } from "./stored_secrets.ts";
export {
  history,
  type HistoryResult,
  memoryAuthors,
  type MemoryEvent,
  type Standing,
  standingAt,
  why,
  type WhyItem,
  type WhyResult,
  type WhyTarget,
} from "./why.ts";
export { reanchorIfStale, reanchorMemories, type ReanchorReport } from "./reanchor.ts";
export { ReanchorFollower } from "./reanchor_follower.ts";
export {
  END_TYPE,
  EXPORT_HEADER,
  exportEnd,
  exportMemories,
  importMemories,
  type ImportReport,
  NOTE_TYPE,
} from "./transfer.ts";
export { activeAnchor, anchorFor, anchorLabel, type AnchorPlace, nodeFacts } from "./anchors.ts";
export { memoryFlags } from "./searchable.ts";
export { formatInstant, parseInstant } from "./time.ts";
export { defaultAuthor, gitUserName } from "./author.ts";
export {
  SAME_FAILURE_THRESHOLD,
  scoreThreshold,
  trigramSimilarity,
  wordSimilarity,
} from "./similarity.ts";
// All of types.ts: AnchorTarget too, the type of AnchorRow.target.
export * from "./types.ts";
export {
  acceptCandidate,
  type Candidate,
  type CandidateKind,
  captureCandidates,
  listCandidates,
  queueCandidates,
  type QueuedCandidate,
  type QueueReport,
  rejectCandidate,
  type Turn,
} from "./personal.ts";
export { type FileClaim, knowledgePage, reflect } from "./reflect.ts";
export { type LedgerEntry, memoryLedger, memoryLost } from "./ledger.ts";
