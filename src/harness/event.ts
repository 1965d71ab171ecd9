/**
 * The one event model every harness's hook payload is normalised to.
 *
 * A harness (Claude Code, Codex, Cursor, …) calls `heimdall hook --harness
 * NAME` with its own JSON; the engine turns that into a {@link HookEvent}
 * through the harness's event table (`harnesses/`), the handler decides what
 * to record and what to say, and the engine renders the answer in the
 * harness's own output format.
 */

/**
 * What a tool call does, as far as Heimdall cares: `edit` replaces part of a
 * file, `write` replaces or creates a whole file, `patch` is an apply_patch
 * body over one or more files, `shell` runs a command line, `search` is a
 * grep/find/ls-style look-up, `read` reads a file.
 */
export type ToolKind = "edit" | "write" | "patch" | "shell" | "search" | "read" | "other";

/** One change to one file, as the tool described it (texts may be absent). */
export interface FileEdit {
  /** Absolute path. */
  path: string;
  /** The text being replaced, when the tool names it (locates the edited region). */
  oldText: string | null;
  /** The replacement, or the whole new content for a write. */
  newText: string | null;
}

/** A tool call, normalised. */
export interface ToolCall {
  /** The tool's name as the harness spelled it (`Edit`, `apply_patch`, `fs_write`…). */
  name: string;
  kind: ToolKind;
  /** Files the call edits (edit, write, patch) or reads; absolute. */
  edits: FileEdit[];
  /** The command line of a shell call. */
  command: string | null;
  /**
   * A shell call started in the background (Claude Code's `run_in_background`,
   * Gemini CLI's `is_background`): it came back before the command ran, so
   * its outcome says nothing about the command.
   */
  background?: true;
}

/** What came back from a tool, where the harness says. */
export interface ToolOutcome {
  /** true = succeeded, false = failed, null = the harness does not say. */
  ok: boolean | null;
  /** A shell command's exit status, when known. */
  exitCode: number | null;
  /** The tool's text output or error message (possibly truncated by the harness). */
  output: string;
}

/** Fields every event carries. */
export interface EventBase {
  /** The registered name of the harness that sent the event (`harnesses/mod.ts`). */
  harness: string;
  /** The harness's session (conversation, trajectory) id; `unknown` when it sends none. */
  sessionId: string;
  /** Working directory of the agent, absolute. */
  cwd: string;
  /** The harness's own name for the event (`PreToolUse`, `pre_write_code`…). */
  native: string;
}

/** A session began (or resumed, or its context was cleared or compacted). */
export interface SessionStartEvent extends EventBase {
  kind: "session_start";
  /** `startup`, `resume`, `clear`, `compact`… when the harness says. */
  source: string | null;
}

/** The user submitted a prompt. */
export interface PromptEvent extends EventBase {
  kind: "prompt";
  prompt: string;
}

/** A tool is about to run. */
export interface BeforeToolEvent extends EventBase {
  kind: "before_tool";
  tool: ToolCall;
}

/** A tool ran (successfully or not). */
export interface AfterToolEvent extends EventBase {
  kind: "after_tool";
  tool: ToolCall;
  outcome: ToolOutcome;
}

/** The agent finished its turn (`final` false) or the session ended (`final` true). */
export interface StopEvent extends EventBase {
  kind: "stop";
  final: boolean;
  /** The agent's last message when the payload carries it (Codex, Gemini CLI, Windsurf). */
  said?: string | null;
  /** The session's transcript file when the harness names one (read for the last message). */
  transcript?: string | null;
}

/** A payload Heimdall has nothing to do for. */
export interface IgnoredEvent extends EventBase {
  kind: "ignored";
}

/** The normalised event. */
export type HookEvent =
  | SessionStartEvent
  | PromptEvent
  | BeforeToolEvent
  | AfterToolEvent
  | StopEvent
  | IgnoredEvent;
