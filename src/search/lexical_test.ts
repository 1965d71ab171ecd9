import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../../tests/helpers.ts";
import { Journal } from "../store/mod.ts";
import {
  type ChunkFilter,
  chunksHolding,
  commonTerms,
  filterSql,
  ftsExpression,
  passesFilter,
  phraseExpression,
  plannedCounts,
  plannedExpression,
  termCounts,
} from "./lexical.ts";
import { DEFAULT_TUNING, rank } from "./rank.ts";
import { parseQuery } from "./query.ts";
import { upsertLooseChunk } from "./chunks.ts";

Deno.test("ftsExpression() ORs words, whole identifiers and phrases, and NOTs exclusions", () => {
  const cases: [string, string | undefined][] = [
    ["retry backoff", '("retry" OR "backoff")'],
    ["parseHTTPRequest", '("parse" OR "http" OR "request" OR "parsehttprequest")'],
    ['"exponential backoff"', '("exponential" OR "backoff" OR ("exponential" AND "backoff"))'],
    ["lock -test", '("lock") NOT ("test")'],
    ["", undefined],
  ];
  for (const [q, want] of cases) assert.equal(ftsExpression(parseQuery(q)), want, q);
});

Deno.test("phraseExpression() asks for a sentence's words close together, only for a sentence", () => {
  const cases: [string, string | undefined][] = [
    // The span: the sentence's own tokens (an identifier's words and its whole form) plus slack.
    [
      "Returns the parseHTTPRequest result as text",
      'NEAR("returns" "parse" "http" "request" "result" "text", 21)',
    ],
    ["open the journal file", undefined],
    ['open "the journal" file now', undefined],
    ["open the journal file -test", undefined],
    [Array.from({ length: 33 }, (_, i) => `word${i}`).join(" "), undefined],
  ];
  for (const [q, want] of cases) assert.equal(phraseExpression(parseQuery(q)), want, q);
});

Deno.test("filterSql() and passesFilter() agree on every chunk of a real journal", () => {
  const j = Journal.open(join(tempDir(), "journal.db"));
  j.run("INSERT INTO roots (id, path) VALUES (1, '/r')");
  const paths: [number, string, string | null][] = [
    [1, "/r/src/a.ts", "typescript"],
    [2, "/r/src/sub/b.py", "python"],
    [3, "/r/srcx/c.ts", "typescript"],
    [4, "/r/docs/d.md", "markdown"],
  ];
  for (const [id, path, lang] of paths) {
    j.run(
      `INSERT INTO paths (id, root_id, path, rel, state, size, mtime_ms, language, requested_depth,
         target_depth, effective_depth, generation) VALUES (?, 1, ?, ?, 'indexed', 1, 1, ?, 3, 3, 3, 1)`,
      id,
      path,
      path.slice(3),
      lang,
    );
    j.run(
      "INSERT INTO chunks (path_id, source, title, text_hash) VALUES (?, ?, 't', 'h')",
      id,
      lang === "markdown" ? "docs" : "code",
    );
  }
  j.run(
    "INSERT INTO chunks (source, ref_id, title, text_hash, anchor) VALUES ('notes', 1, 'n', 'h', '/r/src/a.ts')",
  );
  j.run("INSERT INTO chunks (source, ref_id, title, text_hash) VALUES ('notes', 2, 'n', 'h')");
  const rows = j.all<{ id: number; source: string; language: string | null; path: string | null }>(
    "SELECT c.id, c.source, p.language, coalesce(p.path, c.anchor) AS path FROM chunks c LEFT JOIN paths p ON p.id = c.path_id",
  );
  const filters: ChunkFilter[] = [
    {},
    { source: "code" },
    { source: "notes" },
    { notSource: "code" },
    { notSource: "code", prefixes: [["/r"]] },
    { language: "typescript" },
    { prefixes: [["/r/src"]] },
    { prefixes: [["/r/src/"]] },
    { prefixes: [["/r/src/a.ts"]] },
    { prefixes: [["/r/src", "/r/docs"], ["/r/src/sub"]] },
    { prefixes: [[]] },
    { source: "code", language: "typescript", prefixes: [["/r"]] },
  ];
  for (const f of filters) {
    const sql = filterSql(f);
    const bySql = j.all<{ id: number }>(
      `SELECT c.id FROM chunks c LEFT JOIN paths p ON p.id = c.path_id WHERE ${sql.sql} ORDER BY c.id`,
      ...sql.params,
    ).map((r) => r.id);
    const byCode = rows.filter((r) => passesFilter(f, r)).map((r) => r.id).sort((a, b) => a - b);
    assert.deepEqual(bySql, byCode, JSON.stringify(f));
  }
  // "/r/src" is a folder: "/r/srcx" is not under it.
  const src = filterSql({ prefixes: [["/r/src"]] });
  const under = j.all<{ path: string }>(
    `SELECT coalesce(p.path, c.anchor) AS path FROM chunks c LEFT JOIN paths p ON p.id = c.path_id WHERE ${src.sql}`,
    ...src.params,
  ).map((r) => r.path).sort();
  assert.deepEqual(under, ["/r/src/a.ts", "/r/src/a.ts", "/r/src/sub/b.py"]);
  j.close();
});

