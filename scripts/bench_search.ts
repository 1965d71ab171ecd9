/**
 * Search benchmark: latency with verdicts against the ripgrep way an agent
 * searches, and retrieval quality against plain FTS5 BM25 over whole files,
 * all measured in one run on the same corpus.
 *
 *     deno run -A scripts/bench_search.ts [--corpus /tmp/heimdall-corpus] [--work DIR]
 *        [--queries 300] [--rg-queries 40] [--tune] [--reindex] [--json]
 *
 * 1. The corpus of `scripts/bench_corpus.ts` (28,903 files of real code in
 *    13 languages) is copied (hard links) to `--work`/tree.
 * 2. Queries come from doc comments: for `--queries` files, sampled evenly
 *    over the languages with a fixed seed, one documented function's doc
 *    comment gives the query (its first sentence, at most 14 words) and is
 *    removed from the copy (the file is rewritten, its line numbers kept),
 *    so the answer cannot be found by the comment's own words. A query is
 *    answered when the file it came from (or a file defining the same name
 *    with the same doc comment: a vendored copy) is among the first 10
 *    results. Even-numbered queries are the tuning half, odd ones the test
 *    half; every figure is printed for both.
 * 3. The copy is indexed with `heimdall index` (cached in `--work` until the
 *    corpus, the queries or the indexing code change; `--reindex` forces).
 * 4. Quality: Recall@10 and MRR@10 of Heimdall's ranking (lexical alone,
 *    lexical + graph) next to plain FTS5 BM25 over whole files (porter
 *    tokenizer, the same query words OR-ed) and ripgrep's ranking.
 * 5. Latency: `search()` in-process with verdicts (stat of every hit, hash
 *    of the first three, each hit's own text read back) per query, p50/p95,
 *    against `rg -l -i -F` once per content word (files ranked by words
 *    hit) for the first `--rg-queries` queries.
 * 6. `--tune`: coordinate ascent of the BM25 field weights, the graph leg's
 *    weight and the fold share on the tuning half (MRR@10 + Recall@10),
 *    scored on the test half; prints the tuned values.
 */
import { DatabaseSync } from "node:sqlite";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createExtractor, type SymbolDef } from "../src/extract/mod.ts";
import {
  DEFAULT_TUNING,
  parseQuery,
  rank,
  search,
  setSemanticLeg,
  type Tuning,
} from "../src/search/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { MIGRATIONS } from "../src/store/schema.ts";
import { corpusKey, langOf, listTree, loadOrBuildCorpus } from "./bench_corpus.ts";
import {
  type Cleanup,
  fmtMiB,
  fmtMs,
  fmtRatio,
  percentile,
  renderTable,
  runBenchMain,
  seededRandom,
  timeCommand,
  UsageError,
  wholeNumber,
} from "./bench_util.ts";

const USAGE =
  "usage: deno run -A scripts/bench_search.ts [--corpus DIR] [--work DIR] [--queries N] [--rg-queries N] [--tune] [--reindex] [--json]";
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const DENO = Deno.execPath();
const SEED = 20260104;
/** Files that decide what the index holds for search: a change re-indexes. */
const INDEX_SOURCES = [
  "../src/search/chunk_rows.ts",
  "../src/search/words.ts",
  "../src/store/owned.ts",
];

interface Options {
  corpus: string;
  work: string;
  queries: number;
  rgQueries: number;
  tune: boolean;
  reindex: boolean;
  json: boolean;
}

