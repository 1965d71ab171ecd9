/**
 * The command line: argv → command → exit code.
 *
 * Owns argument parsing, help texts, output formatting and the exit-code
 * table. Never decides what the index holds: it calls reconcile, search and
 * memory, and prints what they return.
 */
import { type Context, defaultContext } from "./context.ts";
import { meant, UsageError } from "../errors/mod.ts";
import { describeError } from "./errors.ts";
import { damagedAnswerWarning } from "./damaged_answer.ts";
import { printable } from "../present/fmt.ts";
import { EXIT } from "./exit_codes.ts";
import { FlagError } from "./flags.ts";
import { VERSION, versionLine } from "./version.ts";
import { join } from "../files/mod.ts";
import {
  corruptionDetail,
  isCorruption,
  JournalCorruptError,
  knownDamage,
  markDamaged,
  schemaBehind,
} from "../store/mod.ts";

interface Command {
  HELP: string;
  run(args: string[], ctx: Context): number | Promise<number>;
}

/** A command that is one of several in its module: its help text and run function, by name. */
function pick<H extends string, R extends string>(
  load: () => Promise<Record<H, string> & Record<R, Command["run"]>>,
  help: H,
  run: R,
): () => Promise<Command> {
  return async () => {
    const m = await load();
    return { HELP: m[help], run: m[run] };
  };
}

/** Commands that rank with the semantic leg when a model is installed. */
const SEARCHING = new Set(["search", "mcp", "doctor"]);

/** Each command's module, loaded only when that command runs: a command pays for its own imports. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  index: () => import("./index_cmd.ts"),
  search: () => import("./search_cmd.ts"),
  insert: () => import("./insert_cmd.ts"),
  reconcile: () => import("./reconcile_cmd.ts"),
  daemon: () => import("./daemon_cmd.ts"),
  hint: () => import("./hint_cmd.ts"),
  verify: () => import("./verify_cmd.ts"),
  depth: () => import("./depth_cmd.ts"),
  status: () => import("./status_cmd.ts"),
  roots: () => import("./roots_cmd.ts"),
  symbols: pick(() => import("./graph_cmd.ts"), "SYMBOLS_HELP", "symbols"),
  callers: pick(() => import("./graph_cmd.ts"), "CALLERS_HELP", "callersCmd"),
  callees: pick(() => import("./graph_cmd.ts"), "CALLEES_HELP", "calleesCmd"),
  "blast-radius": pick(() => import("./graph_cmd.ts"), "BLAST_HELP", "blastCmd"),
  remember: pick(() => import("./memory_cmd.ts"), "REMEMBER_HELP", "rememberCmd"),
  attempt: pick(() => import("./memory_cmd.ts"), "ATTEMPT_HELP", "attemptCmd"),
  why: pick(() => import("./memory_cmd.ts"), "WHY_HELP", "whyCmd"),
  history: pick(() => import("./memory_cmd.ts"), "HISTORY_HELP", "historyCmd"),
  forget: pick(() => import("./memory_cmd.ts"), "FORGET_HELP", "forgetCmd"),
  review: () => import("./review_cmd.ts"),
  reflect: () => import("./reflect_cmd.ts"),
  constraints: pick(() => import("./map_cmd.ts"), "CONSTRAINTS_HELP", "constraintsCmd"),
  map: pick(() => import("./map_cmd.ts"), "MAP_HELP", "mapCmd"),
  rebuild: () => import("./rebuild_cmd.ts"),
  export: pick(() => import("./export_cmd.ts"), "EXPORT_HELP", "exportCmd"),
  import: pick(() => import("./export_cmd.ts"), "IMPORT_HELP", "importCmd"),
  claim: pick(() => import("./team_cmd.ts"), "CLAIM_HELP", "claimCmd"),
  release: pick(() => import("./team_cmd.ts"), "RELEASE_HELP", "releaseCmd"),
  claims: pick(() => import("./team_cmd.ts"), "CLAIMS_HELP", "claimsCmd"),
  conflicts: pick(() => import("./team_cmd.ts"), "CONFLICTS_HELP", "conflictsCmd"),
  task: pick(() => import("./team_cmd.ts"), "TASK_HELP", "taskCmd"),
  "who-knows": pick(() => import("./team_cmd.ts"), "WHO_KNOWS_HELP", "whoKnowsCmd"),
  team: pick(() => import("./team_cmd.ts"), "TEAM_HELP", "teamCmd"),
  init: () => import("./init_cmd.ts"),
  hook: () => import("./hook_cmd.ts"),
  mcp: () => import("./mcp_cmd.ts"),
  doctor: () => import("./doctor_cmd.ts"),
  redact: () => import("./redact_cmd.ts"),
  model: () => import("./model_cmd.ts"),
  service: () => import("./service_cmd.ts"),
  ui: () => import("./ui_cmd.ts"),
};

/**
 * What each command is for, one line each, in the order `heimdall help`
 * lists them: the overview loads no command's module (all of them take over
 * a second to load); `heimdall help COMMAND` shows one command's own text.
 */
