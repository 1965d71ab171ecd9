/**
 * `heimdall mcp`: the stdio MCP server, on the official SDK, answering both
 * the `initialize` era (2025-06-18, 2025-11-25) and the stateless 2026-07-28
 * revision (see `stateless.ts`). stdout carries protocol messages only:
 * console output is sent to stderr for the server's lifetime.
 */
import process from "node:process";
// Types sit beside the .js files without the extension (the package's "./*" export pattern).
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Config, HomePaths } from "../config/mod.ts";
import { defaultAuthor } from "../memory/mod.ts";
import {
  corruptionDetail,
  isCorruption,
  Journal,
  JournalCorruptError,
  knownDamage,
  markDamaged,
} from "../store/mod.ts";
import { currentActor, openTeam, type Team } from "../team/mod.ts";
import { type DiscoverInfo, StatelessBridge } from "./stateless.ts";
import type { ToolAnswer, ToolContext, ToolDef } from "./tool.ts";
import { TOOLS } from "./tools/mod.ts";

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

/** A tool context over a home folder; journals open on first use and stay open. */
export function toolContext(
  home: HomePaths,
  config: () => Config,
  cwd: string,
): ToolContext & { close(): Promise<void> } {
  let read: Journal | undefined;
  let write: Journal | undefined;
  let author: string | undefined;
  let team: Promise<Team> | undefined;
  // Team calls in arrival order, one at a time (see ToolContext.withTeam).
  let queue: Promise<unknown> = Promise.resolve();
  const open = () =>
    team ??= openTeam(
      { home, config },
      currentActor({ agent: Deno.env.get("HEIMDALL_AGENT") ?? "mcp" }),
    ).catch((e) => {
      team = undefined; // the next call tries again: the server may be back
      throw e;
    });
  return {
    home,
    config,
    cwd,
    journal: () => (read ??= Journal.open(home.journal, { readOnly: true })),
    writable: () => (write ??= Journal.open(home.journal)),
    author: () => (author ??= defaultAuthor(cwd)),
    withTeam<T>(fn: (team: Team) => Promise<T>): Promise<T> {
      const run = queue.then(async () => await fn(await open()));
      queue = run.catch(() => {});
      return run;
    },
    async close() {
      await queue;
      read?.close();
      write?.close();
      if (team) await (await team.catch(() => null))?.close();
    },
  };
}

/**
 * An SDK server with every tool registered.
 *
 * Named only inside this folder (the server and its tools).
 *
 * @internal
 */
export function createServer(ctx: ToolContext, tools: readonly ToolDef[] = TOOLS): McpServer {
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
        inputSchema: t.input,
        annotations: { title: t.title, ...t.annotations },
      },
      async (args: unknown) => {
        let out: ToolAnswer;
        try {
          out = await t.run(args ?? {}, ctx);
        } catch (e) {
          // A bad page met by a query: one error naming the remedy, and the
          // journal marked so that every later answer says so.
          if (!isCorruption(e) || e instanceof JournalCorruptError) throw e;
          markDamaged(ctx.home.journal, corruptionDetail(e));
          throw new JournalCorruptError(ctx.home.journal, corruptionDetail(e));
        }
        // Never answer from a journal known to be damaged without saying so.
        const damage = knownDamage(ctx.home.journal);
        const text = damage === undefined
          ? out.text
          : `Warning: answering from a damaged journal (${damage}); answers may be incomplete: run \`heimdall rebuild\`.\n${out.text}`;
        return {
          content: [{ type: "text" as const, text }],
          structuredContent: damage === undefined
            ? out.structured
            : { ...out.structured, journal_damaged: damage },
        };
      },
    );
  }
  return server;
}

/** What `server/discover` says (2026-07-28). */
export function discoverInfo(): DiscoverInfo {
  return {
    serverInfo: SERVER_INFO,
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    ttlMs: 3_600_000,
  };
}

/**
 * Serves MCP on stdin/stdout until the client closes stdin. Console output
 * goes to stderr so nothing but protocol messages reaches stdout.
 */
export async function serveStdio(
  home: HomePaths,
  config: () => Config,
  cwd = Deno.cwd(),
): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const ctx = toolContext(home, config, cwd);
  const server = createServer(ctx);
  const transport = new StatelessBridge(new StdioServerTransport(), discoverInfo());
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await server.connect(transport);
  await ended;
  await server.close();
  await ctx.close();
}
