/**
 * Who owns a path when folders overlap: Heimdall's own home is owned by no
 * root (it holds the journal, logs and the team store's password), and a
 * root nested inside another root owns everything under it (the innermost
 * root wins, as `rootFor` decides). Pure except {@link homeDirs},
 * which resolves the home's real path once.
 */

/** Folders a walk must not enter, absolute path → why (`walkRoot`'s `exclude`). */
export type Exclusions = ReadonlyMap<string, string>;

/** Why a path inside `$HEIMDALL_HOME` is never indexed. */
export const HOME_REASON = "Heimdall's own home ($HEIMDALL_HOME): never indexed";

/**
 * The home folder as given and as its real path (they differ when a symlink
 * leads to it), so a root reached either way excludes it. Never throws: a
 * home that does not exist yet is returned as given.
 */
export function homeDirs(home: string): string[] {
  const dirs = [stripSlash(home)];
  try {
    const real = Deno.realPathSync(home);
    if (!dirs.includes(real)) dirs.push(real);
  } catch { /* not created yet: nothing in it to index either */ }
  return dirs;
}

/**
 * The folders the walk of `root` must skip (pure): the home folders that lie
 * inside it (or that it lies inside), and every other root nested inside it,
 * which owns its own paths.
 */
export function walkExclusions(
  root: string,
  roots: readonly string[],
  home: readonly string[],
): Map<string, string> {
  const out = new Map<string, string>();
  const r = stripSlash(root);
  // A home inside the root is skipped; a root inside the home is skipped whole.
  for (const h of home) if (isInside(h, r) || isAtOrInside(r, h)) out.set(h, HOME_REASON);
  for (const other of roots) {
    const o = stripSlash(other);
    if (o !== r && isInside(o, r) && !out.has(o)) {
      out.set(o, `inside the nested root "${o}", which owns it`);
    }
  }
  return out;
}

/** {@link HOME_REASON} when `path` is a home folder or lies inside one, else undefined (pure). */
export function inHome(path: string, home: readonly string[]): string | undefined {
  return home.some((h) => isAtOrInside(path, h)) ? HOME_REASON : undefined;
}

/**
 * Why `root` cannot be a root, when it is the home or lies inside it
 * (everything under it would be excluded), else undefined (pure).
 */
export function rootInHomeError(root: string, home: readonly string[]): string | undefined {
  const h = home.find((d) => isAtOrInside(root, d));
  return h === undefined
    ? undefined
    : `Cannot index "${root}": it lies inside Heimdall's own home "${h}" ` +
      "($HEIMDALL_HOME), which is never indexed; pass the project folder instead";
}

/** True when `path` lies strictly below the folder `dir`. */
export function isInside(path: string, dir: string): boolean {
  const d = dir.endsWith("/") ? dir : dir + "/";
  return path.startsWith(d) && path.length > d.length;
}

/** True when `path` is `dir` itself or lies below it. */
export function isAtOrInside(path: string, dir: string): boolean {
  return path === stripSlash(dir) || isInside(path, dir);
}

function stripSlash(p: string): string {
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}