Deno.test("plannedExpression() matches the rarest terms within the budget and scores the rest", () => {
  const c = (term: string, df: number) => ({ term, df });
  const cases: [ReturnType<typeof c>[], string[], number, string | undefined][] = [
    // Everything fits: plain OR.
    [[c("prime", 200), c("number", 3000)], [], 5000, '("prime" OR "number")'],
    // A common term only scores where a rare one matched.
    [[c("get", 5001), c("prime", 238)], [], 5000, '("prime") AND ("get" OR "prime")'],
    // Rarest first, while the counts fit.
    [
      [c("a1", 3000), c("b2", 1500), c("c3", 2000), c("d4", 5001)],
      [],
      5000,
      '("b2" OR "c3") AND ("a1" OR "b2" OR "c3" OR "d4")',
    ],
    // Not even the rarest fits: the two rarest must both match.
    [
      [c("get", 5001), c("set", 5001), c("value", 5001)],
      [],
      5000,
      '("get" AND "set") AND ("get" OR "set" OR "value")',
    ],
    // A single common term is matched as it is.
    [[c("get", 5001)], [], 5000, '("get")'],
    // Terms no chunk holds are dropped; exclusions are NOT-ed.
    [[c("zzz", 0), c("lock", 10)], ["test"], 5000, '("lock") NOT ("test")'],
    [[c("zzz", 0)], [], 5000, undefined],
  ];
  for (const [counts, excluded, budget, want] of cases) {
    assert.equal(plannedExpression(counts, excluded, budget), want, JSON.stringify(counts));
  }
});

Deno.test("chunksHolding() finds the chunks among those asked that hold a word, near or far apart", () => {
  const j = Journal.open(join(tempDir(), "journal.db"));
  const ids: number[] = [];
  for (let i = 0; i < 1200; i++) {
    const word = i % 3 === 0 ? "drain" : i % 100 === 1 ? "rare" : "pause";
    ids.push(upsertLooseChunk(j, { source: "memory", refId: `m${i}`, title: `t${i}`, text: word }));
  }
  const holding = (asked: number[], words: string[]) =>
    [...chunksHolding(j, asked, words)].sort((a, b) => a - b);
  // Runs of nearby ids, each looked up as a range: the word's rows are few for the runs.
  const near = [ids[0]!, ids[1]!, ids[3]!, ids[100]!, ids[102]!, ids[199]!];
  const want = near.filter((id) => (id - ids[0]!) % 3 === 0);
  assert.deepEqual(holding(near, ["drain"]), want);
  assert.deepEqual(holding(near, ["draining"]), want);
  assert.deepEqual(holding(near, ["rare"]), [ids[1]!]);
  // Ids far apart, each its own run, of a word in a third of the chunks: looked up id by id.
  const far = Array.from({ length: 12 }, (_, k) => ids[k * 97]!);
  assert.deepEqual(holding(far, ["drain"]), far.filter((id) => (id - ids[0]!) % 3 === 0));
  assert.deepEqual(
    holding(far, ["rare", "drain"]),
    far.filter((id) => {
      const i = id - ids[0]!;
      return i % 3 === 0 || i % 100 === 1;
    }),
  );
  assert.equal(chunksHolding(j, near, []).size, 0);
  assert.equal(chunksHolding(j, [], ["drain"]).size, 0);
  j.close();
});

