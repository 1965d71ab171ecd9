import assert from "node:assert/strict";
import {
  attachLeadingComments,
  DEFAULT_UNIT_WEIGHTS,
  fileText,
  forEachOccurrence,
  lineOwners,
  proseLines,
  type ScoredTerm,
  scoreUnits,
  type UnitInput,
} from "./unit_score.ts";
import { stem } from "../derive/words.ts";

const unit = (over: Partial<UnitInput>): UnitInput => ({
  name: "",
  qual: "",
  start: null,
  end: null,
  ...over,
});
/** A file of `lines` with a file unit and `ranged` units, each line given to its owner. */
const fileWith = (lines: string[], ranged: Partial<UnitInput>[]) => {
  const units = [unit({ isFile: true }), ...ranged.map(unit)];
  const file = fileText(lines.join("\n"));
  return { units, file, owner: lineOwners(units, file.lineStarts.length) };
};
const terms = (words: string[], idf = 2) => words.map((w) => ({ stem: stem(w), idf }));

Deno.test("lineOwners() gives each line to the smallest unit holding it, the rest to the file", () => {
  const units = [
    unit({ isFile: true }),
    unit({ name: "Cls", start: 2, end: 6 }),
    unit({ name: "method", start: 3, end: 4 }),
  ];
  assert.deepEqual([...lineOwners(units, 7)], [0, 1, 2, 2, 1, 1, 0]);
  assert.deepEqual([...lineOwners([unit({ start: 1, end: 1 })], 2)], [0, -1], "no file unit");
});

Deno.test("scoreUnits() ranks a unit by its own words: name over body, a container without its children", () => {
  const lines = fileText([
    "class Cache {",
    "  evictOldest() {",
    "    this.entries.delete(this.order.shift());",
    "  }",
    "  get(key) { return this.entries.get(key); }",
    "}",
  ].join("\n"));
  const units = [
    unit({ name: "Cache", start: 1, end: 6 }),
    unit({ name: "evictOldest", qual: "Cache", start: 2, end: 4 }),
    unit({ name: "get", qual: "Cache", start: 5, end: 5 }),
  ];
  const s = scoreUnits(
    units,
    lines,
    "",
    terms(["evict", "oldest", "entry"]),
    new Map(),
    DEFAULT_UNIT_WEIGHTS,
  );
  assert.ok(s[1]!.score > s[2]!.score && s[1]!.score > s[0]!.score, JSON.stringify(s));
  assert.equal(s[1]!.matched, 3);
  assert.equal(s[0]!.matched, 0, "the class does not own its methods' words");
  assert.ok(s.every((x) => x.score >= 0 && x.score < 1));
});

Deno.test("scoreUnits() weighs rare words above common ones and counts a note's own text", () => {
  const units = [
    unit({ name: "a", text: "retry the request later" }),
    unit({ name: "b", text: "the request" }),
  ];
  const s = scoreUnits(
    units,
    fileText(""),
    "",
    [{ stem: "retri", idf: 8 }, { stem: "request", idf: 1 }],
    new Map(),
    DEFAULT_UNIT_WEIGHTS,
  );
  assert.ok(s[0]!.score > 2 * s[1]!.score);
});

Deno.test("scoreUnits() sums learned associations of a unit's code words, normalised by its length", () => {
  const lines = fileText(
    "def swap_in(src, dst):\n    dst.write(src.read())\ndef other():\n    return 1",
  );
  const units = [
    unit({ name: "swap_in", start: 1, end: 2 }),
    unit({ name: "other", start: 3, end: 4 }),
  ];
  const learned = new Map([["src", 0.5], ["dst", 0.5]]);
  const s = scoreUnits(units, lines, "", terms(["translate"]), learned, DEFAULT_UNIT_WEIGHTS);
  assert.ok(s[0]!.learned > 0);
  assert.equal(s[1]!.learned, 0);
  assert.equal(s[0]!.score, 0, "no query word matched");
});

