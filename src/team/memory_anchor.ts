/**
 * Memory anchors named the same way on every machine (pure but for the
 * repository look-up in {@link portableOf}): what a team store keeps of an anchor instead of its
 * absolute path and local node id. Names, paths and hashes only.
 */
import { sha1Hex } from "../files/mod.ts";
import type { AnchorRow } from "../memory/mod.ts";
import type { RepoResolver } from "./symbol_key.ts";

/** An anchor as the team store keeps it. */
export interface PortableAnchor {
  /** Whether it points at a symbol, a file or a folder. */
  target: "symbol" | "file" | "folder";
  /** Repository name ("" for a path in no repository and under no root). */
  repo: string;
  /**
   * Repository-relative path, "/"-separated ("" for the repository's top);
   * when `repo` is "", absolute, or `~/…` for one under the user's home
   * (placed under the home of the machine that reads it).
   */
  path: string;
  /** Symbols: qualified name; "" for files and folders. */
  qualname: string;
  /** Symbols: their kind; else "file" or "folder". */
  kind: string;
  /** Symbol name, or file or folder name. */
  name: string;
  /** Symbols: structural hash; files: content hash; as seen by whoever wrote it. */
  structHash: string | null;
  /** Symbols: hash of the body with the name blanked (follows a rename). */
  shape: string | null;
}

/** The portable form of a local anchor. */
export function portableOf(a: AnchorRow, repos: RepoResolver): PortableAnchor {
  const at = repos.placeOf(a.path, a.root, a.target === "folder");
  return {
    target: a.target,
    repo: at.repo,
    path: at.path,
    qualname: a.target === "symbol" ? a.symbol ?? a.name : "",
    kind: a.target === "symbol" ? a.symbol_kind ?? "symbol" : a.target,
    name: a.name,
    structHash: a.struct_hash,
    shape: a.shape,
  };
}

/** An anchor's identity in the team store (what same-anchor checks and locks compare). */
export function portableKey(
  p: Pick<PortableAnchor, "target" | "repo" | "path" | "qualname">,
): string {
  return p.target === "symbol"
    ? `symbol:${p.repo}:${p.path}:${p.qualname}`
    : `${p.target}:${p.repo}:${p.path}`;
}

/**
 * A set of anchors' identity: the sha1 (hex) of their sorted, de-duplicated
 * keys, one per line; equal for exactly the same anchors in any order.
 */
export function portableSet(anchors: readonly PortableAnchor[]): string {
  const keys = [...new Set(anchors.map(portableKey))].sort().join("\n");
  return sha1Hex(keys);
}

/** How an anchor is written for people on any machine: `path:qualname`, the path, or `.`. */
export function portableLabel(p: PortableAnchor): string {
  const path = p.path === "" ? "." : p.path;
  return p.target === "symbol" ? `${path}:${p.qualname}` : path;
}

/**
 * The `path` an anchor keeps on a machine that does not have its code:
 * `repo/path`, relative (never under a root, so re-anchoring leaves it be
 * and search does not verify it) until {@link parsePlaceholder} and a
 * placement find the code here.
 */
export function placeholderPath(p: Pick<PortableAnchor, "repo" | "path">): string {
  return p.path === "" ? p.repo : `${p.repo}/${p.path}`;
}

/** The portable anchor a placeholder anchor row stands for. */
export function parsePlaceholder(a: AnchorRow): PortableAnchor {
  const slash = a.path.indexOf("/");
  return {
    target: a.target,
    repo: slash < 0 ? a.path : a.path.slice(0, slash),
    path: slash < 0 ? "" : a.path.slice(slash + 1),
    qualname: a.target === "symbol" ? a.symbol ?? a.name : "",
    kind: a.target === "symbol" ? a.symbol_kind ?? "symbol" : a.target,
    name: a.name,
    structHash: a.struct_hash,
    shape: a.shape,
  };
}
