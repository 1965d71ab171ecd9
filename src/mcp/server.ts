/**
 * `heimdall mcp`: the stdio MCP server, on the official SDK, answering both
 * the `initialize` era (2025-06-18, 2025-11-25) and the stateless 2026-07-28
 * revision (see `stateless.ts`), over Heimdall's own stdio transport (see
 * `stdio.ts`). stdout carries protocol messages only: console output is sent
 * to stderr for the server's lifetime.
 */
// Types sit beside the .js files without the extension (the package's "./*" export pattern).
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Config, HomePaths } from "../config/mod.ts";
import { EnvironmentError, HeimdallError, InternalError } from "../errors/mod.ts";
import { redactDeep, redactSecrets } from "../files/mod.ts";
import { defaultAuthor } from "../memory/mod.ts";
import {
  corruptionDetail,
  describeFault,
  isCorruption,
  Journal,
  JournalCorruptError,
  journalFile,
  knownDamage,
  markDamaged,
  setBusyTimeout,
} from "../store/mod.ts";
import { currentActor, openTeam, type Team } from "../team/mod.ts";
import { type DiscoverInfo, StatelessBridge } from "./stateless.ts";
import { StdioLines } from "./stdio.ts";
import type { ToolAnswer, ToolContext, ToolDef } from "./tool.ts";
import { TOOLS } from "./tools/mod.ts";
import {
  awaitWriteTurn,
  isBusy,
  JournalBusyError,
  MCP_BUSY_MS,
  WRITE_WAIT_MS,
} from "./write_turn.ts";

/**
 * How long, once the client has closed stdin, the server goes on with the
 * requests it has received before it exits without their answers (ms).
 */
const DRAIN_MS = 60_000;

/** The server's name and version, as clients see them. */
export const SERVER_INFO = { name: "heimdall", title: "Heimdall", version: "0.1.0" };

/**
 * What the server tells a client about using it.
 *
 * Named only inside this folder (the server and its tools).
 *
 * @internal
 */
export const INSTRUCTIONS =
  "Heimdall is persistent, cross-repository memory for this machine's code. Use `search` before grep/find: " +
  "it answers across every indexed repository, docs, notes and memories, each hit checked against the disk " +
  "(STRONG, WEAK, REBUILT). Before changing a function, `why` and `constraints` tell what is known about it " +
  "and `blast_radius` what may break; `conflicts` shows teammates changing code within reach. Record what " +
  "you learn with `remember`, `record_attempt` and `insert_note`.";

/**
 * A tool context over a home folder; journals open on first use and stay
 * open while the journal's path names the file they opened. When it names
 * another (the journal deleted and indexed again, a rebuild's salvage renamed
 * into place), the next call opens that one, and the team (whose local store
 * is that journal) is opened again too: a connection to the old file would
 * read rows nobody updates and write memories, claims and tasks nobody sees.
 * The team is opened again too when the config names another team store
 * (`heimdall team connect` or `disconnect` while the server runs).
 * An old read or write connection, and the team opened on the old file,
 * are closed once no call is running (`settle`; a call under way may still
 * be reading them), and so is a connection whose file was deleted with
 * nothing in its place yet.
 */
