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
 * It never starts a server.
 */
import { buildId, homeDirFromEnv } from "./hook_cmd.ts";
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
  const code = await viaServer(argv.slice(1));
  if (code !== null) return code;
  const cli = await import("./mod.ts");
  return await cli.main(argv);
}

/** The exit code of a search the warm server answered and this process printed; null when it did not answer. */
async function viaServer(args: string[]): Promise<number | null> {
  if (Deno.env.get("HEIMDALL_HOOK_SERVER") === "0") return null;
  if (args.some((a) => a === "--help" || a === "-h" || a === "--debug")) return null;
  const homeDir = homeDirFromEnv();
  if (homeDir === null) return null;
  const at = readPortFile(homeDir);
  if (at === null) return null;
  let asked: SearchArgs;
  try {
    asked = searchArgs(args);
  } catch {
    return null; // the command in this process says what is wrong
  }
  const r = await exchange(at.port, {
    token: at.token,
    build: buildId(),
    identity: identityKey((n) => Deno.env.get(n)),
    search: asked,
    env: heimdallEnv(Deno.env.toObject()),
    waitMs: SEARCH_WAIT_MS,
  }, SEARCH_WAIT_MS);
  if (typeof r !== "object" || r.status !== "searched") return null;
  tightenHome(homeDir);
  const { result, warnings, damage } = r.answer;
  for (const w of warnings) stderrLine(w);
  printSearch({ out: stdoutLine, tty: Deno.stdout.isTerminal() }, asked, result);
  if (damage !== null) stderrLine(damagedAnswerWarning("search", damage));
  return result.hits.length > 0 ? EXIT.ok : EXIT.none;
}