Deno.test("forEachOccurrence() finds a stem where a word or an identifier part starts", () => {
  const cases: [string, string, number][] = [
    ["parseHTTPRequest(req)", "request", 1],
    ["parse_header and PARSE and reparse", "pars", 2],
    ["HTTPServer serves", "http", 1],
    ["parseHttpRequest()", "parsehttprequest", 1],
    // A whole identifier whose stem is not itself (`fullrune` → `fullrun`).
    ["func FullRune(p []byte) and fullRune", stem("fullrune"), 2],
    ["readAhead(); readAll()", stem("readall"), 1],
    ["retry(); retries", "retri", 2],
    // Short words too: a stem of three letters that ends in the `i` of a `y`.
    ["getKey(key); keys; keyword", stem("key"), 3],
    ["any(); anything", stem("any"), 1],
    ["optimizer.optimize(optimization)", "optim", 3],
    ["shipping", "ship", 1],
    ["relationship", "ship", 0],
    // A pair of CJK characters wherever it stands in a run: those scripts put no space between words.
    ["// ユーザー認証はトークンで行う。認証", "認証", 2],
    ["有効期限", "期限", 1],
    ["사용자 인증은", "인증", 1],
    // Words without their marks, found where the text has them between letters.
    // (The plural's ending is marks too: both are found, as a stem finds both.)
    ["यह किताब, वह किताबें", "कतब", 2],
    ["ผู้ใช้ยืมหนังสือ", "นง", 1],
    ["Größe und größer", "größe", 1],
  ];
  for (const [text, stem, want] of cases) {
    let n = 0;
    forEachOccurrence(fileText(text), stem, () => n++);
    assert.equal(n, want, `${stem} in ${text}`);
  }
});

Deno.test("attachLeadingComments() gives a doc comment and decorators to the definition below them", () => {
  const text = [
    "import os", // 1: file
    "", // 2
    "/** Opens the pool. */", // 3: openPool's doc
    "@traced", // 4
    "function openPool() {}", // 5
    "#include <x.h>", // 6: a directive, not a doc
    "function close() {}", // 7
  ];
  const { units, file, owner } = fileWith(text, [
    { name: "openPool", start: 5, end: 5 },
    { name: "close", start: 7, end: 7 },
  ]);
  attachLeadingComments(owner, units, file);
  assert.deepEqual([...owner], [0, 0, 1, 1, 1, 0, 2]);
});

Deno.test("scoreUnits() credits the query's words found together, in order, as a phrase", () => {
  const file = fileText([
    "The original file with conflict markers is saved with a .orig extension.", // the sentence
    "Markers of a conflict; the file keeps its original name; saved elsewhere.", // the same words, scattered
  ].join("\n"));
  const units = [unit({ name: "", start: 1, end: 1 }), unit({ name: "", start: 2, end: 2 })];
  const t = terms(["original", "file", "conflict", "markers", "saved"]).map((x, i, a) => ({
    ...x,
    next: i + 1 < a.length,
  }));
  const [phrase, scattered] = scoreUnits(units, file, "", t, new Map(), DEFAULT_UNIT_WEIGHTS);
  assert.equal(phrase!.matched, scattered!.matched);
  assert.ok(phrase!.score > scattered!.score, `${phrase!.score} > ${scattered!.score}`);
});

Deno.test("proseLines() marks comments and a docstring of code units, not code or the file's lines", () => {
  const text = [
    "# a file comment", // 1: the file's
    "def area(r):", // 2
    '    """The area of a circle', // 3: docstring
    '    of radius r."""', // 4
    "    # pi times r squared", // 5
    "    return 3.14 * r * r", // 6
    "int deref(int *p) {", // 7
    "  *p = 0; /* not a comment line */", // 8
    "  // set it", // 9
    "}", // 10
  ];
  const { units, file, owner } = fileWith(text, [
    { name: "area", start: 2, end: 6 },
    { name: "deref", start: 7, end: 10 },
  ]);
  assert.deepEqual([...proseLines(owner, units, file)], [0, 0, 1, 1, 1, 0, 0, 0, 1, 0]);
});