export const SUMMARIES:
  readonly (readonly [group: string, commands: readonly (readonly [string, string])[]])[] = [
    ["Index and search", [
      ["index", "add folders to index and converge them now"],
      ["search", '"did I already solve this?": ranked answers across every root, checked on disk'],
      ["insert", "record reusable work as a searchable note"],
      ["symbols", "the outline of a file: its definitions, nested, with line ranges"],
      ["callers", "who calls a symbol, one hop"],
      ["callees", "what a symbol calls, one hop"],
      ["blast-radius", "what may break when a symbol changes"],
    ]],
    ["Keep the journal equal to the disk", [
      ["daemon", "the single writer: watches every root, takes hints, audits on a timer"],
      ["reconcile", "converge the given paths (or everything) now, as the writer"],
      ["hint", '"look at this path", from any process: no lock, returns at once'],
      ["verify", "read-only audit of the journal against the disk"],
      ["depth", "how deep a file or folder is indexed, and why"],
      ["status", "roots, counts, queue, daemon, last audit, semantic leg"],
      ["roots", "list, add or remove the folders Heimdall indexes"],
      ["rebuild", "back the journal up and re-derive the whole code index"],
    ]],
    ["Memory", [
      ["remember", "record a decision, convention, note or fact about code"],
      ["attempt", "record what was tried and whether it failed or passed"],
      ["why", "what memory says about a symbol, file or folder now"],
      ["history", "every memory about it, superseded and forgotten ones too"],
      ["forget", "mark a memory forgotten (it stays in history)"],
      ["review", "accept or reject the personal memories the hooks proposed"],
      ["reflect", "write a project's knowledge page from its shared memories"],
      ["constraints", "what the architectural map says about a path"],
      ["map", "check the architectural map against the files"],
      ["export", "write every memory and note as JSON Lines"],
      ["import", "read an export into this journal"],
      ["redact", "redact secrets an older Heimdall stored in notes and memories"],
    ]],
    ["Team", [
      ["claim", "tell the team you are about to change these symbols"],
      ["release", "release your claims"],
      ["claims", "every active claim in the team store"],
      ["conflicts", "others' claims on this code and code a few calls away"],
      ["task", "start, hand off, resume and finish tasks"],
      ["who-knows", "people ranked by what they recorded about this code"],
      ["team", "connect to, or leave, a shared PostgreSQL"],
    ]],
    ["Agents, models and setup", [
      ["init", "wire Heimdall into coding agents' hooks and MCP settings"],
      ["hook", "one hook event from an agent's harness, on stdin"],
      ["mcp", "serve Heimdall's tools over stdio (Model Context Protocol)"],
      ["doctor", "check the wiring end to end, each problem with its fix"],
      ["model", "list, pull, import or choose a local embedding model"],
      ["service", "run the daemon as your user's service"],
      ["ui", "serve the dashboard on 127.0.0.1"],
    ]],
  ];

/**
 * Every command's name, and a way to read its help text (which loads its
 * module), for the tests that keep the overview in step with the commands.
 *
 * @internal
 */
export function commandHelp(): Map<string, () => Promise<string>> {
  return new Map(
    Object.entries(COMMANDS).map(([name, load]) => [name, async () => (await load()).HELP]),
  );
}

