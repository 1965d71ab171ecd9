/**
 * Roots the user removed (`heimdall roots remove`) that the journal still
 * holds until the writer retracts them: their files are on disk, so
 * verification alone would call them STRONG.
 */
import { type HomePaths, loadConfig } from "../config/mod.ts";
import { exists } from "../files/mod.ts";
import { type Journal, listRoots } from "../store/mod.ts";

/**
 * The ids of the journal's roots that `home`'s `config.json` no longer
 * lists. Empty without a home, without a configuration file (nothing says
 * which roots are wanted: a journal built in-process), or when the file
 * cannot be read (a search never fails on the configuration; the writer
 * reports it). Costs one read of `config.json`, each search: a server
 * sees a removal at once.
 */
export function removedRoots(j: Journal, home: HomePaths | undefined): Set<number> {
  if (home === undefined || !exists(home.config)) return new Set();
  let wanted: Set<string>;
  try {
    wanted = new Set(loadConfig(home.config).roots.map((r) => r.path));
  } catch {
    return new Set();
  }
  return new Set(listRoots(j).filter((r) => !wanted.has(r.path)).map((r) => r.id));
}