Deno.test("scoreUnits() ranks a name the query spells out whole above a longer one holding its words", () => {
  const file = fileText("fn remaining_bytes() {}\nfn consume_remaining_bytes_as_string() {}");
  const units = [
    unit({ name: "remaining_bytes", start: 1, end: 1 }),
    unit({ name: "consume_remaining_bytes_as_string", start: 2, end: 2 }),
  ];
  const t = terms(["remaining", "bytes"]);
  const flat = { ...DEFAULT_UNIT_WEIGHTS, nameB: 0 };
  const [a0, b0] = scoreUnits(units, file, "", t, new Map(), flat);
  const [a, b] = scoreUnits(units, file, "", t, new Map(), DEFAULT_UNIT_WEIGHTS);
  assert.ok(a!.score > b!.score, `${a!.score} > ${b!.score}`);
  assert.ok(a!.score - b!.score > a0!.score - b0!.score, "the normalisation widens the gap");
});

Deno.test("scoreUnits() weighs a word in a comment at doc / body of one in code", () => {
  const file = fileText("fn a() {\n  // cookie\n}\nfn b() {\n  cookie();\n}");
  const units = [unit({ name: "a", start: 1, end: 3 }), unit({ name: "b", start: 4, end: 6 })];
  const t = terms(["cookie"]);
  const [inComment, inCode] = scoreUnits(units, file, "", t, new Map(), DEFAULT_UNIT_WEIGHTS);
  assert.ok(inCode!.score > inComment!.score, `${inCode!.score} > ${inComment!.score}`);
  const even = { ...DEFAULT_UNIT_WEIGHTS, doc: DEFAULT_UNIT_WEIGHTS.body };
  const [c, d] = scoreUnits(units, file, "", t, new Map(), even);
  assert.equal(c!.score.toFixed(6), d!.score.toFixed(6));
});

Deno.test("scoreUnits() prefers a name that begins with the question's first word, or with how code spells it", () => {
  // The same words otherwise: each name or body holds "name", none the verb.
  const file = fileText(
    "function setName(v) { this.name = v; }\nfunction getName() { this.name; }\n" +
      "class Parser {\n  build() { this.name; }\n  constructor(name) { this.name = name; }\n}\n" +
      "function hasName() { this.name !== undefined; }",
  );
  const units = [
    unit({ name: "setName", start: 1, end: 1 }),
    unit({ name: "getName", start: 2, end: 2 }),
    unit({ name: "build", qual: "Parser", start: 4, end: 4 }),
    unit({ name: "constructor", qual: "Parser", start: 5, end: 5 }),
    unit({ name: "hasName", start: 7, end: 7 }),
  ];
  const off = { ...DEFAULT_UNIT_WEIGHTS, lead: 0 };
  const best = (query: string[], w = DEFAULT_UNIT_WEIGHTS) => {
    const s = scoreUnits(units, file, "", terms(query), new Map(), w);
    return units[s.indexOf(s.reduce((a, b) => (b.score > a.score ? b : a)))]!.name;
  };
  // "Returns the name": code spells it `get`.
  assert.equal(best(["returns", "name"]), "getName");
  const gap = (w: typeof off) => {
    const [set, get] = scoreUnits(units, file, "", terms(["returns", "name"]), new Map(), w);
    return get!.score - set!.score;
  };
  assert.ok(
    gap(DEFAULT_UNIT_WEIGHTS) > gap(off) + 0.1,
    `${gap(DEFAULT_UNIT_WEIGHTS)} vs ${gap(off)}`,
  );
  // "Returns true if it has a name": a truth value is `is…` or `has…`.
  assert.equal(best(["returns", "true", "name"]), "hasName");
  // "Sets the name": the word itself.
  assert.equal(best(["sets", "name"]), "setName");
  // "Constructs a parser with a name": the constructor, not another method.
  assert.equal(best(["constructs", "parser", "name"]), "constructor");
  // Only the first word leads: "the name it returns" gives `get` nothing.
  const late = scoreUnits(units, file, "", terms(["name", "returns"]), new Map(), off);
  const lateOn = scoreUnits(
    units,
    file,
    "",
    terms(["name", "returns"]),
    new Map(),
    DEFAULT_UNIT_WEIGHTS,
  );
  assert.deepEqual(lateOn.map((s) => s.score), late.map((s) => s.score));
});

