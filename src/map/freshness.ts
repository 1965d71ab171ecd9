/**
 * HyperMnesia's freshness check: documents that git's `HEAD` changed or
 * added and that the journal has not seen yet. A map's constraints come from
 * documents; when the index is behind the commit, what an agent is told can
 * be older than what the repository says.
 */
import { contentHash } from "../files/mod.ts";

/** Extensions of the documents the check looks at (prose the index chunks by heading). */
const DOCUMENT = /\.(md|markdown|mdx|rst|adoc|asciidoc|txt|org|toml|json)$/i;

/** A document `HEAD` changed that the journal holds an older version of, or none. */
export interface BehindHead {
  /** The document's path, relative to the repository root. */
  rel: string;
  /** `not indexed` (the journal has no row for it) or `older version indexed`. */
  reason: "not indexed" | "older version indexed";
}

/**
 * The documents changed or added by the commit at `HEAD` of the git
 * repository at `root` whose bytes on disk are still `HEAD`'s and whose
 * indexed hash is not (`indexedHash(rel)`: the journal's hash, null when it
 * has no row), among those Heimdall indexes (`indexable(rel)`: not ignored).
 * A document edited since the commit (that `git diff HEAD` lists) is the
 * working tree's business, not a stale index, and is left out. Returns
 * undefined when `root` is not a git work tree with a commit. Cost: three
 * git calls and one read per changed document.
 */
export function docsBehindHead(
  root: string,
  indexedHash: (rel: string) => string | null,
  indexable: (rel: string) => boolean,
): BehindHead[] | undefined {
  const changed = git(
    root,
    "diff-tree",
    "--no-commit-id",
    "--root",
    "-r",
    "-z",
    "--name-only",
    "HEAD",
  );
  if (changed === undefined) return undefined;
  // What the working tree holds differently from HEAD (content compared, as `git status`
  // does), in one call: a git process per document took minutes on a large commit.
  const edited = git(
    root,
    "-c",
    "diff.relative=false",
    "diff",
    "--no-ext-diff",
    "--no-renames",
    "--name-only",
    "-z",
    "HEAD",
    "--",
  );
  if (edited === undefined) return undefined;
  const notHeads = new Set(new TextDecoder().decode(edited).split("\0"));
  const prefix = git(root, "rev-parse", "--show-prefix");
  const here = new TextDecoder().decode(prefix ?? new Uint8Array()).trim();
  const out: BehindHead[] = [];
  for (const repoRel of new TextDecoder().decode(changed).split("\0")) {
    if (repoRel === "" || !DOCUMENT.test(repoRel) || !repoRel.startsWith(here)) continue;
    const rel = repoRel.slice(here.length);
    if (!indexable(rel) || notHeads.has(repoRel)) continue;
    let disk: Uint8Array;
    try {
      disk = Deno.readFileSync(`${root}/${rel}`);
    } catch {
      continue; // deleted since the commit
    }
    const indexed = indexedHash(rel);
    if (indexed === contentHash(disk)) continue;
    out.push({ rel, reason: indexed === null ? "not indexed" : "older version indexed" });
  }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : 1));
}

/** Runs git in `dir`; its stdout, or undefined when git is missing or fails. */
function git(dir: string, ...args: string[]): Uint8Array | undefined {
  try {
    const out = new Deno.Command("git", { args: ["-C", dir, ...args], stderr: "null" })
      .outputSync();
    return out.success ? out.stdout : undefined;
  } catch {
    return undefined;
  }
}