export function toolContext(
  home: HomePaths,
  config: () => Config,
  cwd: string,
): ToolContext & { close(): Promise<void> } {
  const retired: Journal[] = [];
  /** The held connection, or a new one when the journal's path names another file now. */
  const current = (
    held: { journal: Journal; file: string | null } | undefined,
    readOnly: boolean,
  ): { journal: Journal; file: string | null } => {
    // The file is read before the open: a replacement between the two is found next time.
    const file = journalFile(home.journal);
    if (held !== undefined && file === held.file) return held;
    const journal = Journal.open(home.journal, { readOnly, mapped: true });
    if (held !== undefined) retired.push(held.journal);
    return { journal, file };
  };
  let read: { journal: Journal; file: string | null } | undefined;
  let write: { journal: Journal; file: string | null } | undefined;
  let author: string | undefined;
  let team: Promise<Team> | undefined;
  // Team calls in arrival order, one at a time (see ToolContext.withTeam).
  let queue: Promise<unknown> = Promise.resolve();
  // What the team was opened on: the journal file (with the local store, its
  // claims and tasks live there) and the team URL (\`heimdall team connect\` or
  // \`disconnect\` while this server runs: claims and memories go where the
  // config says now, not to a store the person left).
  let teamOn: string | null = null;
  const teamKey = () => JSON.stringify([journalFile(home.journal), config().teamUrl]);
  // Called one team call at a time (the queue below), so an old team is closed with nothing using it.
  const open = async () => {
    const key = teamKey();
    if (team !== undefined && key !== teamOn) {
      const old = team;
      team = undefined;
      await (await old.catch(() => null))?.close();
    }
    if (team === undefined) teamOn = key;
    return await (team ??= openTeam(
      { home, config },
      currentActor({ agent: Deno.env.get("HEIMDALL_AGENT") ?? "mcp" }),
    ).catch((e) => {
      team = undefined; // the next call tries again: the server may be back
      throw e;
    }));
  };
  return {
    home,
    config,
    cwd,
    journal: () => (read = current(read, true)).journal,
    writable: () => (write = current(write, false)).journal,
    author: () => (author ??= defaultAuthor(cwd)),
    withTeam<T>(fn: (team: Team) => Promise<T>): Promise<T> {
      const run = queue.then(async () => await fn(await open()));
      queue = run.catch(() => {});
      return run;
    },
    async settle() {
      const file = journalFile(home.journal);
      if (read !== undefined && read.file !== file) {
        retired.push(read.journal);
        read = undefined;
      }
      if (write !== undefined && write.file !== file) {
        retired.push(write.journal);
        write = undefined;
      }
      for (const j of retired.splice(0)) j.close();
      if (team !== undefined && teamOn !== teamKey()) {
        const old = team;
        team = undefined;
        await (await old.catch(() => null))?.close();
      }
    },
    async close() {
      await queue;
      read?.journal.close();
      write?.journal.close();
      for (const j of retired) j.close();
      if (team) await (await team.catch(() => null))?.close();
    },
  };
}

/**
 * An SDK server with every tool registered.
 *
 * A write tool (not read-only) first waits for its turn to write without
 * holding up other requests, and a journal locked by another process ends
 * it with an error that names the holder and the remedy (see
 * `write_turn.ts`).
 *
 * Named only inside this folder (the server and its tools).
 *
 * @internal
 */
export function createServer(ctx: ToolContext, tools: readonly ToolDef[] = TOOLS): McpServer {
  // Calls under way: what a replaced journal leaves open is closed when none is.
  let running = 0;
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
  });
  for (const t of tools) {
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: strictInput(t),
        annotations: { title: t.title, ...t.annotations },
      },
      async (args: unknown, extra: { signal?: AbortSignal }) => {
        running++;
        try {
          return await answer(t, args, extra.signal);
        } finally {
          // Closing what a replaced journal left open never fails the call.
          if (--running === 0) await ctx.settle?.().catch(() => {});
        }
      },
    );
  }
  /**
   * One call of `t`: its answer, with the damaged journal's warning when
   * there is one. A write the client cancelled (`signal`) while it waited
   * for its turn is not made: nobody reads its answer, and the agent that
   * cancelled it takes it as not done.
   */
  async function answer(t: ToolDef, args: unknown, signal?: AbortSignal) {
    let out: ToolAnswer;
    try {
      if (!t.annotations.readOnlyHint && journalExists(ctx.home.journal)) {
        const free = await awaitWriteTurn(() => ctx.writable(), WRITE_WAIT_MS, signal);
        signal?.throwIfAborted();
        if (!free) {
          throw await JournalBusyError.about(ctx.home, t.name, { waitedMs: WRITE_WAIT_MS });
        }
      }
      out = await t.run(args ?? {}, ctx);
    } catch (e) {
      // Cancelled before it wrote: the SDK sends no answer, so nothing is said or logged.
      if (e instanceof JournalBusyError || (signal?.aborted && e === signal.reason)) throw e;
      if (isBusy(e)) {
        const outcome = t.annotations.readOnlyHint ? "reading" : "partway";
        throw await JournalBusyError.about(ctx.home, t.name, outcome);
      }
      // A bad page met by a query: one error naming the remedy, and the
      // journal marked so that every later answer says so.
      if (isCorruption(e) && !(e instanceof JournalCorruptError)) {
        markDamaged(ctx.home.journal, corruptionDetail(e));
        throw new JournalCorruptError(ctx.home.journal, corruptionDetail(e));
      }
      throw forAgent(e, t.name, ctx.home.journal);
    }
    // Never answer from a journal known to be damaged without saying so.
    const damage = knownDamage(ctx.home.journal);
    const text = damage === undefined
      ? out.text
      : `Warning: answering from a damaged journal (${damage}); answers may be incomplete: run \`heimdall rebuild\`.\n${out.text}`;
    // The last gate, as the hooks' output has: what a journal of an older build
    // stored before its screen knew a secret reaches no agent (`heimdall redact`
    // removes it from the journal).
    return {
      content: [{ type: "text" as const, text: redactSecrets(text) }],
      structuredContent: redactDeep(
        damage === undefined ? out.structured : { ...out.structured, journal_damaged: damage },
      ),
    };
  }
  // The SDK's registerTool promises listChanged: true; ours is what discover says.
  server.server.registerCapabilities(CAPABILITIES);
  return server;
}

