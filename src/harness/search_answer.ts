/**
 * A command line's search answered by the warm server (`hook_server.ts`):
 * the same request, tuning and semantic leg as `heimdall search` run in its
 * own process (`src/cli/search_cmd.ts`), so the answer is the same, from a
 * process whose modules, compiled code and journal pages are already warm.
 */
import { type HomePaths, loadConfig, logUsage } from "../config/mod.ts";
import { modelStatus } from "../embed/registry.ts";
import { configuredTuning, legOff, search, searchUsage } from "../search/mod.ts";
import { Journal, knownDamage } from "../store/mod.ts";
import { type SearchArgs, searchRequest } from "./search_request.ts";
import type { SearchAnswer } from "./hook_wire.ts";
import type { HeldReader } from "./held_reader.ts";

/**
 * Answers `asked` from the journal of `home`, its config read with the
 * client's `HEIMDALL_*` variables (`clientEnv`), or returns `"model"` when an
 * embedding model is active: a one-shot search loads it and ranks by
 * meaning too, which this server does not, so that client searches in its
 * own process rather than get a different answer. Throws what the search
 * throws (no journal, a damaged one): the client then searches itself and
 * reports it as the command always has. The usage log records the search
 * unless `late()` says the client has stopped waiting for it.
 */
export async function answerSearch(
  asked: SearchArgs,
  home: HomePaths,
  clientEnv: Record<string, string>,
  late: () => boolean = () => false,
  reader?: HeldReader,
): Promise<SearchAnswer | "model"> {
  // The config as the asking process reads it: its HEIMDALL_* variables, not this server's.
  const env = { get: (name: string) => clientEnv[name] };
  const config = loadConfig(home.config, env);
  let reason: string;
  try {
    const status = modelStatus(home.models, config.model);
    if (status.on) return "model";
    reason = status.reason;
  } catch (e) {
    reason = (e as Error).message;
  }
  const warnings: string[] = [];
  if (config.teamUrl && (asked.kind === undefined || asked.kind === "memory")) {
    const { syncTeamMemories } = await import("../team/mod.ts");
    await syncTeamMemories(
      { home, config: () => loadConfig(home.config, env) },
      (m) => warnings.push(`heimdall search: ${m}`),
    );
  }
  const damage = knownDamage(home.journal) ?? null;
  const lease = reader?.acquire();
  const journal = lease?.journal ?? Journal.open(home.journal, { readOnly: true });
  try {
    const req = { ...searchRequest(asked, home), semantic: legOff(reason) };
    const result = await search(journal, req, configuredTuning(config));
    // A client that stopped waiting searches again itself and logs that search.
    if (!late()) logUsage(home, searchUsage("cli", result));
    return { result, warnings, damage };
  } finally {
    if (lease) lease.release();
    else journal.close();
  }
}

/**
 * A question a new server searches once, its answer unused: code that runs
 * for the first time runs uncompiled and the journal's pages are not yet
 * read, so without it the first search asked of a server costs what a
 * search in a process of its own does. Generic words that most code and
 * docs hold, so that every stage runs (ranking, reading files, verdicts).
 * One question: the server answers nothing else while it runs.
 */
const WARM_UP_QUERY = "read the file and return its lines";

/**
 * Searches {@link WARM_UP_QUERY} on `reader`'s journal with the home's
 * config, lexical leg only, nothing logged; false when it could not (no
 * journal yet, a damaged one): the first real search then warms the server.
 */
export async function warmSearch(home: HomePaths, reader: HeldReader): Promise<boolean> {
  let lease;
  try {
    lease = reader.acquire();
  } catch {
    return false;
  }
  try {
    const req = { query: WARM_UP_QUERY, limit: 8, home, semantic: legOff("warming up") };
    await search(lease.journal, req, configuredTuning(loadConfig(home.config)));
    return true;
  } catch {
    return false;
  } finally {
    lease.release();
  }
}