Deno.test("scoreUnits() takes a constructor named after its class for a question that constructs or creates", () => {
  // C++: `any::any()` and a method whose name holds the question's other word.
  const file = fileText(
    "class any {\n  any() noexcept {}\n  bool has_value() const { return !empty_; }\n};",
  );
  const units = [
    unit({ name: "any", qual: "absl", start: 1, end: 4 }),
    unit({ name: "any", qual: "absl.any", start: 2, end: 2 }),
    unit({ name: "has_value", qual: "absl.any", start: 3, end: 3 }),
  ];
  const best = (query: string[], w = DEFAULT_UNIT_WEIGHTS) => {
    const s = scoreUnits(units, file, "", terms(query), new Map(), w).slice(1);
    return units[1 + s.indexOf(s.reduce((a, b) => (b.score > a.score ? b : a)))]!.name;
  };
  const asked = ["constructs", "empty", "any", "value"];
  assert.equal(best(asked), "any");
  assert.equal(best(asked, { ...DEFAULT_UNIT_WEIGHTS, lead: 0 }), "has_value", "without the lead");
  // Another verb gives a constructor nothing.
  assert.equal(best(["returns", "empty", "any", "value"]), "has_value");
});

Deno.test("scoreUnits() prefers the name a query types exactly, case included, over one its whole form also matches", () => {
  const file = fileText("func TestCreate(t *T) { run(t) }\nfunc testCreate(t *T) { run(t) }");
  const units = [
    unit({ name: "TestCreate", start: 1, end: 1 }),
    unit({ name: "testCreate", start: 2, end: 2 }),
  ];
  const query = [...terms(["creates", "archive"]), { stem: "testcreat", idf: 6 }];
  const [off0, off1] = scoreUnits(units, file, "", query, new Map(), DEFAULT_UNIT_WEIGHTS);
  assert.equal(off0!.score, off1!.score, "the whole form alone cannot tell them apart");
  const typed = query.map((t) => (t.stem === "testcreat" ? { ...t, spelled: ["testCreate"] } : t));
  const [upper, lower] = scoreUnits(units, file, "", typed, new Map(), DEFAULT_UNIT_WEIGHTS);
  assert.ok(lower!.score > upper!.score, `${lower!.score} > ${upper!.score}`);
  // A qualified name as typed picks the method of that class.
  const methods = [
    unit({ name: "open", qual: "pkg.Store", start: 1, end: 1 }),
    unit({ name: "open", qual: "pkg.File", start: 2, end: 2 }),
  ];
  const dotted = [{ stem: "storeopen", idf: 6, spelled: ["Store.open"] }];
  const [store, other] = scoreUnits(methods, file, "", dotted, new Map(), DEFAULT_UNIT_WEIGHTS);
  assert.ok(store!.score > other!.score, `${store!.score} > ${other!.score}`);
});

Deno.test("scoreUnits() gives no lead to the first word of a typed qualifier: Store.open names the method, not the class", () => {
  const { units, file } = fileWith([
    "export class Store {",
    "  constructor(path) {",
    "    this.path = path;",
    "  }",
    "  open() {",
    "    return this.path;",
    "  }",
    "}",
  ], [
    { name: "Store", start: 1, end: 8 },
    { name: "open", qual: "Store", start: 5, end: 7 },
  ]);
  const words: ScoredTerm[] = [
    { stem: "store", idf: 3, next: true },
    { stem: "open", idf: 2 },
    { stem: "storeopen", idf: 9, spelled: ["Store.open"] },
  ];
  const best = (t: ScoredTerm[]) => {
    const s = scoreUnits(units, file, "src/store.js", t, new Map(), DEFAULT_UNIT_WEIGHTS);
    return units[s.indexOf(s.reduce((a, b) => (b.score > a.score ? b : a)))]!.name;
  };
  assert.equal(best([{ ...words[0]!, typed: true }, words[1]!, words[2]!]), "open");
  assert.equal(
    best(words),
    "Store",
    "a prose first word still leads: the case the flag exists for",
  );
});

