import assert from "node:assert/strict";
import { parseQuery, proseWholes } from "./query.ts";

Deno.test("parseQuery() splits identifiers, drops stop words and keeps whole forms", () => {
  const cases: [string, Partial<ReturnType<typeof parseQuery>>][] = [
    [
      "portfolio optimization jam optimizer",
      {
        words: ["portfolio", "optimization", "jam", "optimizer"],
        wholes: [],
        phrases: [],
        excluded: [],
      },
    ],
    [
      "how do I retry with exponential backoff?",
      { words: ["retry", "exponential", "backoff"] },
    ],
    ["parseHTTPRequest", { words: ["parse", "http", "request"], wholes: ["parsehttprequest"] }],
    ["max_file_bytes config", {
      words: ["max", "file", "bytes", "config"],
      wholes: ["maxfilebytes"],
    }],
    ["os.path.join", { words: ["os", "path", "join"], wholes: ["ospathjoin"] }],
    // A token of single characters asks for itself, not for every chunk holding a `9` or a `k`.
    ["k9d2m7q", { words: ["k9d2m7q"], wholes: ["k9d2m7q"] }],
    ["a b", { words: ["a", "b"], wholes: [] }],
    ['"exponential backoff" retry', {
      words: ["exponential", "backoff", "retry"],
      phrases: ["exponential backoff"],
    }],
    // An excluded phrase or identifier is excluded whole, not word by word (`-"dry run"`
    // would drop every chunk saying "run"), as the index holds it.
    ['lock -test -"dry run"', { words: ["lock"], excluded: ["test", "dry run"] }],
    ["http client -parseHTTPRequest", {
      words: ["http", "client"],
      excluded: ["parsehttprequest"],
    }],
    ["vector -std::list -os.path -x-y", { excluded: ["std list", "os path"] }],
    ["retry -retryWithBackoff -e2e", { words: ["retry"], excluded: ["retrywithbackoff", "e2e"] }],
    ["期限 -有効期限", { words: ["期限"], excluded: ["有効 効期 期限"] }],
    ['"dry run" -"dry run" -"the a"', { words: ["dry", "run"], excluded: [] }],
    ["pool -foo,bar", { excluded: ["foo", "bar"] }],
    // A negative number is a number, not an excluded word (it would exclude every chunk holding `1`).
    ["search the table at index -1", { words: ["search", "table", "index"], excluded: [] }],
    ["offset -0.5 to -12", { words: ["offset", "12"], excluded: [] }],
    // A command-line flag in a question is not an exclusion (`-e` would drop every chunk holding `e`).
    ["bash script exits early with set -e", {
      words: ["bash", "script", "exits", "early", "set"],
      excluded: [],
    }],
    ["grep -rn -v for callers", { words: ["grep", "callers"], excluded: ["rn"] }],
    // A word asked for is never excluded: a range written `-math.MaxFloat64 … +math.MaxFloat64`.
    ["range -math.MaxFloat64 through +math.MaxFloat64", {
      words: ["range", "through", "math", "max", "float", "64"],
      excluded: [],
    }],
    ["retry -retry -backoff", { words: ["retry"], excluded: ["backoff"] }],
    ["retry retry RETRY", { words: ["retry"] }],
    ["the a of", { words: ["the", "a", "of"] }],
    ["x y", { words: ["x", "y"] }],
    ["", { words: [], wholes: [], phrases: [], excluded: [] }],
    ["-", { words: [] }],
  ];
  for (const [input, want] of cases) {
    const got = parseQuery(input);
    for (const [k, v] of Object.entries(want)) {
      assert.deepEqual(got[k as keyof typeof got], v, `${input} → ${k}`);
    }
  }
});

Deno.test("proseWholes() holds the joined forms of words prose writes with a hyphen or dots, never a typed identifier", () => {
  const cases: [string, string[]][] = [
    ["Emits class-level method declarations", ["classlevel"]],
    ["works on x86-64 with utf-8 text", ["x8664", "utf8"]],
    ["use a default, e.g. the first, i.e. none", ["eg", "ie"]],
    ["Mac OS 10.4 or older, release 1.2.3", ["104", "123"]],
    ["parseHeader in os.path and Foo::bar_baz", []],
    ["snake_case and camelCase names", []],
  ];
  for (const [query, want] of cases) {
    assert.deepEqual([...proseWholes(parseQuery(query))], want, query);
  }
});
