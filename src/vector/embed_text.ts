/**
 * What text a chunk is embedded from (pure). The budget decision lives here:
 * an encoder's cost grows with tokens, so every chunk is cut to a bounded
 * slice that carries most of its meaning.
 *
 * - a symbol: its qualified name, doc comment, then its first lines (the
 *   signature is among them; it is added only when it is not), up to
 *   {@link SYMBOL_CHARS};
 * - a file's own chunk: its path, summary line and first lines outside its
 *   top-level symbols (imports, top-level code), up to {@link FILE_CHARS};
 * - a markdown section: its heading path and text, up to {@link SECTION_CHARS};
 * - a note or memory: its title and text, up to {@link SECTION_CHARS}.
 *
 * The model's tokenizer truncates again (512 tokens by default); these
 * character bounds keep tokenizing cheap and the slices comparable.
 */

/** Characters of a symbol's text embedded. */
export const SYMBOL_CHARS = 1500;
/** Characters of a file's own chunk embedded. */
export const FILE_CHARS = 1000;
/** Characters of a markdown section, note or memory embedded. */
export const SECTION_CHARS = 2000;

/**
 * A chunk as the embedding pass reads it (chunks joined with nodes and paths).
 *
 * @internal
 */
export interface ChunkToEmbed {
  id: number;
  path_id: number | null;
  node_id: string | null;
  source: "code" | "docs" | "notes" | "memory";
  title: string;
  start_line: number | null;
  end_line: number | null;
  text_hash: string;
  /** Notes and memories: their text. */
  text: string | null;
  /** The node's kind ('file' for a file's own chunk), signature and doc comment, when it has a node. */
  kind: string | null;
  signature: string | null;
  doc: string | null;
  /** The owning path: absolute path, content hash, root-relative path, summary line. */
  path: string | null;
  hash: string | null;
  rel: string | null;
  summary: string | null;
}

/**
 * The text to embed for `c`; `lines` are its file's lines (from bytes
 * verified against the path's hash) for a path-owned chunk, else unused;
 * `skip` are the line ranges of a file's top-level symbols, left out of the
 * file's own chunk (they have chunks of their own).
 */
export function embedText(
  c: ChunkToEmbed,
  lines: readonly string[] = [],
  skip: readonly (readonly [number, number])[] = [],
): string {
  if (c.source === "notes" || c.source === "memory") {
    return cut(`${c.title}\n${c.text ?? ""}`, SECTION_CHARS);
  }
  const start = Math.max(1, c.start_line ?? 1);
  const end = Math.min(lines.length, c.end_line ?? lines.length);
  if (c.source === "docs") {
    return cut(`${c.title}\n${slice(lines, start, end, SECTION_CHARS)}`, SECTION_CHARS);
  }
  if (c.kind === "file" || c.kind === null) {
    const head = [c.rel ?? c.title, c.summary ?? ""].filter((s) => s !== "").join("\n");
    return cut(`${head}\n${slice(lines, start, end, FILE_CHARS, skip)}`, FILE_CHARS);
  }
  const body = slice(lines, start, end, SYMBOL_CHARS);
  const parts = [c.title];
  if (c.doc) parts.push(c.doc);
  if (c.signature && !body.includes(c.signature.trim())) parts.push(c.signature);
  parts.push(body);
  return cut(parts.join("\n"), SYMBOL_CHARS);
}

/**
 * Lines start..end (1-based, inclusive) outside the `skip` ranges, joined,
 * stopping once `max` characters are reached.
 */
function slice(
  lines: readonly string[],
  start: number,
  end: number,
  max: number,
  skip: readonly (readonly [number, number])[] = [],
): string {
  let out = "";
  for (let i = start; i <= end && out.length < max; i++) {
    const range = skip.find(([a, b]) => a <= i && i <= b);
    if (range) {
      i = range[1];
      continue;
    }
    out += lines[i - 1]! + "\n";
  }
  return out;
}

function cut(s: string, max: number): string {
  return (s.length > max ? s.slice(0, max) : s).trim();
}
