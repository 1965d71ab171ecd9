/**
 * What the hook asks of the rest of Heimdall, as one port: prior work
 * (search), constraints (the architectural map), decisions and failed
 * attempts (memory), claims and tasks (team), progress notes. Each member is
 * optional: a build or a home without that service simply says less.
 * The implementation that binds the real modules is `services_impl.ts`,
 * loaded only when a hook needs it.
 */
import type { ContextItem } from "./budget.ts";
import type { RegionSymbol } from "./region.ts";
import type { ChangedSymbol } from "./session.ts";
import type { TranscriptTurn } from "./transcript.ts";

/** Who is asking: the harness session. */
export interface SessionRef {
  harness: string;
  sessionId: string;
  cwd: string;
}

/** A test run to record as an attempt on the code the session changed. */
export interface AttemptRecord {
  taskId: string | null;
  task: string | null;
  /** Symbols the session changed before the run (the attempt's anchors). */
  symbols: ChangedSymbol[];
  /** Files the session edited (anchors when no symbol is known). */
  paths: string[];
  command: string;
  runner: string;
  outcome: "pass" | "fail";
  failed: string[];
}

/** A claim-conflict warning: `pair` identifies it so it is given once. */
export interface ConflictWarning {
  pair: string;
  item: ContextItem;
}

/** The services a hook may use; absent members mean "not available here". */
export interface Services {
  /**
   * Prior work most relevant to `query` across every root, best first (STRONG
   * and REBUILT first): only confident hits and those whose symbol the prompt
   * names, and no WEAK hit from outside the repository of `cwd`. `prompt`: the
   * whole text `query` was made from, read for a pasted stack trace's frames.
   */
  priorWork?(query: string, limit: number, cwd?: string, prompt?: string): Promise<ContextItem[]>;
  /** Constraints that apply to these files (`must` first). */
  constraints?(paths: string[], mustOnly: boolean): Promise<ContextItem[]>;
  /** Current decisions on these symbols or files. */
  decisions?(symbols: RegionSymbol[], paths: string[]): Promise<ContextItem[]>;
  /** Open failed attempts on these symbols (and their direct neighbours, passed in). */
  failures?(symbols: RegionSymbol[]): Promise<ContextItem[]>;
  /** Teammates' claims within the conflict radius of these symbols. */
  conflicts?(who: SessionRef, symbols: RegionSymbol[]): Promise<ConflictWarning[]>;
  /** What a conflict before an edit does: `pause` the edit once (default) or only `warn`. */
  onConflict?(): "pause" | "warn";
  /** Records conflict warnings (`pair`s of {@link conflicts}) as seen by this person, in the team store. */
  acknowledge?(who: SessionRef, pairs: string[]): Promise<void>;
  /** Starts the session's task; returns its id. */
  startTask?(who: SessionRef, title: string): Promise<string | null>;
  /** Claims the symbols the session changed, for its task. */
  claim?(
    who: SessionRef,
    taskId: string | null,
    task: string | null,
    symbols: ChangedSymbol[],
  ): Promise<void>;
  /** Releases every claim of this session (it ended); its task stays open. */
  releaseClaims?(who: SessionRef): Promise<void>;
  /** Records a test run as an attempt. */
  recordAttempt?(who: SessionRef, attempt: AttemptRecord): Promise<void>;
  /**
   * Joins the agent's own account of a failure (`text`) to the open failure
   * its test run recorded (same anchors and failing tests); its count stays.
   */
  describeFailure?(
    who: SessionRef,
    failure: Pick<AttemptRecord, "taskId" | "symbols" | "paths" | "failed">,
    text: string,
  ): Promise<void>;
  /**
   * Scans `turns` (the transcript's turns not scanned before) for durable
   * statements of the person and queues them for review (personal memory);
   * with a distiller configured, its proposals from `transcript` too.
   */
  capturePersonal?(who: SessionRef, transcript: string, turns: TranscriptTurn[]): Promise<void>;
  /** Releases what the services opened (journals, the team store). */
  close?(): Promise<void>;
  /** Stores the session's summary as a progress note on its task. */
  storeSummary?(
    who: SessionRef,
    taskId: string | null,
    title: string,
    summary: string,
    paths: string[],
  ): Promise<void>;
}
