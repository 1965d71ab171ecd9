/**
 * A search typed on a command line, as plain data: what `heimdall search`
 * parses (`src/cli/search_view.ts`) and what a warm server is sent, and the
 * `search()` request both make of it, so a search answered in its own
 * process and one answered by the server are the same search.
 */
import type { HomePaths } from "../config/mod.ts";
import type { SearchKind, SearchRequest } from "../search/types.ts";
import { defaultAuthor } from "../memory/author.ts";

/** A search as its command line asks it, every path already resolved from the asker's folder. */
export interface SearchArgs {
  query: string;
  limit: number;
  repo?: string;
  pathPrefix?: string;
  lang?: string;
  kind?: SearchKind;
  /** The folder the search was typed in (absolute): copies under it are shown first. */
  cwd: string;
  /** `--json`: the whole answer as one JSON line. */
  json: boolean;
}

/**
 * The request `search()` gets for a command line's search: the viewer is
 * who `git config` says works in the asker's folder (asked only when a
 * private memory ranks), and of identical copies the one under that folder
 * is shown.
 */
export function searchRequest(asked: SearchArgs, home: HomePaths | undefined): SearchRequest {
  const req: SearchRequest = {
    query: asked.query,
    limit: asked.limit,
    near: asked.cwd,
    viewer: () => defaultAuthor(asked.cwd),
  };
  if (home !== undefined) req.home = home;
  if (asked.repo !== undefined) req.repo = asked.repo;
  if (asked.pathPrefix !== undefined) req.pathPrefix = asked.pathPrefix;
  if (asked.lang !== undefined) req.lang = asked.lang;
  if (asked.kind !== undefined) req.kind = asked.kind;
  return req;
}
