/** A path as the journal and the config record it: the links among its folders resolved. */
import { basename, dirname, join } from "./path.ts";

/**
 * `abs` (absolute, normalised) with the symbolic links among its folders
 * resolved, as roots, journal rows and anchors record paths: a path typed
 * through a linked folder (`~/work` → `/data/work`) names the same rows as
 * the real one.
 *
 * A link to a folder is resolved too; a link to a file, or a dangling one,
 * keeps its own name (links are never followed into the index, so the link
 * itself is what its path means). A path that does not exist (a deleted
 * file, a root removed from disk) keeps its missing part as written under
 * its nearest existing folder, resolved. Costs an `lstat` and a `realpath`,
 * one more of each per missing segment; never throws.
 *
 * @example
 * ```ts
 * import { canonicalPath } from "./canonical.ts";
 * import assert from "node:assert/strict";
 * const real = Deno.realPathSync(Deno.makeTempDirSync());
 * const link = `${real}-link`;
 * Deno.symlinkSync(real, link);
 * assert.equal(canonicalPath(`${link}/src/gone.ts`), `${real}/src/gone.ts`);
 * Deno.removeSync(link);
 * Deno.removeSync(real);
 * ```
 */
export function canonicalPath(abs: string): string {
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.lstatSync(abs);
  } catch { /* not there, or in a folder we cannot search: resolve its folder */ }
  if (info !== undefined) {
    try {
      if (!info.isSymlink || Deno.statSync(abs).isDirectory) return Deno.realPathSync(abs);
    } catch { /* a dangling link: it keeps its name */ }
  }
  const parent = dirname(abs);
  if (parent === abs) return abs;
  return join(canonicalPath(parent), basename(abs));
}
