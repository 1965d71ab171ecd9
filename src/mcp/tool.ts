/** What an MCP tool is, and what it gets to work with. */
import { z, type ZodRawShape } from "zod";
import type { Config, HomePaths } from "../config/mod.ts";
import type { Journal } from "../store/mod.ts";
import type { Team } from "../team/mod.ts";

/** Honest hints about a tool's effects (MCP `ToolAnnotations`). */
export interface Annotations {
  /** True when the tool changes nothing. */
  readOnlyHint: boolean;
  /** True when it may overwrite or remove what exists. */
  destructiveHint: boolean;
  /** True when calling it again with the same arguments changes nothing more. */
  idempotentHint: boolean;
  /** True when it may reach an open world of external entities (MCP's `openWorldHint`). */
  openWorldHint: boolean;
}

/** Read-only, idempotent, closed-world: the hints of every look-up tool. */
export const LOOKUP: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Adds a record each call (a memory, a note, a task): not read-only, not idempotent, closed-world. */
export const WRITES: Annotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** Writes what a repeated call leaves as it is (a claim renewed, warnings acknowledged). */
export const WRITES_IDEMPOTENT: Annotations = { ...WRITES, idempotentHint: true };

/** The `target` argument of the tools about one piece of code (why, conflicts, who_knows). */
export const TARGET = z.string().min(1).describe(
  "A symbol (path:name, Class.method, name) or a path",
);

/**
 * How far a team look-up around a {@link TARGET} reaches (conflicts,
 * who_knows): from the server's folder, where the target resolves, within
 * the call hops the agent asked for, else the look-up's own default.
 */
export function reach(ctx: ToolContext, hops: number | undefined): { cwd: string; hops?: number } {
  return { cwd: ctx.cwd, ...(hops !== undefined ? { hops } : {}) };
}

/** What a tool call may use. Journals open on first use and stay open. */
export interface ToolContext {
  /** The home the server serves. */
  home: HomePaths;
  /** The configuration, as it is now. */
  config(): Config;
  /** Where relative paths and symbols resolve (the server's working directory). */
  cwd: string;
  /** The journal, read-only; throws JournalError (with its remedy) when there is none. */
  journal(): Journal;
  /** The journal, writable (memory, notes): plain transactions, never the writer lock. */
  writable(): Journal;
  /** Who is writing memories from this server. */
  author(): string;
  /**
   * Runs `fn` with the team store for this server's actor (opened on first
   * use, kept open). Calls run one at a time: the store is one connection,
   * and a shared write's transaction must not take in another call's
   * queries. Throws TeamStoreError when a shared store cannot be reached.
   */
  withTeam<T>(fn: (team: Team) => Promise<T>): Promise<T>;
  /**
   * Called whenever no tool call is running: closes what is still open on
   * a journal file the path no longer names (replaced or deleted), so that
   * file is not held, nor its space kept, until the server exits.
   */
  settle?(): Promise<void>;
}

/** A tool's answer: a concise text for the agent, and the same as structured content. */
export interface ToolAnswer {
  /** The answer for the agent, concise. */
  text: string;
  /** The same answer as structured content. */
  structured: Record<string, unknown>;
}

/**
 * One MCP tool: name, schema, annotations, and what it does.
 *
 * Named only inside this folder (the server and its tools).
 *
 * @internal
 */
export interface ToolDef {
  /** The tool's name, verb_noun (`search`, `record_attempt`). */
  name: string;
  /** Its title for people. */
  title: string;
  /** What it does, written for the agent that chooses it. */
  description: string;
  /** Its arguments as a zod shape (the SDK turns it into the JSON schema). */
  input: ZodRawShape;
  /** Its hints about its effects. */
  annotations: Annotations;
  /** Answers one call; a throw becomes an `isError` result written for the agent. */
  // deno-lint-ignore no-explicit-any
  run(args: any, ctx: ToolContext): ToolAnswer | Promise<ToolAnswer>;
}
