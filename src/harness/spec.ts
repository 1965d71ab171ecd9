/**
 * What a harness is, as data: how its payloads name the event, the session
 * and the folder; its event table (its own event names → the normalised
 * kind, with the readers of that kind's fields and the answer each event
 * takes); and its install plan. One module per harness under `harnesses/`
 * fills this in; `engine.ts` (payload in, answer out) and `install/plan.ts`
 * (config files) are the only code that act on it. Types only.
 */
import type { EventBase, ToolCall, ToolOutcome } from "./event.ts";
import type { HarnessFiles, InstallContext } from "./install/context.ts";

/** A payload's top-level JSON object (an empty one when the payload is not an object). */
export type Payload = Record<string, unknown>;

/** What a hook process knows besides its payload. */
export interface PayloadEnv {
  /** The hook process's working directory (harnesses run hooks in the project). */
  cwd: string;
  /** Environment variables (e.g. `GEMINI_SESSION_ID`). */
  env: (name: string) => string | undefined;
  /** The event name from the command line (`--event`), for payloads that do not carry one. */
  event: string | null;
}

/** Reads one field of an event; `at` holds what is already known (the working directory for paths). */
export type Read<T> = (p: Payload, at: EventBase) => T;

/** Turns the context Heimdall wants the agent to see into this harness's answer to one event. */
export type Say = (context: string, native: string) => string;

/** The answer that pauses a tool call once, with `reason` shown and any context beside it. */
export type Pause = (reason: string, context: string | null, native: string) => string;

interface Answered {
  /** How context reaches the agent on this event; absent: it cannot (the harness's silent answer). */
  say?: Say;
}

/** A session began (or resumed, or its context was cleared or compacted). */
export interface SessionStartRow extends Answered {
  kind: "session_start";
  /** `startup`, `resume`, `clear`, `compact`…; absent: the harness does not say. */
  source?: Read<string | null>;
}

/** The person submitted a prompt. */
export interface PromptRow extends Answered {
  kind: "prompt";
  prompt: Read<string>;
}

/** A tool is about to run. */
export interface BeforeToolRow extends Answered {
  kind: "before_tool";
  tool: Read<ToolCall>;
  /** How this harness denies the call; absent: it cannot (see {@link Answers.pauseAsWarning}). */
  pause?: Pause;
}

/** A tool ran. */
export interface AfterToolRow extends Answered {
  kind: "after_tool";
  tool: Read<ToolCall>;
  outcome: Read<ToolOutcome>;
}

/** A turn ended (`final` false) or the session did (`final` true). */
export interface StopRow extends Answered {
  kind: "stop";
  final: boolean;
  /** The agent's last message, where the payload carries it. */
  said?: Read<string | null>;
  /** The transcript file, where the payload names one. */
  transcript?: Read<string | null>;
}

/** One row of an event table: what the harness's event becomes. */
export type EventRow = SessionStartRow | PromptRow | BeforeToolRow | AfterToolRow | StopRow;

/** How a harness's payloads carry the fields every event has. */
export interface PayloadShape {
  /** The harness's name for the event; null falls back to `--event`. */
  event: (p: Payload) => string | null;
  /** The session (conversation, trajectory) id; null or blank: `unknown`. */
  session: (p: Payload, env: PayloadEnv) => string | null;
  /** The agent's working directory; null or blank: the hook's own. */
  cwd: (p: Payload, env: PayloadEnv) => string | null;
  /** True when event names arrive in more than one case (Kiro); the table's keys are then lower case. */
  anyCase?: boolean;
}

/** How a harness takes answers as a whole. */
export interface Answers {
  /** What to print when there is nothing to say: null prints nothing (Cursor wants `{}` every time). */
  silent: string | null;
  /**
   * With no way to pause a call, the pause reason leads the context as a
   * warning (Windsurf, Kiro); false drops it where the event has no `pause`.
   */
  pauseAsWarning: boolean;
}

/** A hook Heimdall registers in a harness's config: its event and, for tool events, a tool matcher. */
export type HookRow = readonly [event: string, matcher: string | null];

/**
 * Heimdall's hooks in `{"hooks": {Event: [{matcher?, hooks: [handler]}]}}`
 * (Claude Code, Codex, Gemini CLI): the rows, and the handler that runs `command`.
 */
export interface GroupedHooks {
  shape: "grouped";
  rows: readonly HookRow[];
  handler(command: string, event: string): Record<string, unknown>;
}

/**
 * Heimdall's hooks in `{"hooks": {event: [entry]}}` (Cursor, Windsurf): the
 * events, the entry that runs `command`, and top-level keys the file must
 * carry first (`{"version": 1}`), added when absent and removed with the
 * last hook when Heimdall added them.
 */
export interface FlatHooks {
  shape: "flat";
  events: readonly string[];
  entry(command: string, event: string): Record<string, unknown>;
  header?: Record<string, unknown>;
}

/** What a file Heimdall writes whole is made from. */
export interface OwnedFileInput {
  ctx: InstallContext;
  /** The hook command line (with `--event EVENT` when given). */
  command(event: string | null): string;
  /** The argv that starts a hook (`selfArgv("hook")`). */
  hookArgv: readonly string[];
  /** Environment the hook needs (`HEIMDALL_HOME` when not the default). */
  env: Record<string, string>;
}

/**
 * A hooks file that is Heimdall's alone (Kiro's hook file, pi's extension):
 * written whole, removed whole, and refused when a file there is not ours.
 */
export interface OwnedHooks {
  shape: "owned";
  /** What the file is, for a person (`hooks`, `extension`). */
  what: string;
  text(input: OwnedFileInput): string;
  /** Recognises our file; default: it holds our hook command. */
  ours?(text: string): boolean;
  /** The hook command lines in our file, for `doctor`; default: every `command` in its JSON. */
  commands?(text: string): string[];
}

/** Where and how a harness keeps Heimdall's hooks. */
export type HookFile = GroupedHooks | FlatHooks | OwnedHooks;

/** How a harness registers MCP servers: JSON `mcpServers` (with `type: "stdio"` or none) or TOML. */
export type McpConfig = { format: "json"; stdioType: boolean } | { format: "toml" };

/** What `heimdall init` writes for a harness, and how `init --detect` finds it. */
export interface InstallSpec {
  /** The files for a scope; an MCP file equal to the hooks file gets one change for both. */
  files(ctx: InstallContext): HarnessFiles;
  hooks: HookFile;
  /** null: the harness has no MCP support. */
  mcp: McpConfig | null;
  /** What a person should know after an install. */
  notes?(ctx: InstallContext): string[];
  /** Evidence the harness is installed: commands on `PATH`, folders under the home. */
  signs: { commands: readonly string[]; dirs: readonly string[] };
}

/** One harness, described. */
export interface HarnessSpec<N extends string = string> {
  name: N;
  payload: PayloadShape;
  /** The harness's event names (lower case when {@link PayloadShape.anyCase}) → what they become. */
  events: Readonly<Record<string, EventRow>>;
  answers: Answers;
  install: InstallSpec;
}
