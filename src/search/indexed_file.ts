/**
 * The file a `symbols` question names, as the journal holds it, or why the
 * journal holds no such file and what to do: shared by `heimdall symbols`
 * and the MCP `symbols` tool, so both answer a path the same way.
 */
import { clipped, UsageError } from "../errors/mod.ts";
import {
  canonicalPath,
  classifyPath,
  exists,
  isAbsolute,
  isSecretName,
  join,
  readTextOrNull,
  relative,
} from "../files/mod.ts";
import { printable } from "../present/printable.ts";
import { shellQuote } from "../present/shell.ts";
import { getPath, type Journal, type PathRow, rootFor } from "../store/mod.ts";

/**
 * The journal's row for the file at `typed` (absolute): the path as typed,
 * else with its linked folders resolved (roots are recorded by their real
 * path; a root recorded through a link keeps the typed name). Throws a
 * {@link UsageError} naming the path and the remedy when there is none: no
 * such file, a folder, under no root of `roots`, a secret's name, ignored
 * (by the rules of the root or of `ignoreFile`, the home's own), a link, or
 * not indexed yet. Costs one or two look-ups; a stat or a few more, and
 * reading the ignore rules, only when there is no row.
 *
 * `written`, the path as the person typed it: when nothing is there,
 * relative to the current folder, it may name an indexed file by its path
 * in its root or the end of that path (`Lib/gzip.py`), as a symbol's
 * `path:name` does (`callers Lib/gzip.py:open`); several such files are
 * listed to choose from; `byEnd` says the file was found so (its path is
 * then worth showing).
 */
export function indexedFile(
  j: Journal,
  typed: string,
  roots: readonly { path: string }[],
  ignoreFile: string,
  written?: string,
): { path: string; row: PathRow; byEnd: boolean } {
  const path = getPath(j, typed) ? typed : canonicalPath(typed);
  const row = getPath(j, path);
  if (row) return { path, row, byEnd: false };
  const inRoots = written === undefined || isAbsolute(written) || exists(path)
    ? []
    : endingWith(j, written);
  if (inRoots.length === 1) return { path: inRoots[0]!.path, row: inRoots[0]!, byEnd: true };
  if (inRoots.length > 1) {
    throw new UsageError(
      `"${clipped(written!)}" is the end of ${
        inRoots.length > LISTED ? `more than ${LISTED}` : inRoots.length
      } indexed files' paths; name one by more of its path:\n` +
        inRoots.slice(0, LISTED).map((r) => `  ${printable(r.path)}`).join("\n"),
    );
  }
  throw new UsageError(notIndexed(path, roots, ignoreFile));
}

/** At most this many files are listed when a path's end matches several. */
const LISTED = 20;

/** The indexed files whose path in their root is `written`, or ends with `/` and it (one more than {@link LISTED} at most). */
function endingWith(j: Journal, written: string): PathRow[] {
  const tail = written.replace(/^\.\//, "");
  // Compared, not LIKE: `_` and `%` are a file name's characters, and its case counts.
  return j.all<PathRow>(
    `SELECT * FROM paths WHERE state = 'indexed'
       AND (rel = ? OR substr(path, -1 - length(?)) = '/' || ?) ORDER BY path LIMIT ?`,
    tail,
    tail,
    tail,
    LISTED + 1,
  );
}

/**
 * Why `path` has no row in the journal, and what to do: the disk, the roots,
 * secret names and the ignore rules (the home's own in `ignoreFile`) decide.
 */
function notIndexed(path: string, roots: readonly { path: string }[], ignoreFile: string): string {
  let stat: Deno.FileInfo | undefined;
  try {
    stat = Deno.statSync(path);
  } catch { /* nothing there */ }
  if (stat === undefined) {
    return `No file "${
      clipped(path)
    }"; check the path (relative to the current folder, or absolute)`;
  }
  if (stat.isDirectory) {
    return `"${path}" is a folder; symbols outlines one file: \`heimdall symbols ${
      shellQuote(join(path, "FILE"))
    }\``;
  }
  const root = rootFor(roots, path);
  if (root === undefined) {
    return `"${path}" is under no root, so it is not indexed; add one with \`heimdall roots add DIR\` (or \`heimdall index DIR\`)`;
  }
  // What reconcile would skip again: naming it as the remedy would do nothing.
  const rel = relative(root.path, path);
  const secret = isSecretName(rel);
  if (secret !== undefined) {
    return `"${path}" is never indexed (${secret}): secrets stay out of the journal`;
  }
  const ignored = classifyPath(root.path, rel, false, readTextOrNull(ignoreFile) ?? "");
  if (ignored.ignored) {
    const reason = ignored.reason ?? "an ignore rule";
    return `"${path}" is ignored (${reason}), so it is not indexed${
      reason.startsWith("default") ? "" : "; edit that rule to index it"
    }`;
  }
  let link = false;
  try {
    link = Deno.lstatSync(path).isSymlink;
  } catch { /* stat'ed above: gone meanwhile */ }
  if (link) {
    const target = Deno.realPathSync(path);
    return `"${path}" is a symbolic link to ${target}, and links are never followed: \`heimdall symbols ${
      shellQuote(target)
    }\` outlines it when it lies under a root`;
  }
  return `"${path}" is not in the index yet; \`heimdall reconcile ${shellQuote(path)}\` indexes it`;
}
