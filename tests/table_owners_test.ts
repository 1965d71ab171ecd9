/**
 * Every table of the journal has one owning folder of `src/`, which holds
 * the SQL that writes it; other folders read it only where {@link OWNERS}
 * says so, and the reconciler is the only caller of the store's functions
 * that write index rows. Read from the SQL text of every module of `src/`
 * (the string literals, comments left out), so a statement that writes a
 * table from the wrong folder, or reads it from a folder not listed, fails
 * here with the file that holds it. The same table is in
 * docs/architecture.md ("Table owners"), and this test keeps the two equal.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Journal } from "../src/store/mod.ts";
import { removeTree } from "./helpers.ts";

/** Who owns a table, who else may read it, and the writes outside its owner that must stay for now. */
export interface TableOwner {
  /** The folder of `src/` that holds the SQL writing it. */
  owner: string;
  /** The other folders that may read it with their own SQL, sorted. */
  readers: readonly string[];
  /**
   * Files outside the owner that also write it, each with why. Kept exact:
   * a file listed here that no longer writes the table fails the test.
   */
  alsoWrittenIn?: Readonly<Record<string, string>>;
}

/**
 * The files of the write path being optimised (issue 14: not edited while
 * that work is under way). Their SQL stays where it is for now.
 */
const WRITE_PATH = "part of the write path, left in place while it is being optimised";

/**
 * Who owns each table. Index rows (roots, paths and everything a path owns)
 * are the store's: its functions are the only SQL that writes them, and only
 * the reconciler calls those functions ({@link INDEX_WRITES}).
 */
export const OWNERS: Readonly<Record<string, TableOwner>> = {
  meta: {
    owner: "store",
    readers: [],
    alsoWrittenIn: {
      "src/reconcile/reconciler.ts":
        `the flag of a root's pending resolution goes with its last transaction; ${WRITE_PATH}`,
    },
  },
  roots: { owner: "store", readers: ["reconcile", "search", "team", "ui"] },
  paths: { owner: "store", readers: ["memory", "reconcile", "search", "team", "ui", "vector"] },
  nodes: { owner: "store", readers: ["memory", "reconcile", "search", "ui", "vector"] },
  edges: {
    owner: "store",
    readers: ["reconcile", "search", "team", "ui"],
    alsoWrittenIn: {
      "src/reconcile/resolve.ts": `resolution turns pending edges into edges; ${WRITE_PATH}`,
    },
  },
  pending_edges: {
    owner: "store",
    readers: ["reconcile", "search"],
    alsoWrittenIn: {
      "src/reconcile/resolve.ts": `resolution turns pending edges into edges; ${WRITE_PATH}`,
    },
  },
  queue: { owner: "store", readers: ["reconcile"] },
  chunks: { owner: "store", readers: ["search", "vector"] },
  chunks_fts: { owner: "store", readers: ["search"] },
  vocab_sets: { owner: "store", readers: ["reconcile"] },
  vocab_words: { owner: "store", readers: ["search"] },
  vocab_postings: { owner: "store", readers: ["search"] },
  vectors: {
    owner: "vector",
    readers: [],
    alsoWrittenIn: {
      "src/store/owned.ts":
        "a commit deletes its path's vectors with the rest of its rows, in one transaction (store cannot import vector)",
    },
  },
  vectors_gone: { owner: "vector", readers: [] },
  notes: { owner: "search", readers: [] },
  note_paths: { owner: "search", readers: [] },
  // Search reads a memory's scope and author: another author's private one is never an answer.
  memories: { owner: "memory", readers: ["search", "team", "ui"] },
  memory_anchors: { owner: "memory", readers: ["team", "ui"] },
  memory_shared: { owner: "memory", readers: ["team"] },
  personal_candidates: { owner: "memory", readers: [] },
  claims: { owner: "team", readers: [] },
  tasks: { owner: "team", readers: [] },
  task_events: { owner: "team", readers: [] },
  acks: { owner: "team", readers: [] },
};

/**
 * The store's functions that write index rows. Outside the store, only the
 * reconciler (`src/reconcile/`) may import them: it is the single writer.
 */
export const INDEX_WRITES: readonly string[] = [
  "clearIndex",
  "completeQueued",
  "deferQueued",
  "deleteRoot",
  "enqueuePaths",
  "flushVocab",
  "recordAudit",
  "replaceOwnedRows",
  "retractPath",
  "retractRootPaths",
  "touchPath",
  "upsertRoot",
];

/**
 * Files whose SQL is the journal's as a whole, not any table's: the
 * migrations (every table's DDL, and the rows a migration moves).
 */
const WHOLE_JOURNAL = new Set(["src/store/schema.ts"]);

const ROOT = new URL("..", import.meta.url).pathname;

/** The source modules of `src/`, tests and benchmarks left out, as repository paths. */
function sourceFiles(dir = "src"): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(join(ROOT, dir))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(e.name) && !/_(test|bench)\.tsx?$/.test(e.name)) out.push(path);
  }
  return out.sort();
}

