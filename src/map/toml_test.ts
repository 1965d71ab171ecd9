import assert from "node:assert/strict";
import { parseToml, TomlError } from "./toml.ts";

Deno.test("parseToml() reads tables, arrays of tables, dotted and quoted keys, every value type", () => {
  const { value, lines } = parseToml(`# a map
title = "Heimdall" # trailing comment
[component.store]
paths = [
  "src/store/**", # the journal
  'src\\raw\\**',
]
depends_on = []
"quoted key" = "tab\\tand \\u00e9"
n = 1_000
f = -2.5
on = true
inline = { a = "x", b = [1, 2] }
[[component.store.rule]]
level = "must"
[[component.store.rule]]
level = "info"
a.b.c = 3
`);
  assert.deepEqual(value, {
    title: "Heimdall",
    component: {
      store: {
        paths: ["src/store/**", "src\\raw\\**"],
        depends_on: [],
        "quoted key": "tab\tand é",
        n: 1000,
        f: -2.5,
        on: true,
        inline: { a: "x", b: [1, 2] },
        rule: [{ level: "must" }, { level: "info", a: { b: { c: 3 } } }],
      },
    },
  });
  assert.equal(lines.get("component.store"), 3);
  assert.equal(lines.get("component.store.paths"), 4);
  assert.equal(lines.get("component.store.paths[1]"), 6);
  assert.equal(lines.get("component.store.rule[1].a.b.c"), 18);
});

Deno.test("parseToml() names the line of each kind of error", () => {
  const cases: [string, number, RegExp][] = [
    ['a = "x"\nb = "unterminated\n', 2, /unterminated string/],
    ["a = 1\n\n[table\n", 3, /"]" to close the table header/],
    ["a = 1\na = 2\n", 2, /"a" is defined twice/],
    ["[t]\nx = 1\n[t]\n", 3, /table \[t\] is defined twice/],
    ['k = """\nmulti\n"""\n', 1, /multi-line strings are not supported/],
    ["d = 2025-01-01\n", 1, /dates are not supported/],
    ["x = [1, 2\ny = 3\n", 2, /expected "," or "]"/],
    ['x = "a" "b"\n', 1, /unexpected/],
    ["x = nope\n", 1, /expected a value/],
    ["= 3\n", 1, /expected a key/],
    ["x 3\n", 1, /"=" after the key "x"/],
    ['s = "bad \\q escape"\n', 1, /unknown escape/],
    ["a = 1\n[a.b]\n", 2, /"a" is already a value/],
    ['a = 1\ns = "\\U00110000"\n', 2, /not a Unicode character/],
    ['s = "\\uD800"\n', 1, /not a Unicode character/],
    ["[t]\ntoString = 1\ntoString = 2\n", 3, /"toString" is defined twice/],
    ['[t]\rpaths = ["x"]\r', 1, /lone carriage return/],
    ['# the map\r[t]\rpaths = ["x"]\r', 1, /lone carriage return/],
    ['[t]\r\npaths = ["x"]\r\n# a\rb\r\n', 3, /lone carriage return/],
  ];
  for (const [text, line, message] of cases) {
    assert.throws(
      () => parseToml(text),
      (e: unknown) => e instanceof TomlError && e.line === line && message.test(e.message),
      JSON.stringify(text),
    );
  }
});

Deno.test("parseToml() skips a byte order mark and reads keys named like Object's own properties", () => {
  const { value, lines } = parseToml(
    '\uFEFF[component.constructor]\npaths = ["a"]\ntoString = 1\n__proto__ = "x"\n' +
      "[component.hasOwnProperty]\nvalueOf = { constructor = 2 }\n",
  );
  const component = new Map(Object.entries(value.component as Record<string, object>));
  assert.deepEqual([...component.keys()], ["constructor", "hasOwnProperty"]);
  const ctor = new Map(Object.entries(component.get("constructor")!));
  assert.deepEqual([...ctor], [["paths", ["a"]], ["toString", 1], ["__proto__", "x"]]);
  assert.equal(Object.getPrototypeOf(component.get("constructor")), Object.prototype);
  assert.deepEqual(Object.entries(component.get("hasOwnProperty")!), [
    ["valueOf", { constructor: 2 }],
  ]);
  assert.equal(lines.get("component.constructor"), 1);
});

Deno.test("parseToml() refuses arrays and inline tables nested past 64 with the line, not a stack overflow", () => {
  for (
    const [text, line] of [["a = 1\nx = " + "[".repeat(100_000), 2], [
      "x = " + "{ a = ".repeat(100_000),
      1,
    ]] as const
  ) {
    assert.throws(
      () => parseToml(text),
      (e: unknown) =>
        e instanceof TomlError && e.line === line && /nested more than 64 deep/.test(e.message),
      text.slice(0, 20),
    );
  }
  const deep = "[".repeat(60) + "]".repeat(60);
  assert.equal(JSON.stringify(parseToml(`x = ${deep}`).value.x), deep);
});