Deno.test("scoreUnits() credits a query word that names one unit of its file more than one many names share", () => {
  // git's t/lib-pack.sh: the neighbour's doc comment holds every word of the
  // question but the one that tells the two apart, which only the answer's name holds.
  const { units, file } = fileWith([
    "uint32_octal () {",
    "\tn=$1",
    "\tprintf '\\\\%o' $(($n / 16777216)); n=$((n % 16777216))",
    "\tprintf '\\\\%o' $(($n /    65536)); n=$((n %    65536))",
    "\tprintf '\\\\%o' $(($n /      256)); n=$((n %      256))",
    "\tprintf '\\\\%o' $(($n           ));",
    "}",
    "",
    "# Print the big-endian 4-byte binary representation of $1",
    "uint32_binary () {",
    '\tprintf "$(uint32_octal "$1")"',
    "}",
  ], [
    { name: "uint32_octal", start: 1, end: 7 },
    { name: "uint32_binary", start: 10, end: 12 },
  ]);
  // The idf of each word over the search bench's index.
  const q: ScoredTerm[] = [
    ["print", 5.44],
    ["big", 5.44],
    ["endian", 6.03],
    ["byte", 5.44],
    ["octal", 7.26],
    ["representation", 5.44],
  ].map(([w, idf], i, all) => ({
    stem: stem(w as string),
    idf: idf as number,
    next: i + 1 < all.length,
  }));
  const named = (sibling: number) => {
    const s = scoreUnits(units, file, "", q, new Map(), { ...DEFAULT_UNIT_WEIGHTS, sibling });
    return s[1]!.score > s[2]!.score ? "uint32_octal" : "uint32_binary";
  };
  assert.equal(named(0), "uint32_binary", "without it the neighbour's doc comment wins");
  assert.equal(named(1), "uint32_octal");
});

/** The query's content words as linked terms, as `rank.ts` scores them. */
const sentenceTerms = (words: string[]) =>
  terms(words).map((x, i, a) => ({ ...x, next: i + 1 < a.length }));

Deno.test("scoreUnits() names the function whose doc comment states the question, not the one named by its first word", () => {
  const { units, file } = fileWith([
    "/**",
    " * Removes all elements from `array` that `predicate` returns truthy for.",
    " */",
    "function remove(array, predicate) {",
    "  return basePullAt(array, predicate);",
    "}",
    "/**",
    " * Removes leading whitespace or specified characters from `string`.",
    " */",
    "function trimStart(string, chars) {",
    "  return string.replace(reTrimStart, '');",
    "}",
  ], [{ name: "remove", start: 4, end: 6 }, { name: "trimStart", start: 10, end: 12 }]);
  const question = ["removes", "leading", "whitespace", "specified", "characters", "string"];
  const t = sentenceTerms(question);
  const [, remove, trimStart] = scoreUnits(units, file, "", t, new Map(), DEFAULT_UNIT_WEIGHTS);
  assert.ok(trimStart!.score > remove!.score, `${trimStart!.score} > ${remove!.score}`);
  // Without the sentence's weight, the name that is the question's first word wins.
  const off = { ...DEFAULT_UNIT_WEIGHTS, sentence: 0 };
  const [, r, s] = scoreUnits(units, file, "", t, new Map(), off);
  assert.ok(r!.score > s!.score, `${r!.score} > ${s!.score}`);
});

Deno.test("scoreUnits() names the function whose string states the question: the error it raises", () => {
  const { units, file } = fileWith([
    "    def detach(self):",
    '        """Separate the underlying raw stream from the buffer and return it.',
    "",
    "        The buffer is unusable once its stream is detached.",
    '        """',
    "        raise UnsupportedOperation(self.name)",
    "    def release(self):",
    "        if self.raw is None:",
    '            raise ValueError("raw stream already detached")',
    "        self.flush()",
  ], [{ name: "detach", start: 1, end: 6 }, { name: "release", start: 7, end: 10 }]);
  const t = sentenceTerms(["raw", "stream", "detached"]); // "already" is a stop word
  const [, detach, release] = scoreUnits(units, file, "", t, new Map(), DEFAULT_UNIT_WEIGHTS);
  assert.ok(release!.score > detach!.score, `${release!.score} > ${detach!.score}`);
  // Without the sentence's weight, the docstring holding every word wins.
  const off = { ...DEFAULT_UNIT_WEIGHTS, sentence: 0 };
  const [, d, r] = scoreUnits(units, file, "", t, new Map(), off);
  assert.ok(d!.score > r!.score, `${d!.score} > ${r!.score}`);
});