/**
 * The string literals of a TypeScript source, in order: quoted strings and
 * the text of template literals (each `${…}` becomes `${}`, and the strings
 * inside it are literals of their own). Comments and regular expression
 * literals are skipped.
 */
export function stringLiterals(src: string): string[] {
  const out: string[] = [];
  let i = 0;
  // What a `/` after the previous token starts: a regular expression or a division.
  let regexAllowed = true;
  /** Scans code until an unmatched `}` (inside `${…}`) or the end. */
  const code = (inTemplate: boolean): void => {
    let depth = 0;
    while (i < src.length) {
      const c = src[i]!;
      if (c === "/" && src[i + 1] === "/") {
        while (i < src.length && src[i] !== "\n") i++;
      } else if (c === "/" && src[i + 1] === "*") {
        const end = src.indexOf("*/", i + 2);
        i = end < 0 ? src.length : end + 2;
      } else if (c === "'" || c === '"') {
        out.push(quoted(c));
        regexAllowed = false;
      } else if (c === "`") {
        template();
        regexAllowed = false;
      } else if (c === "/" && regexAllowed) {
        regex();
        regexAllowed = false;
      } else if (c === "{") {
        depth++;
        i++;
        regexAllowed = true;
      } else if (c === "}") {
        if (inTemplate && depth === 0) return;
        depth--;
        i++;
        regexAllowed = true;
      } else if (/\s/.test(c)) {
        i++;
      } else if (/[\w$]/.test(c)) {
        const start = i;
        while (i < src.length && /[\w$]/.test(src[i]!)) i++;
        // After a keyword such as `return`, a `/` starts a regular expression.
        regexAllowed = /^(return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/
          .test(src.slice(start, i));
      } else {
        i++;
        regexAllowed = !/[)\]]/.test(c);
      }
    }
  };
  const quoted = (q: string): string => {
    let s = "";
    i++;
    while (i < src.length && src[i] !== q && src[i] !== "\n") {
      if (src[i] === "\\") {
        s += src.slice(i, i + 2);
        i += 2;
      } else s += src[i++];
    }
    i++;
    return s;
  };
  const template = (): void => {
    let s = "";
    i++;
    while (i < src.length && src[i] !== "`") {
      if (src[i] === "\\") {
        s += src.slice(i, i + 2);
        i += 2;
      } else if (src[i] === "$" && src[i + 1] === "{") {
        i += 2;
        s += "${}";
        regexAllowed = true;
        code(true);
        i++;
      } else s += src[i++];
    }
    i++;
    out.push(s);
  };
  const regex = (): void => {
    i++;
    let inClass = false;
    while (i < src.length && src[i] !== "\n") {
      const c = src[i]!;
      if (c === "\\") i += 2;
      else {
        i++;
        if (c === "[") inClass = true;
        else if (c === "]") inClass = false;
        else if (c === "/" && !inClass) break;
      }
    }
    while (i < src.length && /[a-z]/.test(src[i]!)) i++;
  };
  code(false);
  return out;
}

/** A table a statement names, and whether it writes or reads it. */
export interface TableUse {
  table: string;
  write: boolean;
}