Deno.test("termCounts() counts a term once while the journal is unchanged, again after any connection writes", () => {
  const file = join(tempDir(), "journal.db");
  const writer = Journal.open(file);
  const reader = Journal.open(file, { readOnly: true });
  let n = 0;
  const add = (count: number) => {
    for (let i = 0; i < count; i++) {
      upsertLooseChunk(writer, { source: "memory", refId: `m${n++}`, title: "t", text: "drain" });
    }
  };
  const df = (j: Journal, cap: number) => termCounts(j, ["drain", "pause"], cap).map((c) => c.df);
  add(3);
  assert.deepEqual(df(reader, 10), [3, 0]);
  // Counted up to the cap asked: another cap is another count.
  assert.deepEqual(df(reader, 1), [2, 0]);
  add(2);
  assert.deepEqual(df(reader, 10), [5, 0], "another connection's write is counted");
  assert.deepEqual(df(writer, 10), [5, 0]);
  add(1);
  assert.deepEqual(df(writer, 10), [6, 0], "the counting connection's own write is counted");
  reader.close();
  writer.close();
});

Deno.test("commonTerms() calls a term common only when both ends of its posting list are dense", () => {
  const j = Journal.open(join(tempDir(), "journal.db"));
  for (let i = 1; i <= 100; i++) {
    const words = [
      i % 2 === 0 ? "every" : "",
      // Dense in the first fifth (one project), sparse after it: 25% in truth.
      i <= 20 || [40, 60, 80, 95, 99].includes(i) ? "absl" : "",
      i <= 3 ? "rare" : "",
    ];
    upsertLooseChunk(j, { source: "memory", refId: `m${i}`, title: "t", text: words.join(" ") });
  }
  const counts = termCounts(j, ["every", "absl", "rare"], 4);
  assert.deepEqual(counts.map((c) => c.df), [5, 5, 3]);
  assert.equal(counts[0]!.density, 5 / 9, "ids 2 to 10");
  assert.equal(counts[1]!.density, 1, "ids 1 to 5");
  // The last five rows: every 92..100 (5 of 9 ids); absl 40..99 (5 of 60).
  assert.deepEqual([...commonTerms(j, counts, 0.2, 5)], [["every", 5 / 9]]);
  assert.deepEqual([...commonTerms(j, counts, 0.6, 5)], []);
  assert.deepEqual([...commonTerms(j, counts, 1, 5)], [], "a share of 1 calls nothing common");
  j.close();
});

Deno.test("plannedCounts() leaves common terms out only while the rest still restricts the match", () => {
  const c = (term: string, df: number) => ({ term, df });
  const common = new Map([["return", 0.3], ["test", 0.3]]);
  const terms = (xs: readonly { term: string }[]) => xs.map((x) => x.term);
  assert.deepEqual(terms(plannedCounts([c("return", 2501), c("cookie", 40)], common, 2500)), [
    "cookie",
  ]);
  // Two common words of other kinds still restrict the match to chunks holding both.
  const two = [c("return", 2501), c("get", 2501), c("value", 2501)];
  assert.deepEqual(terms(plannedCounts(two, common, 2500)), ["get", "value"]);
  // One common word left alone would match every chunk holding it: all are kept.
  const one = [c("return", 2501), c("get", 2501)];
  assert.deepEqual(terms(plannedCounts(one, common, 2500)), ["return", "get"]);
  assert.deepEqual(terms(plannedCounts(one, new Map(), 2500)), ["return", "get"]);
  // A word that only scores (a hyphenated word joined) restricts nothing.
  const joined = [c("return", 2501), c("test", 2501), c("classlevel", 3)];
  assert.deepEqual(terms(plannedCounts(joined, common, 2500, new Set(["classlevel"]))), [
    "return",
    "test",
    "classlevel",
  ]);
});

Deno.test("rank() counts a common word left out of BM25 in the chunks that hold it", async () => {
  const j = Journal.open(join(tempDir(), "journal.db"));
  // "return" in a third of the chunks: common at a share of 0.2.
  for (let i = 0; i < 30; i++) {
    const text = i % 3 === 0 ? `return value${i}` : `other text${i}`;
    upsertLooseChunk(j, { source: "memory", refId: `m${i}`, title: `t${i}`, text });
  }
  upsertLooseChunk(j, {
    source: "memory",
    refId: "said",
    title: "x",
    text: "the string representation of the table",
  });
  upsertLooseChunk(j, {
    source: "memory",
    refId: "returned",
    title: "y",
    text: "return rows string representation, rendered once",
  });
  const tuning = { ...DEFAULT_TUNING, candidateBudget: 4 };
  const order = async (commonShare: number) =>
    (await rank(j, { query: "Returns the string representation", semantic: null }, {
      ...tuning,
      commonShare,
    })).candidates.map((c) => c.key).slice(0, 2);
  // Every word in BM25, and `return` left out of it but counted where held: the same order.
  assert.deepEqual(await order(1), ["memory:returned", "memory:said"]);
  assert.deepEqual(await order(0.2), ["memory:returned", "memory:said"]);
  j.close();
});
