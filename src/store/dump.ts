import type { Journal } from "./journal.ts";

const RAW: readonly [string, string][] = [
  ["roots", "SELECT * FROM roots ORDER BY path"],
  ["paths", "SELECT * FROM paths ORDER BY path"],
  ["nodes", "SELECT * FROM nodes ORDER BY id"],
  ["edges", "SELECT * FROM edges ORDER BY owner_id, src, dst, kind, line"],
  ["pending_edges", "SELECT * FROM pending_edges ORDER BY owner_id, src, kind, target, line"],
  ["chunks", "SELECT * FROM chunks WHERE path_id IS NOT NULL ORDER BY id"],
  ["vocab_sets", "SELECT * FROM vocab_sets ORDER BY path_id"],
  ["vocab_postings", "SELECT * FROM vocab_postings ORDER BY prose, mix, path_id"],
  ["vocab_words", "SELECT * FROM vocab_words ORDER BY side, word"],
];

// Row ids, generations and racy flags depend on history, not on the disk.
const CANONICAL: readonly [string, string][] = [
  ["roots", "SELECT path, depth FROM roots ORDER BY path"],
  [
    "paths",
    `SELECT r.path AS root, p.path, rel, state, reason, hash, size, mtime_ms, language, summary,
       requested_depth, target_depth, effective_depth, depth_reason, derivation
     FROM paths p JOIN roots r ON r.id = p.root_id ORDER BY p.path`,
  ],
  [
    "nodes",
    `SELECT p.path AS owner, n.id, parent_id, kind, name, qualname, start_line, end_line, signature,
       doc, struct_hash, partial, scoped FROM nodes n JOIN paths p ON p.id = n.path_id ORDER BY n.id`,
  ],
  [
    "edges",
    `SELECT p.path AS owner, src, dst, kind, line, target, module, how FROM edges e
     JOIN paths p ON p.id = e.owner_id ORDER BY owner, src, dst, kind, line`,
  ],
  [
    "pending_edges",
    `SELECT p.path AS owner, src, kind, target, module, line FROM pending_edges e
     JOIN paths p ON p.id = e.owner_id ORDER BY owner, src, kind, target, line`,
  ],
  [
    "chunks",
    `SELECT p.path AS owner, node_id, source, title, start_line, end_line, text_hash FROM chunks c
     JOIN paths p ON p.id = c.path_id ORDER BY owner, start_line, end_line, node_id, title, text_hash`,
  ],
  [
    "vocab_sets",
    `SELECT p.path AS owner, mix, sets FROM vocab_sets v JOIN paths p ON p.id = v.path_id
     ORDER BY owner`,
  ],
  [
    "vocab_postings",
    `SELECT prose, mix, p.path AS owner, codes FROM vocab_postings v
     JOIN paths p ON p.id = v.path_id ORDER BY prose, owner`,
  ],
  ["vocab_words", "SELECT side, word, n FROM vocab_words ORDER BY side, word"],
];

/**
 * A text of every index row (not the queue or meta), for tests and audits.
 * `raw` includes row ids and generations, so it also shows whether anything
 * was rewritten; `canonical` (the default) keeps only what follows from the
 * disk, so two journals built by different histories of the same tree compare
 * equal.
 */
export function dumpIndex(j: Journal, mode: "raw" | "canonical" = "canonical"): string {
  const out: string[] = [];
  for (const [name, sql] of mode === "raw" ? RAW : CANONICAL) {
    out.push(`# ${name}`);
    for (const row of j.all<Record<string, unknown>>(sql)) out.push(JSON.stringify(row));
  }
  return out.join("\n");
}