const WRITE =
  /\b(?:INSERT(?:\s+OR\s+[A-Z]+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+[A-Z]+)?|DELETE\s+FROM)\s+("?)(\$\{\}|\w+)\1/g;
const READ = /\b(?:FROM|JOIN)\s+("?)(\$\{\}|\w+)\1/g;

/**
 * The tables one SQL text writes and reads (`${}` for a table named at run
 * time). Keywords are matched in upper case, as this codebase writes SQL;
 * a name that is not a table (a CTE, json_each) is the caller's to drop.
 */
export function tableUses(sql: string): TableUse[] {
  const uses: TableUse[] = [];
  const rest = sql.replace(WRITE, (_m, _q, table: string) => {
    uses.push({ table, write: true });
    return " ";
  });
  for (const m of rest.matchAll(READ)) uses.push({ table: m[2]!, write: false });
  return uses;
}

/** Every use of a journal table in `src/`, by file. */
function uses(tables: ReadonlySet<string>): { file: string; folder: string; use: TableUse }[] {
  const out: { file: string; folder: string; use: TableUse }[] = [];
  for (const file of sourceFiles()) {
    if (WHOLE_JOURNAL.has(file)) continue;
    const folder = file.split("/")[1]!;
    for (const literal of stringLiterals(Deno.readTextFileSync(join(ROOT, file)))) {
      for (const use of tableUses(literal)) {
        if (use.table === "${}" || tables.has(use.table)) out.push({ file, folder, use });
      }
    }
  }
  return out;
}

/** The journal's tables, read from a fresh journal (FTS5's shadow tables left out). */
function journalTables(): string[] {
  const dir = Deno.makeTempDirSync();
  const j = Journal.open(join(dir, "journal.db"));
  try {
    return j.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    ).map((r) => r.name).filter((name) => !/^chunks_fts_/.test(name));
  } finally {
    j.close();
    removeTree(dir);
  }
}

Deno.test("every table of the journal has an owner, and only tables of the journal have one", () => {
  assert.deepEqual(Object.keys(OWNERS).sort(), journalTables());
});

Deno.test("only a table's owner writes it, and only the folders it lists read it", () => {
  const all = uses(new Set(Object.keys(OWNERS)));
  // The scan found SQL: the store writes paths, search reads chunks.
  assert.ok(all.some((u) => u.folder === "store" && u.use.table === "paths" && u.use.write));
  assert.ok(all.some((u) => u.folder === "search" && u.use.table === "chunks" && !u.use.write));
  const wrong = new Set<string>();
  for (const { file, folder, use } of all) {
    if (use.table === "${}") {
      // Salvage copies every memory table by name, the vocabulary check compares its own tables.
      if (folder !== "store") wrong.add(`${file} names a table at run time, which only store may`);
      continue;
    }
    const o = OWNERS[use.table]!;
    if (folder === o.owner) continue;
    if (use.write) {
      if (o.alsoWrittenIn?.[file] === undefined) {
        wrong.add(`${file} writes ${use.table}, which ${o.owner} owns`);
      }
    } else if (!o.readers.includes(folder) && o.alsoWrittenIn?.[file] === undefined) {
      wrong.add(`${file} reads ${use.table}, which only ${[o.owner, ...o.readers].join(", ")} may`);
    }
  }
  assert.deepEqual([...wrong].sort(), []);
});

Deno.test("the table of owners is exact: each listed reader reads, each listed exception writes", () => {
  const all = uses(new Set(Object.keys(OWNERS)));
  const stale: string[] = [];
  for (const [table, o] of Object.entries(OWNERS)) {
    for (const folder of o.readers) {
      if (!all.some((u) => u.use.table === table && !u.use.write && u.folder === folder)) {
        stale.push(`${folder} is listed as a reader of ${table} but reads it nowhere`);
      }
    }
    for (const file of Object.keys(o.alsoWrittenIn ?? {})) {
      if (!all.some((u) => u.use.table === table && u.use.write && u.file === file)) {
        stale.push(`${file} is listed as writing ${table} but no longer does`);
      }
    }
    assert.deepEqual([...o.readers], [...o.readers].sort(), `${table}'s readers, sorted`);
  }
  assert.deepEqual(stale, []);
});

Deno.test("outside the store, only the reconciler calls the store's functions that write index rows", () => {
  const wrong: string[] = [];
  for (const file of sourceFiles()) {
    const folder = file.split("/")[1]!;
    if (folder === "store" || folder === "reconcile") continue;
    const src = Deno.readTextFileSync(join(ROOT, file));
    for (const m of src.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
      if (!/\/store\//.test(m[2]!)) continue;
      for (const name of m[1]!.split(",").map((n) => n.trim().replace(/^type\s+/, ""))) {
        if (INDEX_WRITES.includes(name.split(/\s+as\s+/)[0]!)) {
          wrong.push(`${file} imports ${name}`);
        }
      }
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("docs/architecture.md lists the same owners and readers as OWNERS", () => {
  const doc = Deno.readTextFileSync(join(ROOT, "docs/architecture.md"));
  const section = doc.split(/^## /m).find((s) => s.startsWith("Table owners"));
  assert.ok(section, 'docs/architecture.md has a "## Table owners" section');
  const rows = new Map<string, { owner: string; readers: string[] }>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    if (cells.length < 3 || !cells[0]!.startsWith("`")) continue;
    const names = (cell: string) => [...cell.matchAll(/`([\w]+)`/g)].map((m) => m[1]!);
    for (const table of names(cells[0]!)) {
      rows.set(table, { owner: names(cells[1]!)[0] ?? "", readers: names(cells[2]!).sort() });
    }
  }
  const want = new Map(
    Object.entries(OWNERS).map(([t, o]) => [t, { owner: o.owner, readers: [...o.readers] }]),
  );
  assert.deepEqual(Object.fromEntries(rows), Object.fromEntries(want));
});

Deno.test("stringLiterals() finds SQL in quoted and template strings, never in comments or regexes", () => {
  const src = [
    "// DELETE FROM nodes",
    "/* INSERT INTO paths */",
    'const a = "SELECT id FROM paths";',
    "const r = /'/g; const b = 'UPDATE roots SET depth = ?';",
    'const c = `DELETE FROM ${table} WHERE x IN (${ids.map(() => "?").join(",")})`;',
    "const d = x / 2; const e = `JOIN nodes n`;",
  ].join("\n");
  assert.deepEqual(stringLiterals(src), [
    "SELECT id FROM paths",
    "UPDATE roots SET depth = ?",
    "?",
    ",",
    "DELETE FROM ${} WHERE x IN (${})",
    "JOIN nodes n",
  ]);
  assert.deepEqual(tableUses("INSERT OR REPLACE INTO meta SELECT * FROM roots r JOIN paths p"), [
    { table: "meta", write: true },
    { table: "roots", write: false },
    { table: "paths", write: false },
  ]);
  assert.deepEqual(tableUses('DELETE FROM "${}" WHERE 1'), [{ table: "${}", write: true }]);
});
