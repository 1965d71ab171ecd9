import { parseFlags } from "./flags.ts";
import { serveStdio } from "../mcp/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { JournalError, schemaBehind } from "../store/mod.ts";
import { migrateAsWriter } from "./journal_upgrade.ts";

export const HELP = `heimdall mcp
  Serves Heimdall's tools to an agent over stdio (Model Context Protocol):
  search, insert_note, remember, record_attempt, why, blast_radius, callers,
  callees, symbols, constraints, conflicts, claim, release, start_task,
  list_tasks, handoff, resume_task, who_knows, status. Speaks the initialize handshake (2025-06-18, 2025-11-25) and the
  stateless 2026-07-28 revision. stdout carries protocol messages only.
  Registered with each harness by \`heimdall init\`.`;

/** \`heimdall mcp\`: runs until the client closes stdin. */
export async function run(args: string[], ctx: Context): Promise<number> {
  parseFlags(args, { positionals: false });
  // Typed at a prompt, the server waits for JSON-RPC in silence: say what it is waiting for.
  if (Deno.stdin.isTerminal()) {
    ctx.err(
      "heimdall mcp: serving MCP on stdin/stdout for an agent, which starts it itself (`heimdall init` registers it); Ctrl-D stops it. `heimdall doctor` checks that each agent can reach it",
    );
  }
  // An agent's first session after an upgrade: the journal an older build wrote is
  // migrated here, as a reading command migrates it. Held by an older daemon, it is
  // not: the server still starts, and each tool that reads says why it cannot.
  if (schemaBehind(ctx.home.journal) !== undefined) {
    try {
      await migrateAsWriter(ctx, "mcp");
    } catch (e) {
      if (!(e instanceof JournalError)) throw e;
      ctx.err(`heimdall mcp: ${e.message}`);
    }
  }
  await serveStdio(ctx.home, () => ctx.config());
  return EXIT.ok;
}
