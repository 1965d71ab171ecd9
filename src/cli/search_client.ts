/**
 * `heimdall search` typed on a command line: asks the warm server of its
 * `$HEIMDALL_HOME` (the one the hooks start, `src/harness/hook_server.ts`)
 * when one runs, and prints its answer exactly as a search in this process
 * would. This module's own graph is small (no journal, no ranking code), so
 * a search a warm server answers costs Deno's start, one exchange over
 * 127.0.0.1 and a warm `search()`, not loading and compiling the search
 * code and reading the journal's pages cold each time.
 *
 * Anything else searches in this process, as `heimdall search` always has:
 * no server, `HEIMDALL_HOOK_SERVER=0`, `--help`/`--debug`, a command line
 * the server would not take (its error is then reported by the command), a
 * server of another build or identity, an active embedding model (the
 * server does not rank by meaning), a search that failed there (the same
 * error is then reported here), or no answer within {@link SEARCH_WAIT_MS}.
 *
 * A search that found no server listening starts one in the background once
 * it has printed its answer (as the first hook does; with
 * `HEIMDALL_HOOK_SERVER=0` never), so the searches typed after it are
 * answered warm; the server goes after 10 idle minutes.
 */
import { buildId, homeDirFromEnv, spawnServer } from "./hook_cmd.ts";
import { exchange, heimdallEnv, identityKey, readPortFile } from "../harness/hook_wire.ts";
import { printSearch, searchArgs } from "./search_view.ts";
import type { SearchArgs } from "../harness/search_request.ts";
import { tightenHome } from "../config/private_files.ts";
import { stderrLine, stdoutLine } from "./std_lines.ts";
import { damagedAnswerWarning } from "./damaged_answer.ts";
import { EXIT } from "./exit_codes.ts";

/**
 * How long a search waits for the warm server before it searches in its own
 * process: a warm search takes tens of ms, a wedged server costs this much.
 */
export const SEARCH_WAIT_MS = 1000;

/** Runs `heimdall search …` (`argv[0]` is `search`); returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const asked = await viaServer(argv.slice(1));
  if (asked.kind === "answered") return asked.code;
  const cli = await import("./mod.ts");
  const code = await cli.main(argv);
  // A search that ran (hits or none): the next one finds a server. A usage error or a missing journal starts nothing.
  if (asked.kind === "no server" && (code === EXIT.ok || code === EXIT.none)) {
    await spawnServer(asked.homeDir);
  }
  return code;
}

/**
 * What asking the warm server gave: its answer, printed here (`code`); no
 * server listening for the home at `homeDir`; or no answer for any other
 * reason (the server is off, busy, of another build, or refused the search).
 */
type Asked =
  | { kind: "answered"; code: number }
  | { kind: "no server"; homeDir: string }
  | { kind: "not asked" };

/** Asks the warm server to search, and prints its answer when it gives one. */
async function viaServer(args: string[]): Promise<Asked> {
  const notAsked = { kind: "not asked" } as const;
  if (Deno.env.get("HEIMDALL_HOOK_SERVER") === "0") return notAsked;
  if (args.some((a) => a === "--help" || a === "-h" || a === "--debug")) return notAsked;
  // A process that may not connect to 127.0.0.1 could neither ask a server nor use one it started.
  if (Deno.permissions.querySync({ name: "net", host: "127.0.0.1" }).state !== "granted") {
    return notAsked;
  }
  const homeDir = homeDirFromEnv();
  if (homeDir === null) return notAsked;
  let asked: SearchArgs;
  try {
    asked = searchArgs(args);
  } catch {
    return notAsked; // the command in this process says what is wrong
  }
  const at = readPortFile(homeDir);
  if (at === null) return { kind: "no server", homeDir };
  const r = await exchange(at.port, {
    token: at.token,
    build: buildId(),
    identity: identityKey((n) => Deno.env.get(n)),
    search: asked,
    env: heimdallEnv(Deno.env.toObject()),
    waitMs: SEARCH_WAIT_MS,
  }, SEARCH_WAIT_MS);
  // A stale port file: nothing listens on its port.
  if (r === "absent") return { kind: "no server", homeDir };
  if (typeof r !== "object" || r.status !== "searched") return notAsked;
  tightenHome(homeDir);
  const { result, warnings, damage } = r.answer;
  for (const w of warnings) stderrLine(w);
  printSearch({ out: stdoutLine, tty: Deno.stdout.isTerminal() }, asked, result);
  if (damage !== null) stderrLine(damagedAnswerWarning("search", damage));
  return { kind: "answered", code: result.hits.length > 0 ? EXIT.ok : EXIT.none };
}