Deno.test("scoreUnits() gives no sentence weight to a comment with a word of its own in the run, or one broken by code", () => {
  const lines = [
    "/// Returns the path to a session's staging dependency graph.",
    "fn staging_dep_graph_path(sess: &Session) -> PathBuf {",
    "    // Returns the path to a session's",
    "    let p = in_incr_comp_dir_sess(sess);",
    "    // dependency graph",
    "    p",
    "}",
  ];
  const ranged = [{ name: "staging_dep_graph_path", start: 2, end: 7 }];
  const t = sentenceTerms(["returns", "path", "session", "dependency", "graph"]);
  const score = (text: string[], w = DEFAULT_UNIT_WEIGHTS) => {
    const { units, file } = fileWith(text, ranged);
    return scoreUnits(units, file, "", t, new Map(), w)[1]!.score;
  };
  assert.equal(score(lines), score(lines, { ...DEFAULT_UNIT_WEIGHTS, sentence: 0 }));
  // The same doc comment without its word of its own states the question.
  const stated = [lines[0]!.replace("staging ", ""), ...lines.slice(1)];
  const off = score(stated, { ...DEFAULT_UNIT_WEIGHTS, sentence: 0 });
  assert.ok(score(stated) > off, `${score(stated)} > ${off}`);
});

Deno.test("scoreUnits() counts against a unit a doc comment that states the question with one word replaced, unless the unit holds that word", () => {
  const lines = [
    "/// The top-level entry point for multi-threaded search.",
    "fn search_parallel(args: &HiArgs) -> Result<bool> {",
    "    let started = Instant::now();",
    "    Ok(started.elapsed() > limit)",
    "}",
    "",
    "fn search(args: &HiArgs, mode: SearchMode) -> Result<bool> {",
    "    let started = Instant::now();",
    "    Ok(started.elapsed() > limit)",
    "}",
  ];
  const ranged = [
    { name: "search_parallel", start: 2, end: 5 },
    { name: "search", start: 7, end: 10 },
  ];
  const words = ["top", "level", "entry", "point", "single", "threaded", "search"];
  const on = { ...DEFAULT_UNIT_WEIGHTS, replaced: 1 };
  const scores = (text: string[], w = on, t = sentenceTerms(words)) => {
    const { units, file } = fileWith(text, ranged);
    const [, parallel, search] = scoreUnits(units, file, "", t, new Map(), w);
    return { parallel: parallel!.score, search: search!.score };
  };
  const off = scores(lines, { ...on, replaced: 0 });
  assert.ok(off.parallel > off.search, "without it the sibling's doc comment wins");
  const with_ = scores(lines);
  assert.ok(with_.search > with_.parallel, `${with_.search} > ${with_.parallel}`);
  assert.equal(with_.search, off.search);
  // A unit that holds the replaced word (here in its body) keeps its score.
  const holds = [...lines.slice(0, 2), "    let single = false;", ...lines.slice(3)];
  assert.equal(scores(holds).parallel, scores(holds, { ...on, replaced: 0 }).parallel);
  // The question's last word replaced counts too ("…single-threaded lookup"); two words do not.
  const single = ["/// The top-level entry point for single-threaded search.", ...lines.slice(1)];
  const lookup = sentenceTerms([...words.slice(0, -1), "lookup"]);
  const plain = scores(single, { ...on, replaced: 0 }, lookup).parallel;
  assert.ok(scores(single, on, lookup).parallel < plain);
  const two = sentenceTerms([...words.slice(0, 4), "many", "threaded", "lookup"]);
  assert.equal(
    scores(lines, on, two).parallel,
    scores(lines, { ...on, replaced: 0 }, two).parallel,
  );
});
