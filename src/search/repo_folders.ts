/**
 * Which folders are repositories (hold a `.git`), remembered between the
 * searches of one process while each folder is unchanged: making or
 * removing `.git` in a folder moves the folder's mtime, so a folder whose
 * mtime is as it was is answered without looking for `.git` again. Looking
 * costs a failed stat and the error it builds (14 µs), for each folder
 * above each hit, in every search.
 */
import { exists, join } from "../files/mod.ts";

/** Each folder's answer, with its mtime when it was looked at. */
const known = new Map<string, { mtimeMs: number; repo: boolean }>();

/** Folders remembered before they are all forgotten. */
const KEPT = 10_000;

/**
 * A folder changed this recently (ms) is looked at again each time: a
 * change within the same millisecond as the one remembered would leave its
 * mtime as it was (as git treats a racily clean index entry).
 */
const RACY_MS = 2_000;

/**
 * True when `dir` holds a `.git` (a folder, or a worktree's file); false
 * when it does not or cannot be stat-ed. One stat of the folder, and one of
 * its `.git` when the folder changed since it was last asked about.
 */
export function holdsGit(dir: string): boolean {
  let mtimeMs: number | undefined;
  try {
    mtimeMs = Deno.statSync(dir).mtime?.getTime();
  } catch {
    return false;
  }
  const was = known.get(dir);
  if (was !== undefined && was.mtimeMs === mtimeMs) return was.repo;
  const repo = exists(join(dir, ".git"));
  if (mtimeMs !== undefined && Date.now() - mtimeMs > RACY_MS) {
    if (known.size >= KEPT) known.clear();
    known.set(dir, { mtimeMs, repo });
  } else known.delete(dir);
  return repo;
}
