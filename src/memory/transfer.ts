/**
 * Moving memory between journals as JSON Lines, losslessly: every column of
 * every memory and anchor. Export is deterministic (same journal, same
 * bytes), so export → import into an empty journal → export is identical.
 */
import { basename, join, relative } from "node:path";
import { type Journal, listRoots, rootFor } from "../store/mod.ts";
import {
  ANCHOR_COLUMNS,
  anchorsOf,
  getMemoryRow,
  insertAnchors,
  insertMemory,
  MEMORY_COLUMNS,
  replaceAnchors,
  replaceMemory,
} from "./records.ts";
import { reanchorMemories } from "./reanchor.ts";
import { syncSearch } from "./searchable.ts";
import {
  type AnchorRow,
  KINDS,
  type Memory,
  MemoryInputError,
  type MemoryRow,
  SCOPES,
} from "./types.ts";

/** The first line of an export. */
export const EXPORT_HEADER = { type: "heimdall-memory", version: 1 } as const;

/**
 * The journal's memories as JSON Lines: a header line, then one line per
 * memory (its columns in table order, then `anchors`), oldest first.
 * Streams; holds one memory at a time.
 */
export function* exportMemories(j: Journal): Generator<string> {
  yield JSON.stringify(EXPORT_HEADER);
  const ids = j.all<{ id: string }>("SELECT id FROM memories ORDER BY recorded_at, id");
  for (const { id } of ids) {
    const row = getMemoryRow(j, id)!;
    const out: Record<string, unknown> = {};
    for (const c of MEMORY_COLUMNS) out[c] = row[c];
    out.anchors = anchorsOf(j, id).map((a) => {
      const o: Record<string, unknown> = {};
      for (const c of ANCHOR_COLUMNS) o[c] = a[c];
      return o;
    });
    yield JSON.stringify(out);
  }
}

/** What {@link importMemories} did. */
export interface ImportReport {
  /** New ids. */
  added: number;
  /** Ids already here whose imported copy was newer (`updated_at`), replaced. */
  updated: number;
  /** Ids already here, identical. */
  unchanged: number;
  /** Ids already here whose local copy is as new or newer, kept. */
  kept: number;
  /** Anchors moved onto a root of this machine with the same folder name. */
  rebased: number;
}

type Field = "string" | "number" | "string?" | "number?";

const MEMORY_FIELDS: Record<keyof MemoryRow, Field> = {
  id: "string",
  kind: "string",
  text: "string",
  author: "string",
  scope: "string",
  valid_from: "number",
  valid_to: "number?",
  recorded_at: "number",
  superseded_at: "number?",
  superseded_by: "string?",
  forgotten_at: "number?",
  forgotten_by: "string?",
  task_id: "string?",
  outcome: "string?",
  status: "string?",
  count: "number",
  last_seen_at: "number",
  tests: "string",
  fix: "string?",
  resolved_by: "string?",
  resolved_at: "number?",
  updated_at: "number",
};

const ANCHOR_FIELDS: Record<keyof AnchorRow, Field> = {
  ord: "number",
  target: "string",
  original: "string",
  path: "string",
  root: "string?",
  symbol: "string?",
  symbol_kind: "string?",
  name: "string",
  node_id: "string?",
  struct_hash: "string?",
  shape: "string?",
  start_line: "number?",
  end_line: "number?",
  state: "string",
  moved_from: "string?",
  state_at: "number",
  checked: "string?",
};

function checkFields(
  value: Record<string, unknown>,
  fields: Record<string, Field>,
  where: string,
): void {
  for (const [name, type] of Object.entries(fields)) {
    const v = value[name];
    const optional = type.endsWith("?");
    if ((v === null || v === undefined) && optional) continue;
    const base = type.replace("?", "");
    if (typeof v !== base || (base === "number" && !Number.isFinite(v))) {
      throw new MemoryInputError(
        `${where}: field "${name}" is ${JSON.stringify(v)}, expected a ${base}${
          optional ? " or null" : ""
        }; was the file written by \`heimdall export\`?`,
      );
    }
  }
}