function usage(): string {
  const width = Math.max(...SUMMARIES.flatMap(([, list]) => list.map(([name]) => name.length)));
  return [
    `heimdall ${VERSION} — persistent, cross-repository memory for coding agents`,
    "",
    "Usage: heimdall COMMAND [options]   (`heimdall help COMMAND` shows its options)",
    ...SUMMARIES.flatMap(([group, list]) => [
      "",
      `${group}:`,
      ...list.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`),
    ]),
    "",
    "Data lives in $HEIMDALL_HOME (default ~/.heimdall). Exit codes: 0 ok, 1 nothing found or drift,",
    "2 usage or bad input, 3 environment (lock held, permission, disk full, missing or damaged",
    "journal, missing model), 70 internal bug (rerun with --debug for the stack and report it).",
  ].join("\n");
}

/**
 * `--debug` anywhere before `--` (or HEIMDALL_DEBUG=1): an internal error prints
 * its stack. Returns the arguments without it.
 */
function takeDebug(argv: string[]): { argv: string[]; debug: boolean } {
  const end = argv.indexOf("--");
  const head = end === -1 ? argv : argv.slice(0, end);
  const rest = end === -1 ? [] : argv.slice(end);
  const kept = head.filter((a) => a !== "--debug");
  const env = Deno.env.get("HEIMDALL_DEBUG");
  return {
    argv: [...kept, ...rest],
    debug: kept.length < head.length || (env !== undefined && env !== "" && env !== "0"),
  };
}

/** Commands that only read the journal: they answer from a damaged one, saying so. */
const READING = new Set([
  "search",
  "symbols",
  "callers",
  "callees",
  "blast-radius",
  "why",
  "history",
  "constraints",
  "claims",
  "conflicts",
  "who-knows",
  "export",
  "depth",
  "verify",
  "roots",
  "doctor",
]);

/**
 * Commands that migrate a journal an older build wrote before they read it
 * (after an upgrade, the first of them to run): those that only read it,
 * `status` and the dashboard.
 */
const MIGRATES = new Set([...READING, "status", "ui"]);

/**
 * Runs one command line; returns the process exit code. Never throws.
 *
 * Called by `main.ts` and the tests, never by another folder of `src/`.
 *
 * @internal
 */
export async function main(argv: string[], ctx: Context = defaultContext()): Promise<number> {
  const { argv: plain, debug } = takeDebug(argv);
  const [name, ...args] = plain;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    // `help help` asks about help itself: the usage says how it is used.
    const asked = name === "help" && args[0] !== "help" ? args[0] : undefined;
    const topic = asked === undefined ? undefined : commandNamed(asked);
    if (asked !== undefined && topic === undefined) {
      const guess = meant(asked, Object.keys(COMMANDS));
      ctx.err(
        `heimdall help: Unknown command "${printable(asked)}"${
          guess === undefined ? "" : ` (did you mean ${guess}?)`
        }; the commands are:`,
      );
      ctx.out(usage());
      return EXIT.usage;
    }
    ctx.out(topic ? (await topic()).HELP : usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "version") {
    ctx.out(versionLine());
    return EXIT.ok;
  }
  const load = commandNamed(name);
  try {
    if (!load) {
      const guess = meant(name, Object.keys(COMMANDS));
      throw new UsageError(
        `Unknown command "${name}"; ${
          guess === undefined ? "" : `did you mean \`heimdall ${guess}\`? `
        }\`heimdall help\` lists the commands`,
      );
    }
    const command = await load();
    if (args.includes("--help") || args.includes("-h")) {
      ctx.out(command.HELP);
      return EXIT.ok;
    }
    // A journal an older build wrote is migrated, as the writer, before it is read.
    if (MIGRATES.has(name) && schemaBehind(ctx.home.journal) !== undefined) {
      await (await import("./journal_upgrade.ts")).migrateAsWriter(ctx, name);
    }
    if (SEARCHING.has(name)) await wireSemanticLeg(ctx, name);
    // Never answer from a journal known to be damaged without saying so: a
    // command that answers gets the warning after its answer; one that fails
    // gets only its one-line error below (a bad header fails the open itself).
    const damage = READING.has(name) ? knownDamage(ctx.home.journal) : undefined;
    const code = await command.run(args, ctx);
    if (damage !== undefined) {
      ctx.err(damagedAnswerWarning(name, damage));
    }
    return code;
  } catch (e) {
    // The first query that trips on a bad page marks the journal damaged.
    if (isCorruption(e) && !(e instanceof JournalCorruptError)) {
      markDamaged(ctx.home.journal, corruptionDetail(e));
    }
    const { code, message } = describeError(
      e instanceof FlagError
        ? new UsageError(`${e.message}; \`heimdall help ${name}\` shows the options`)
        : e,
      { journal: ctx.home.journal, debug },
    );
    ctx.err(`heimdall ${name}: ${message}`);
    return code;
  }
}

/**
 * The semantic leg: the active model over the journal's vectors (off, with
 * why, without one). A one-shot search with no usable model registers a leg
 * that only says why: the vectors' and the ONNX runtimes' modules (about 60,
 * a tenth of a search process's start) are loaded only when there is a
 * model to run. A long-lived server (`mcp`) always gets the full leg, which
 * reads the config at every search, so a model installed meanwhile is used.
 */
async function wireSemanticLeg(ctx: Context, command: string): Promise<void> {
  const { legOff, setSemanticLeg } = await import("../search/mod.ts");
  if (command === "search") {
    // Not through embed/mod.ts: that loads the runtimes this is here to avoid.
    const { modelStatus } = await import("../embed/registry.ts");
    let status: ReturnType<typeof modelStatus>;
    try {
      status = modelStatus(ctx.home.models, ctx.config().model);
    } catch (e) {
      status = { on: false, reason: (e as Error).message };
    }
    if (!status.on) {
      setSemanticLeg(legOff(status.reason));
      return;
    }
  }
  const { activeModel, semanticLegFactory } = await import("../vector/mod.ts");
  const model = activeModel(ctx.home);
  setSemanticLeg(
    semanticLegFactory(model.source, model.status, { snapshotDir: join(ctx.home.home, "vectors") }),
  );
}

/** The command of that name; undefined for any other word (`constructor` and `toString` too). */
function commandNamed(name: string): (() => Promise<Command>) | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}