/**
 * Tool `t`'s arguments as a schema that refuses a name it does not take,
 * naming the ones it does. A misspelt argument (`path` for `path_prefix`,
 * `visibility` for `scope`) was dropped without a word: the call answered
 * as if it had not been given, a filter unapplied or a private memory
 * shared with the team. The listed JSON schema says so too
 * (`additionalProperties: false`).
 */
function strictInput(t: ToolDef) {
  const takes = Object.keys(t.input);
  return z.strictObject(t.input, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown argument${issue.keys.length === 1 ? "" : "s"} ${
          issue.keys.map((k) => JSON.stringify(k)).join(", ")
        }: ${t.name} takes ${takes.length === 0 ? "no arguments" : takes.join(", ")}`
        : undefined,
  });
}

/**
 * What the agent reads for `e`, thrown by tool `tool`: Heimdall's own errors
 * as they are; an error of the environment (a path that cannot be made, a
 * read-only journal, a full disk) with its remedy, as the command line
 * says it; anything else is a bug, said to be one, with its stack on stderr
 * for the report (the SDK would pass its bare message on, a TypeError's
 * "Cannot read properties of undefined" read as the answer).
 */
function forAgent(e: unknown, tool: string, journal: string): Error {
  if (e instanceof HeimdallError) return e;
  const { kind, message } = describeFault(e, journal);
  if (kind !== "internal") return new EnvironmentError(message);
  console.error(
    `heimdall mcp: ${tool} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`,
  );
  return new InternalError(
    `internal error in ${tool}: ${
      message.split("\n")[0]
    }. This is a bug in heimdall: the server's stderr has the stack; report it with the call that failed`,
  );
}

function journalExists(file: string): boolean {
  try {
    Deno.statSync(file);
    return true;
  } catch {
    return false; // nobody holds a lock on it; the tool creates it
  }
}

/**
 * What the server can do, as `initialize` and `server/discover` both say. The
 * tools are all registered before the server connects and never change, so
 * it never sends notifications/tools/list_changed and does not promise them.
 */
const CAPABILITIES = { tools: { listChanged: false } };

/** What `server/discover` says (2026-07-28). */
export function discoverInfo(): DiscoverInfo {
  return {
    serverInfo: SERVER_INFO,
    capabilities: CAPABILITIES,
    instructions: INSTRUCTIONS,
    ttlMs: 3_600_000,
  };
}

/**
 * Serves MCP on stdin/stdout until the client closes stdin, then answers
 * every request already received before returning (for at most a
 * minute; past it the requests still unanswered are named on stderr). Console output goes to stderr so nothing but protocol messages
 * reaches stdout. Every journal statement waits at most `MCP_BUSY_MS` for
 * another process's lock (see `write_turn.ts`).
 */
export async function serveStdio(
  home: HomePaths,
  config: () => Config,
  cwd = Deno.cwd(),
): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  setBusyTimeout(MCP_BUSY_MS);
  const ctx = toolContext(home, config, cwd);
  const server = createServer(ctx);
  const stdio = new StdioLines();
  await server.connect(new StatelessBridge(stdio, discoverInfo(), TOOLS.map((t) => t.name)));
  const unanswered = await stdio.drain(DRAIN_MS);
  if (unanswered.length > 0) {
    console.error(
      `heimdall mcp: stdin closed; exiting without answering request${
        unanswered.length === 1 ? "" : "s"
      } ${unanswered.map((id) => JSON.stringify(id)).join(", ")} after ${DRAIN_MS / 1000} s`,
    );
  }
  await server.close();
  await ctx.close();
}