/** Parses and checks one memory line (pure); `where` names the file and line in errors. */
export function parseMemoryLine(line: string, where: string): Memory {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    throw new MemoryInputError(`${where}: not JSON (${(e as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MemoryInputError(`${where}: expected one memory object per line`);
  }
  const v = value as Record<string, unknown>;
  checkFields(v, MEMORY_FIELDS, where);
  if (!(KINDS as readonly string[]).includes(v.kind as string)) {
    throw new MemoryInputError(`${where}: unknown kind "${v.kind}"`);
  }
  if (!(SCOPES as readonly string[]).includes(v.scope as string)) {
    throw new MemoryInputError(`${where}: unknown scope "${v.scope}"`);
  }
  if (!Array.isArray(v.anchors)) throw new MemoryInputError(`${where}: "anchors" is not a list`);
  const anchors: AnchorRow[] = v.anchors.map((a: unknown, i: number) => {
    if (typeof a !== "object" || a === null) {
      throw new MemoryInputError(`${where}: anchor ${i} is not an object`);
    }
    checkFields(a as Record<string, unknown>, ANCHOR_FIELDS, `${where}, anchor ${i}`);
    return pick(a as Record<string, unknown>, ANCHOR_COLUMNS) as unknown as AnchorRow;
  });
  return { ...(pick(v, MEMORY_COLUMNS) as unknown as MemoryRow), anchors };
}

function pick(v: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = v[k] ?? null;
  return out;
}

/**
 * Reads an export (all of `text`) into the journal in one transaction: new
 * ids are added; an id already here is replaced only when the imported copy
 * is newer (`updated_at`), else kept. An anchor whose path lies under no root
 * here, but whose old root has the same folder name as a root here, is moved
 * onto that root (same relative path), then anchors are re-checked against
 * the index here. Throws {@link MemoryInputError} naming
 * the line for a file that is not an export; nothing is written then.
 */
export function importMemories(j: Journal, text: string, file = "input"): ImportReport {
  const lines = text.split("\n");
  const memories: Memory[] = [];
  let header = false;
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `${file}:${i + 1}`;
    if (!header) {
      let h: unknown;
      try {
        h = JSON.parse(line);
      } catch {
        h = undefined;
      }
      const hv = h as { type?: unknown; version?: unknown } | undefined;
      if (hv?.type !== EXPORT_HEADER.type) {
        throw new MemoryInputError(
          `${where}: not a Heimdall memory export (the first line must be ${
            JSON.stringify(EXPORT_HEADER)
          }); write one with \`heimdall export\``,
        );
      }
      if (hv.version !== EXPORT_HEADER.version) {
        throw new MemoryInputError(
          `${where}: export format version ${hv.version}, this build reads ${EXPORT_HEADER.version}; upgrade heimdall`,
        );
      }
      header = true;
      return;
    }
    memories.push(parseMemoryLine(line, where));
  });
  if (!header) throw new MemoryInputError(`${file}: empty; write one with \`heimdall export\``);
  const roots = listRoots(j);
  const report: ImportReport = { added: 0, updated: 0, unchanged: 0, kept: 0, rebased: 0 };
  j.tx(() => {
    const touched: string[] = [];
    for (const m of memories) {
      const { anchors, ...row } = m;
      const rebased = anchors.map((a) => rebase(a, roots));
      report.rebased += rebased.filter((a, i) => a !== anchors[i]).length;
      const local = getMemoryRow(j, row.id);
      if (!local) {
        insertMemory(j, row);
        insertAnchors(j, row.id, rebased);
        report.added++;
        touched.push(row.id);
      } else if (sameMemory({ ...local, anchors: anchorsOf(j, row.id) }, m)) {
        report.unchanged++;
      } else if (row.updated_at > local.updated_at) {
        replaceMemory(j, row);
        replaceAnchors(j, row.id, rebased);
        report.updated++;
        touched.push(row.id);
      } else {
        report.kept++;
      }
    }
    syncSearch(j, touched);
  });
  // Rebased anchors find their nodes here; others wait until their code is indexed.
  reanchorMemories(j);
  return report;
}

function sameMemory(a: Memory, b: Memory): boolean {
  const line = (m: Memory) =>
    JSON.stringify([
      MEMORY_COLUMNS.map((c) => m[c]),
      m.anchors.map((x) => ANCHOR_COLUMNS.map((c) => x[c])),
    ]);
  return line(a) === line(b);
}

function rebase(a: AnchorRow, roots: readonly { path: string }[]): AnchorRow {
  if (a.root === null || rootFor(roots, a.path)) return a;
  const here = roots.filter((r) => basename(r.path) === basename(a.root!));
  if (here.length !== 1) return a;
  const rel = relative(a.root, a.path);
  if (rel.startsWith("..")) return a;
  const root = here[0]!.path;
  return { ...a, root, path: rel === "" ? root : join(root, rel), node_id: null };
}
