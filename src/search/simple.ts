import type { Journal } from "../store/mod.ts";
import { contentWords } from "./query.ts";

/** One ranked file. */
export interface SimpleHit {
  rank: number;
  path: string;
  line: number;
  symbol: string | null;
  kind: string | null;
  summary: string | null;
  score: number;
  /** Share of the query's content words found in the file's own text. */
  coverage: number;
  state: "fresh" | "changed" | "gone";
}

/**
 * Ranks files by how many of the query's content words their names,
 * signatures, doc comments, paths and summaries hold — one hit per file, its
 * best symbol named — and checks each hit's file against the disk. A plain
 * word-match ranking; the hybrid ranked search replaces it.
 */
export function simpleSearch(j: Journal, query: string, limit = 8): SimpleHit[] {
  const words = contentWords(query);
  if (words.length === 0) return [];
  const byFile = new Map<
    number,
    { score: number; words: Set<string>; best?: { score: number; row: Row } }
  >();
  for (const word of words) {
    const like = `%${word.replace(/[%_\\]/g, "\\$&")}%`;
    const rows = [
      ...j.all<Row>(
        `SELECT n.path_id, n.name, n.kind, n.start_line, n.signature, n.doc, p.rel, NULL AS summary
         FROM nodes n JOIN paths p ON p.id = n.path_id
         WHERE n.kind != 'file' AND (lower(n.name) LIKE ?1 ESCAPE '\\'
           OR lower(n.signature) LIKE ?1 ESCAPE '\\' OR lower(n.doc) LIKE ?1 ESCAPE '\\')
         LIMIT 5000`,
        like,
      ),
      ...j.all<Row>(
        `SELECT id AS path_id, rel AS name, 'file' AS kind, 1 AS start_line, NULL AS signature,
           NULL AS doc, rel, summary FROM paths
         WHERE state = 'indexed' AND (lower(rel) LIKE ?1 ESCAPE '\\' OR lower(summary) LIKE ?1 ESCAPE '\\')
         LIMIT 5000`,
        like,
      ),
    ];
    for (const row of rows) {
      const has = (v: string | null) => v !== null && v.toLowerCase().includes(word);
      const s = row.kind === "file"
        ? (has(row.rel) ? 1 : 0) + (has(row.summary) ? 1 : 0)
        : (has(row.name) ? 3 : 0) + (has(row.signature) ? 2 : 0) + (has(row.doc) ? 2 : 0);
      const f = byFile.get(row.path_id) ?? { score: 0, words: new Set<string>() };
      if (!f.words.has(word)) {
        f.words.add(word);
        f.score += s;
      }
      if (row.kind !== "file" && (!f.best || s > f.best.score)) f.best = { score: s, row };
      byFile.set(row.path_id, f);
    }
  }
  const ranked = [...byFile.entries()]
    .sort((a, b) => b[1].words.size - a[1].words.size || b[1].score - a[1].score || a[0] - b[0])
    .slice(0, limit);
  return ranked.map(([pathId, f], i) => {
    const p = j.get<{ path: string; summary: string | null; size: number; mtime_ms: number }>(
      "SELECT path, summary, size, mtime_ms FROM paths WHERE id = ?",
      pathId,
    )!;
    return {
      rank: i + 1,
      path: p.path,
      line: f.best?.row.start_line ?? 1,
      symbol: f.best?.row.name ?? null,
      kind: f.best?.row.kind ?? null,
      summary: f.best?.row.signature ?? p.summary,
      score: f.score,
      coverage: f.words.size / words.length,
      state: freshness(p.path, p.size, p.mtime_ms),
    };
  });
}

interface Row {
  path_id: number;
  name: string;
  kind: string;
  start_line: number | null;
  signature: string | null;
  doc: string | null;
  rel: string;
  summary: string | null;
}

function freshness(path: string, size: number, mtimeMs: number): SimpleHit["state"] {
  try {
    const st = Deno.statSync(path);
    return st.size === size && st.mtime?.getTime() === mtimeMs ? "fresh" : "changed";
  } catch {
    return "gone";
  }
}
