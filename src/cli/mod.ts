/**
 * The command line: argv → command → exit code.
 *
 * Owns argument parsing, help texts, output formatting and the exit-code
 * table. Never decides what the index holds: it calls reconcile, search and
 * memory, and prints what they return.
 */
import { type Context, defaultContext } from "./context.ts";
import { describeError, UsageError } from "./errors.ts";
import { EXIT } from "./exit_codes.ts";
import * as daemon from "./daemon_cmd.ts";
import * as depth from "./depth_cmd.ts";
import * as hint from "./hint_cmd.ts";
import * as index from "./index_cmd.ts";
import * as reconcile from "./reconcile_cmd.ts";
import * as roots from "./roots_cmd.ts";
import * as search from "./search_cmd.ts";
import * as status from "./status_cmd.ts";
import * as verify from "./verify_cmd.ts";
import * as graph from "./graph_cmd.ts";

interface Command {
  HELP: string;
  run(args: string[], ctx: Context): number | Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  index,
  search,
  reconcile,
  daemon,
  hint,
  verify,
  depth,
  status,
  roots,
  symbols: { HELP: graph.SYMBOLS_HELP, run: graph.symbols },
  callers: { HELP: graph.CALLERS_HELP, run: graph.callersCmd },
  callees: { HELP: graph.CALLEES_HELP, run: graph.calleesCmd },
  "blast-radius": { HELP: graph.BLAST_HELP, run: graph.blastCmd },
};

const VERSION = "0.1.0";

function usage(): string {
  return [
    `heimdall ${VERSION} — persistent, cross-repository memory for coding agents`,
    "",
    ...Object.values(COMMANDS).map((c) => c.HELP),
    "",
    "Data lives in $HEIMDALL_HOME (default ~/.heimdall). Exit codes: 0 ok, 1 nothing found or drift,",
    "2 usage or bad input, 3 environment (lock held, permission, missing journal or model).",
  ].join("\n\n").replace(/\n\n\n\n/g, "\n\n");
}

/** Runs one command line; returns the process exit code. Never throws. */
export async function main(argv: string[], ctx: Context = defaultContext()): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const topic = name === "help" && args[0] ? COMMANDS[args[0]] : undefined;
    ctx.out(topic ? topic.HELP : usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "version") {
    ctx.out(`heimdall ${VERSION}`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  try {
    if (!command) {
      throw new UsageError(`Unknown command "${name}"; \`heimdall help\` lists the commands`);
    }
    if (args.includes("--help") || args.includes("-h")) {
      ctx.out(command.HELP);
      return EXIT.ok;
    }
    return await command.run(args, ctx);
  } catch (e) {
    const { code, message } = describeError(
      e instanceof TypeError && (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
        ? new UsageError(`${e.message}; \`heimdall help ${name}\` shows the options`)
        : e,
    );
    ctx.err(`heimdall ${name}: ${message}`);
    return code;
  }
}