function parseOptions(args: string[]): Options {
  let v;
  try {
    v = parseArgs({
      args,
      options: {
        corpus: { type: "string", default: "/tmp/heimdall-corpus" },
        work: { type: "string", default: "/tmp/heimdall-search-bench" },
        queries: { type: "string", default: "300" },
        "rg-queries": { type: "string", default: "40" },
        tune: { type: "boolean", default: false },
        reindex: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }).values;
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n${USAGE}`);
  }
  if (v.help) throw new UsageError(USAGE);
  return {
    corpus: v.corpus,
    work: v.work,
    queries: wholeNumber("queries", v.queries, 20),
    rgQueries: wholeNumber("rg-queries", v["rg-queries"], 0),
    tune: v.tune,
    reindex: v.reindex,
    json: v.json,
  };
}

const log = (m: string) => console.error(`[bench_search] ${m}`);

// ─── Queries from doc comments ──────────────────────────────────────────────

/** One benchmark query and the file it came from. */
interface Case {
  query: string;
  /** Root-relative path of the file whose doc comment gave the query. */
  target: string;
  /** sha1 of that file with the comment removed: a copy whose file differs is rebuilt. */
  strippedHash: string;
  name: string;
  /** The doc comment as extracted (to find vendored copies of the same function). */
  doc: string;
  language: string;
  split: "tune" | "test";
}

const DOC_KINDS = new Set(["function", "method"]);

/** The query a doc comment gives: its first sentence, cleaned, at most 14 words; undefined when too thin. */
export function docQuery(doc: string): string | undefined {
  const para = doc.split(/\n\s*\n/)[0]!
    .split("\n")
    .filter((l) => !/^\s*(@|:param|:return|Args:|Returns:|Parameters)/.test(l))
    .join(" ")
    .replace(/\{@\w+\s+([^}]+)\}/g, "$1")
    .replace(/<[^>]+>/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/[`*_#]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (/copyright|licen[cs]e|generated|deprecated|todo|fixme/i.test(para)) return undefined;
  const sentences = para.split(/(?<=[.!?])\s+/);
  let q = sentences[0] ?? "";
  if (parseQuery(q).words.length < 4 && sentences[1]) q += " " + sentences[1];
  const words = q.split(" ").slice(0, 14).join(" ").replace(/[.:;,]+$/, "");
  return parseQuery(words).words.length >= 4 ? words : undefined;
}

const HASH_COMMENT = new Set(["python", "ruby", "bash", "php"]);

/**
 * The file's text with a symbol's doc comment blanked (lines kept, so line
 * numbers hold): the comment lines above it, or a Python docstring replaced
 * by `pass`. Undefined when no comment was found where expected.
 */
export function stripDoc(text: string, sym: SymbolDef, language: string): string | undefined {
  const lines = text.split("\n");
  if (language === "python") {
    for (let i = sym.startLine; i < Math.min(sym.endLine, lines.length); i++) {
      const t = lines[i]!.trim();
      const m = /^[rRuUbB]{0,2}("""|''')/.exec(t);
      if (!m) {
        if (t === "" || t.startsWith("#")) continue;
        return undefined;
      }
      const q = m[1]!;
      let end = i;
      if (t.indexOf(q, m[0].length) < 0) {
        end = lines.findIndex((l, k) => k > i && l.includes(q));
        if (end < 0) return undefined;
      }
      const indent = /^\s*/.exec(lines[i]!)![0];
      lines[i] = `${indent}pass`;
      for (let k = i + 1; k <= end; k++) lines[k] = "";
      return lines.join("\n");
    }
    return undefined;
  }
  let i = sym.startLine - 2;
  let found = false;
  while (i >= 0) {
    const t = lines[i]!.trim();
    if (t === "") break;
    if (t.endsWith("*/") && !t.startsWith("/*") && !t.startsWith("*")) {
      // The end of a block comment whose lines have no leading `*`.
      let k = i;
      while (k >= 0 && !lines[k]!.includes("/*")) k--;
      if (k < 0) break;
      for (let x = k; x <= i; x++) lines[x] = "";
      found = true;
      i = k - 1;
      continue;
    }
    const comment = t.startsWith("//") || t.startsWith("/*") || t.startsWith("*") ||
      (HASH_COMMENT.has(language) && t.startsWith("#") && !t.startsWith("#!") &&
        !t.startsWith("#["));
    if (!comment) break;
    lines[i] = "";
    found = true;
    i--;
  }
  return found ? lines.join("\n") : undefined;
}

export async function buildCases(
  tree: string,
  files: readonly string[],
  n: number,
): Promise<{ cases: Case[]; edits: Map<string, string> }> {
  const extractor = createExtractor();
  const rnd = seededRandom(SEED);
  const byLang = new Map<string, string[]>();
  for (const f of files) {
    const lang = langOf(f);
    if (lang === undefined) continue;
    const list = byLang.get(lang) ?? [];
    list.push(f);
    byLang.set(lang, list);
  }
  for (const list of byLang.values()) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
  }
  const langs = [...byLang.keys()].sort();
  const cursor = new Map(langs.map((l) => [l, 0]));
  const cases: Case[] = [];
  const edits = new Map<string, string>();
  const seenQueries = new Set<string>();
  let tried = 0;
  while (cases.length < n) {
    let progressed = false;
    for (const lang of langs) {
      if (cases.length >= n) break;
      const list = byLang.get(lang)!;
      let at = cursor.get(lang)!;
      // At most 40 files per language per round: a language without docs does not stall the rest.
      for (let k = 0; k < 40 && at < list.length; k++) {
        const rel = list[at++]!;
        tried++;
        const c = await caseFor(tree, rel, lang, extractor, seenQueries);
        if (!c) continue;
        edits.set(rel, c.stripped);
        cases.push({ ...c.case, split: cases.length % 2 === 0 ? "tune" : "test" });
        progressed = true;
        break;
      }
      cursor.set(lang, at);
    }
    if (!progressed) break;
  }
  log(`${cases.length} queries from ${tried} files`);
  return { cases, edits };
}

async function caseFor(
  tree: string,
  rel: string,
  language: string,
  extractor: ReturnType<typeof createExtractor>,
  seen: Set<string>,
): Promise<{ case: Omit<Case, "split">; stripped: string } | undefined> {
  let text: string;
  try {
    text = Deno.readTextFileSync(join(tree, rel));
  } catch {
    return undefined;
  }
  if (text.length > 400_000) return undefined;
  const x = await extractor.extract({ path: join(tree, rel), language, text, depth: 3 });
  for (const sym of x.symbols) {
    if (!DOC_KINDS.has(sym.kind) || !sym.doc || sym.name.length < 3) continue;
    const query = docQuery(sym.doc);
    if (query === undefined || seen.has(query.toLowerCase())) continue;
    const stripped = stripDoc(text, sym, language);
    if (stripped === undefined) continue;
    const again = await extractor.extract({
      path: join(tree, rel),
      language,
      text: stripped,
      depth: 3,
    });
    const same = again.symbols.find((s) => s.qualname === sym.qualname && s.kind === sym.kind);
    if (!same || same.doc) continue;
    seen.add(query.toLowerCase());
    return {
      case: {
        query,
        target: rel,
        strippedHash: createHash("sha1").update(stripped).digest("hex"),
        name: sym.name,
        doc: sym.doc,
        language,
      },
      stripped,
    };
  }
  return undefined;
}

// ─── The indexed copy ───────────────────────────────────────────────────────

/** A key over the code that decides the search rows (and the migration that creates their tables). */
function indexSourcesKey(): string {
  const h = createHash("sha1");
  for (const rel of INDEX_SOURCES) h.update(Deno.readTextFileSync(new URL(rel, import.meta.url)));
  h.update(MIGRATIONS.find((m) => m.includes("CREATE TABLE chunks")) ?? "");
  return h.digest("hex").slice(0, 16);
}

async function prepareCopy(
  corpusTree: string,
  copy: string,
  edits: Map<string, string>,
): Promise<void> {
  try {
    Deno.removeSync(copy, { recursive: true });
  } catch { /* absent */ }
  const r = await timeCommand("cp", ["-al", corpusTree, copy]);
  if (r.code !== 0) throw new Error(`cp -al "${corpusTree}" "${copy}" failed: ${r.stderr}`);
  for (const [rel, text] of edits) {
    const file = join(copy, rel);
    Deno.removeSync(file); // a hard link: never write through to the corpus
    Deno.writeTextFileSync(file, text);
  }
}

// ─── Baselines ──────────────────────────────────────────────────────────────

/** Plain FTS5 BM25 over whole files: one row per file, its raw text, the porter tokenizer. */
function buildWholeFileIndex(dbFile: string, copy: string, files: readonly string[]): void {
  try {
    Deno.removeSync(dbFile);
  } catch { /* absent */ }
  const db = new DatabaseSync(dbFile);
  db.exec(
    "CREATE VIRTUAL TABLE files USING fts5(path UNINDEXED, body, tokenize = 'porter unicode61')",
  );
  const ins = db.prepare("INSERT INTO files (path, body) VALUES (?, ?)");
  const dec = new TextDecoder("utf-8", { fatal: true });
  db.exec("BEGIN");
  for (const rel of files) {
    let text: string;
    try {
      text = dec.decode(Deno.readFileSync(join(copy, rel)));
    } catch {
      continue;
    }
    ins.run(rel, text);
  }
  db.exec("COMMIT");
  db.close();
}

function wholeFileRanking(db: DatabaseSync, query: string): string[] {
  const words = parseQuery(query).words;
  if (words.length === 0) return [];
  const expr = words.map((w) => `"${w}"`).join(" OR ");
  return (db.prepare("SELECT path FROM files WHERE files MATCH ? ORDER BY bm25(files) LIMIT 10")
    .all(expr) as { path: string }[]).map((r) => r.path);
}

/** The ripgrep way: `rg -l -i -F WORD` once per content word; files ranked by words hit. */
async function rgRanking(copy: string, query: string): Promise<{ ms: number; files: string[] }> {
  const hits = new Map<string, number>();
  let ms = 0;
  for (const w of parseQuery(query).words) {
    const r = await timeCommand("rg", ["-l", "-i", "-F", "--no-messages", "--", w, "."], {
      cwd: copy,
    });
    ms += r.ms;
    for (const line of r.stdout.split("\n")) {
      if (line === "") continue;
      const rel = line.replace(/^\.\//, "");
      hits.set(rel, (hits.get(rel) ?? 0) + 1);
    }
  }
  const files = [...hits.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 10)
    .map(([f]) => f);
  return { ms, files };
}

// ─── Scoring ────────────────────────────────────────────────────────────────

interface Quality {
  recall10: number;
  mrr10: number;
  n: number;
}

function score(
  rankings: readonly (readonly string[])[],
  relevant: readonly Set<string>[],
): Quality {
  let found = 0;
  let rr = 0;
  rankings.forEach((r, i) => {
    const k = r.slice(0, 10).findIndex((f) => relevant[i]!.has(f));
    if (k >= 0) {
      found++;
      rr += 1 / (k + 1);
    }
  });
  const n = rankings.length;
  return { recall10: n ? found / n : NaN, mrr10: n ? rr / n : NaN, n };
}

/**
 * Heimdall's first 10 files for a query: the whole `search()` (disk rerank
 * and verdicts included), or with `journalOnly` the ranking before the disk.
 */
async function heimdallRanking(
  j: Journal,
  query: string,
  tuning: Tuning,
  rootPrefix: string,
  journalOnly = false,
): Promise<string[]> {
  if (!journalOnly) {
    const r = await search(j, { query, limit: 10, semantic: null }, tuning);
    return r.hits.flatMap((h) => (h.path === null ? [] : [h.path.slice(rootPrefix.length)]));
  }
  const r = await rank(j, { query, semantic: null }, tuning);
  const out: string[] = [];
  for (const c of r.candidates) {
    if (c.best.path === null) continue;
    out.push(c.best.path.slice(rootPrefix.length));
    if (out.length >= 10) break;
  }
  return out;
}

// ─── Tuning ─────────────────────────────────────────────────────────────────

type Knob = {
  name: string;
  get(t: Tuning): number;
  set(t: Tuning, v: number): Tuning;
  values: number[];
};

const WEIGHT_VALUES = [0, 0.5, 1, 2, 4, 8, 16];
const KNOBS: Knob[] = [
  ...(["name", "qual", "sig", "doc", "body", "path"] as const).map((f): Knob => ({
    name: `bm25.${f}`,
    get: (t) => t.weights[f],
    set: (t, v) => ({ ...t, weights: { ...t.weights, [f]: v } }),
    values: WEIGHT_VALUES,
  })),
  {
    name: "graph weight",
    get: (t) => t.legWeights.graph,
    set: (t, v) => ({ ...t, legWeights: { ...t.legWeights, graph: v } }),
    values: [0, 0.1, 0.25, 0.5, 1],
  },
  {
    name: "fold share",
    get: (t) => t.foldShare,
    set: (t, v) => ({ ...t, foldShare: v }),
    values: [0, 0.05, 0.1, 0.2, 0.4],
  },
  {
    name: "rerank weight",
    get: (t) => t.rerankWeight,
    set: (t, v) => ({ ...t, rerankWeight: v }),
    values: [0, 0.5, 1, 2, 4, 8],
  },
];

async function tune(
  evaluate: (t: Tuning, split: "tune" | "test") => Promise<Quality>,
): Promise<{ tuning: Tuning; steps: string[] }> {
  let best = DEFAULT_TUNING;
  const objective = (q: Quality) => q.mrr10 + q.recall10;
  let bestScore = objective(await evaluate(best, "tune"));
  const steps: string[] = [];
  for (let round = 0; round < 3; round++) {
    let moved = false;
    for (const knob of KNOBS) {
      for (const v of knob.values) {
        if (v === knob.get(best)) continue;
        const cand = knob.set(best, v);
        const s = objective(await evaluate(cand, "tune"));
        if (s > bestScore + 1e-9) {
          steps.push(
            `round ${round + 1}: ${knob.name} ${knob.get(best)} → ${v} (${bestScore.toFixed(4)} → ${
              s.toFixed(4)
            })`,
          );
          log(steps.at(-1)!);
          best = cand;
          bestScore = s;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return { tuning: best, steps };
}

// ─── Run ────────────────────────────────────────────────────────────────────

interface Result {
  corpus: { files: number; symbols: number; chunks: number; queries: number; tree: string };
  index: { ms: number | null; cached: boolean };
  journal: {
    bytes: number;
    searchBytes: number;
    ftsBytes: number;
    bytesPer1000SymbolsBefore: number;
    bytesPer1000SymbolsAfter: number;
  };
  quality: Record<string, Record<"tune" | "test", Quality>>;
  rgSubset: Record<string, Quality>;
  latency: {
    searchP50: number;
    searchP95: number;
    searchMax: number;
    rankP50: number;
    verdicts: Record<string, number>;
    rgP50: number;
    rgP95: number;
    rgQueries: number;
    cliWallP50: number;
  };
  coverage: { targetHits: number[]; otherHits: number[]; threshold: number; table: string[][] };
  tuning?: { steps: string[]; tuned: Tuning };
}

async function runBench(opts: Options, _cleanup: Cleanup): Promise<Result> {
  setSemanticLeg(undefined);
  const manifest = await loadOrBuildCorpus({ dir: opts.corpus, rebuild: false, log });
  Deno.mkdirSync(opts.work, { recursive: true });
  const copy = join(opts.work, "tree");
  const home = join(opts.work, "home");
  const stampFile = join(opts.work, "stamp.json");
  const casesFile = join(opts.work, "cases.json");
  const files = listTree(manifest.tree);
  const ckey = await corpusKey();
  const casesKey = `${ckey}:${opts.queries}:${SEED}:cases-v1`;
  let stamp: { cases?: string; index?: string } = {};
  try {
    stamp = JSON.parse(Deno.readTextFileSync(stampFile));
  } catch { /* first run */ }

  let cases: Case[];
  let reused: Case[] | undefined;
  if (!opts.reindex && stamp.cases === casesKey && existsSync(casesFile)) {
    reused = JSON.parse(Deno.readTextFileSync(casesFile)) as Case[];
    // The copy is trusted only when every stripped file is there as written.
    if (!reused.every((c) => fileHash(join(copy, c.target)) === c.strippedHash)) reused = undefined;
  }
  if (reused) {
    cases = reused;
    log(`reusing ${cases.length} queries and the copy at ${copy}`);
  } else {
    log(`choosing ${opts.queries} queries from doc comments`);
    const built = await buildCases(manifest.tree, files, opts.queries);
    cases = built.cases;
    log(
      `copying the corpus to ${copy} (hard links) and removing the ${built.edits.size} doc comments`,
    );
    await prepareCopy(manifest.tree, copy, built.edits);
    Deno.writeTextFileSync(casesFile, JSON.stringify(cases, null, 1));
    stamp = { cases: casesKey };
    Deno.writeTextFileSync(stampFile, JSON.stringify(stamp));
  }

  const indexKey = `${casesKey}:${indexSourcesKey()}`;
  let indexMs: number | null = null;
  const cached = !opts.reindex && stamp.index === indexKey && existsSync(join(home, "journal.db"));
  if (!cached) {
    try {
      Deno.removeSync(home, { recursive: true });
    } catch { /* absent */ }
    log(`indexing ${copy} (${files.length} files) with heimdall index`);
    const r = await timeCommand(DENO, [
      "run",
      "-A",
      "--v8-flags=--expose-gc,--max-semi-space-size=4",
      MAIN,
      "index",
      copy,
    ], {
      env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    });
    if (r.code !== 0) {
      throw new Error(`heimdall index failed (${r.code}): ${r.stderr.slice(-2000)}`);
    }
    indexMs = r.ms;
    log(r.stdout.trim());
    stamp.index = indexKey;
    Deno.writeTextFileSync(stampFile, JSON.stringify(stamp));
  } else log(`reusing the index at ${home}`);

  const baselineFile = join(opts.work, "whole_files.db");
  if (!cached || !existsSync(baselineFile)) {
    log("building the whole-file FTS5 baseline");
    buildWholeFileIndex(baselineFile, copy, files);
  }

  // A journal from before a newer migration is migrated once (writing), then read like search does.
  Journal.open(join(home, "journal.db")).close();
  const j = Journal.open(join(home, "journal.db"), { readOnly: true });
  const root = j.get<{ path: string }>("SELECT path FROM roots LIMIT 1")!.path;
  const rootPrefix = root.endsWith("/") ? root : root + "/";
  const symbols =
    j.get<{ n: number }>("SELECT count(*) AS n FROM nodes WHERE kind NOT IN ('file')")!.n;
  const chunks = j.get<{ n: number }>("SELECT count(*) AS n FROM chunks")!.n;
  const journal = journalSizes(join(home, "journal.db"), symbols);

  // A query is answered by its file, or by a vendored copy of the same documented function.
  const relevant = cases.map((c) => {
    const set = new Set([c.target]);
    for (
      const r of j.all<{ rel: string }>(
        "SELECT DISTINCT p.rel FROM nodes n JOIN paths p ON p.id = n.path_id WHERE n.name = ? AND n.doc = ?",
        c.name,
        c.doc,
      )
    ) set.add(r.rel);
    return set;
  });
  const idx = (split: "tune" | "test") =>
    cases.map((c, i) => (c.split === split ? i : -1)).filter((i) => i >= 0);
  const evaluate = async (
    t: Tuning,
    split: "tune" | "test",
    journalOnly = false,
  ): Promise<Quality> => {
    const ids = idx(split);
    const rankings: string[][] = [];
    for (const i of ids) {
      rankings.push(await heimdallRanking(j, cases[i]!.query, t, rootPrefix, journalOnly));
    }
    return score(rankings, ids.map((i) => relevant[i]!));
  };

  const base = new DatabaseSync(baselineFile, { readOnly: true });
  const quality: Result["quality"] = {};
  const both = async (name: string, f: (split: "tune" | "test") => Promise<Quality> | Quality) => {
    quality[name] = { tune: await f("tune"), test: await f("test") };
  };
  await both("whole-file FTS5 BM25", (s) => {
    const ids = idx(s);
    return score(
      ids.map((i) => wholeFileRanking(base, cases[i]!.query)),
      ids.map((i) => relevant[i]!),
    );
  });
  const lexicalOnly = { ...DEFAULT_TUNING, legWeights: { ...DEFAULT_TUNING.legWeights, graph: 0 } };
  await both(
    "lexical, every match scored, journal only",
    (s) => evaluate({ ...lexicalOnly, candidateBudget: Infinity }, s, true),
  );
  await both("lexical, journal only", (s) => evaluate(lexicalOnly, s, true));
  await both("lexical + graph, journal only", (s) => evaluate(DEFAULT_TUNING, s, true));
  await both("lexical + disk rerank", (s) => evaluate(lexicalOnly, s));
  await both("Heimdall: lexical + graph + disk rerank", (s) => evaluate(DEFAULT_TUNING, s));

  let tuning: Result["tuning"];
  if (opts.tune) {
    log("tuning on the tuning half");
    const t = await tune(evaluate);
    tuning = { steps: t.steps, tuned: t.tuning };
    const tunedLexical = { ...t.tuning, legWeights: { ...t.tuning.legWeights, graph: 0 } };
    await both("tuned: lexical + disk rerank", (s) => evaluate(tunedLexical, s));
    await both("tuned: lexical + graph + disk rerank", (s) => evaluate(t.tuning, s));
  }

  // Latency with verdicts, warm: one pass to warm the page cache, one measured.
  log("timing search() with verdicts");
  for (const c of cases.slice(0, 30)) await search(j, { query: c.query, semantic: null });
  const searchMs: number[] = [];
  const rankMs: number[] = [];
  const verdicts: Record<string, number> = {};
  const targetCov: number[] = [];
  const otherCov: number[] = [];
  for (const [i, c] of cases.entries()) {
    let t0 = performance.now();
    await rank(j, { query: c.query, semantic: null });
    rankMs.push(performance.now() - t0);
    t0 = performance.now();
    const r = await search(j, { query: c.query, semantic: null });
    searchMs.push(performance.now() - t0);
    for (const h of r.hits) {
      verdicts[h.verdict] = (verdicts[h.verdict] ?? 0) + 1;
      if (h.path === null) continue;
      (relevant[i]!.has(h.path.slice(rootPrefix.length)) ? targetCov : otherCov).push(h.coverage);
    }
  }

  // The ripgrep way, on the first queries of the test half, and the others on the same subset.
  const rgIds = idx("test").slice(0, opts.rgQueries);
  const rgMs: number[] = [];
  const rgRankings: string[][] = [];
  if (rgIds.length > 0) log(`running rg over each content word for ${rgIds.length} queries`);
  for (const i of rgIds) {
    const r = await rgRanking(copy, cases[i]!.query);
    rgMs.push(r.ms);
    rgRankings.push(r.files);
  }
  const rgRel = rgIds.map((i) => relevant[i]!);
  const rgSubset: Record<string, Quality> = {};
  if (rgIds.length > 0) {
    rgSubset["rg per word, files by words hit"] = score(rgRankings, rgRel);
    rgSubset["whole-file FTS5 BM25"] = score(
      rgIds.map((i) => wholeFileRanking(base, cases[i]!.query)),
      rgRel,
    );
    const h: string[][] = [];
    for (const i of rgIds) {
      h.push(await heimdallRanking(j, cases[i]!.query, DEFAULT_TUNING, rootPrefix));
    }
    rgSubset["Heimdall (default)"] = score(h, rgRel);
  }
  base.close();

  // The CLI as an agent calls it: process start, journal open, search, verdicts.
  const cliMs: number[] = [];
  for (const c of cases.slice(0, 5)) {
    const r = await timeCommand(DENO, ["run", "-A", MAIN, "search", "--json", c.query], {
      env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1" },
    });
    cliMs.push(r.ms);
  }
  j.close();

  const thresholds = [0.25, 0.34, 0.4, 0.5, 0.6, 0.67, 0.75, 0.8, 0.9, 1];
  const table = thresholds.map((t) => {
    const tp = targetCov.filter((c) => c >= t).length / Math.max(1, targetCov.length);
    const fp = otherCov.filter((c) => c >= t).length / Math.max(1, otherCov.length);
    return [
      t.toFixed(2),
      (tp * 100).toFixed(0) + "%",
      (fp * 100).toFixed(0) + "%",
      ((tp - fp) * 100).toFixed(0),
    ];
  });
  return {
    corpus: { files: files.length, symbols, chunks, queries: cases.length, tree: copy },
    index: { ms: indexMs, cached },
    journal,
    quality,
    rgSubset,
    latency: {
      searchP50: percentile(searchMs, 50),
      searchP95: percentile(searchMs, 95),
      searchMax: Math.max(...searchMs),
      rankP50: percentile(rankMs, 50),
      verdicts,
      rgP50: percentile(rgMs, 50),
      rgP95: percentile(rgMs, 95),
      rgQueries: rgMs.length,
      cliWallP50: percentile(cliMs, 50),
    },
    coverage: {
      targetHits: summarize(targetCov),
      otherHits: summarize(otherCov),
      threshold: DEFAULT_TUNING.coverageThreshold,
      table,
    },
    ...(tuning ? { tuning } : {}),
  };
}

function summarize(values: number[]): number[] {
  return [values.length, percentile(values, 25), percentile(values, 50), percentile(values, 75)];
}

function journalSizes(file: string, symbols: number): Result["journal"] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name")
      .all() as {
        name: string;
        bytes: number;
      }[];
    const total = rows.reduce((s, r) => s + r.bytes, 0);
    const isFts = (n: string) => n.startsWith("chunks_fts");
    const isSearch = (n: string) =>
      isFts(n) || n === "chunks" || n.startsWith("chunks_") || n === "paths_hash";
    const searchBytes = rows.filter((r) => isSearch(r.name)).reduce((s, r) => s + r.bytes, 0);
    const ftsBytes = rows.filter((r) => isFts(r.name)).reduce((s, r) => s + r.bytes, 0);
    return {
      bytes: total,
      searchBytes,
      ftsBytes,
      bytesPer1000SymbolsBefore: ((total - searchBytes) / symbols) * 1000,
      bytesPer1000SymbolsAfter: (total / symbols) * 1000,
    };
  } finally {
    db.close();
  }
}

function fileHash(path: string): string | undefined {
  try {
    return createHash("sha1").update(Deno.readFileSync(path)).digest("hex");
  } catch {
    return undefined;
  }
}

function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function pct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "—";
}

function renderResult(r: Result): string {
  const out: string[] = [];
  out.push(
    `corpus: ${r.corpus.files} files, ${r.corpus.symbols} symbols, ${r.corpus.chunks} chunks; ${r.corpus.queries} queries from doc comments (removed from the copy)`,
  );
  out.push(
    `index: ${r.index.cached ? "cached" : fmtMs(r.index.ms ?? NaN)}; journal ${
      fmtMiB(r.journal.bytes)
    }, search tables ${fmtMiB(r.journal.searchBytes)} (FTS5 ${fmtMiB(r.journal.ftsBytes)}); ${
      fmtMiB(r.journal.bytesPer1000SymbolsBefore)
    } → ${fmtMiB(r.journal.bytesPer1000SymbolsAfter)} per 1,000 symbols`,
  );
  out.push("");
  out.push("Retrieval quality (a query is answered when its file is in the first 10)");
  out.push(renderTable(
    ["ranking", "R@10 tune", "MRR tune", "R@10 test", "MRR test"],
    Object.entries(r.quality).map(([name, q]) => [
      name,
      pct(q.tune.recall10),
      q.tune.mrr10.toFixed(3),
      pct(q.test.recall10),
      q.test.mrr10.toFixed(3),
    ]),
    [1, 2, 3, 4],
  ));
  if (Object.keys(r.rgSubset).length > 0) {
    out.push("");
    out.push(`On the ${r.latency.rgQueries} test queries ripgrep ran on`);
    out.push(renderTable(
      ["ranking", "R@10", "MRR"],
      Object.entries(r.rgSubset).map(([name, q]) => [name, pct(q.recall10), q.mrr10.toFixed(3)]),
      [1, 2],
    ));
  }
  out.push("");
  out.push("Latency per query");
  out.push(renderTable(
    ["what", "p50", "p95", "ratio to Heimdall p50"],
    [
      [
        "Heimdall search(), verdicts included",
        fmtMs(r.latency.searchP50),
        fmtMs(r.latency.searchP95),
        "1×",
      ],
      ["Heimdall ranking alone (no disk)", fmtMs(r.latency.rankP50), "", ""],
      [
        "rg -l -i -F per content word",
        fmtMs(r.latency.rgP50),
        fmtMs(r.latency.rgP95),
        fmtRatio(r.latency.rgP50, r.latency.searchP50),
      ],
      ["heimdall search CLI, wall (process start included)", fmtMs(r.latency.cliWallP50), "", ""],
    ],
    [1, 2, 3],
  ));
  out.push(
    `verdicts: ${Object.entries(r.latency.verdicts).map(([k, v]) => `${k} ${v}`).join(", ")}; max ${
      fmtMs(r.latency.searchMax)
    }`,
  );
  out.push("");
  const [tn, t25, t50, t75] = r.coverage.targetHits;
  const [on, o25, o50, o75] = r.coverage.otherHits;
  out.push(
    `coverage of answering hits: n=${tn} p25/p50/p75 ${t25}/${t50}/${t75}; of other hits: n=${on} ${o25}/${o50}/${o75}`,
  );
  out.push(
    renderTable(["threshold", "answering ≥", "others ≥", "difference"], r.coverage.table, [
      1,
      2,
      3,
    ]),
  );
  if (r.tuning) {
    out.push("");
    out.push("Tuning steps (tuning half):");
    for (const s of r.tuning.steps) out.push(`  ${s}`);
    out.push(
      `tuned: ${
        JSON.stringify({
          weights: r.tuning.tuned.weights,
          legWeights: r.tuning.tuned.legWeights,
          foldShare: r.tuning.tuned.foldShare,
          rerankWeight: r.tuning.tuned.rerankWeight,
        })
      }`,
    );
  }
  return out.join("\n");
}

if (import.meta.main) {
  Deno.exit(await runBenchMain("bench_search", parseOptions, runBench, renderResult));
}
