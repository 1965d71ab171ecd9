import assert from "node:assert/strict";
import { scanToml, TomlSyntaxError } from "./toml_scan.ts";

/** The dotted names of the table headers `scanToml` finds. */
function headers(text: string): string[] {
  return scanToml(text).flatMap((s) => s.kind === "header" ? [s.key.join(".")] : []);
}

Deno.test("scanToml() finds a table header only where TOML has one", () => {
  const cases: [string, string, string[]][] = [
    ["triple quotes in a comment", '# docstrings use """ quotes\n[a]\n', ["a"]],
    ["triple quotes in a basic string", 'x = "say \\"\\"\\" loud"\n[a]\n', ["a"]],
    ["a multi-line string closed on its line", 'x = """one line"""\n[a]\n', ["a"]],
    ["a literal multi-line string closed on its line", "x = '''one'''  # '''\n[a]\n", ["a"]],
    ["a header inside a multi-line string", 'x = """\n[not]\n"""\n[a]\n', ["a"]],
    ["a header inside a literal multi-line string", "x = '''\n[not]\n'''\n[a]\n", ["a"]],
    ["quotes ending a multi-line string", 'x = """a""""\n[a]\ny = """""b"""""\n[b]\n', ["a", "b"]],
    ["an escaped quote before the closing ones", 'x = """a\\""""\n[a]\n', ["a"]],
    ["a line-ending backslash", 'x = """a \\\n  [not]\n  b"""\n[a]\n', ["a"]],
    ["an array of arrays across lines", "x = [\n  [ 1 ],\n  [2],\n]\n[a]\n", ["a"]],
    ["an array holding a multi-line string", 'x = [\n"""\n[not]\n""",\n]\n[a]\n', ["a"]],
    ["a comment inside an array", "x = [ # [not]\n  1,\n]\n[a]\n", ["a"]],
    ["quoted and spaced keys", '[ mcp_servers . "heimdall" ]\n', ["mcp_servers.heimdall"]],
    ["a quoted key holding a dot", '["a.b".c]\n', ["a.b.c"]],
    ["an array of tables and a comment", "[[a.b]] # note\n", ["a.b"]],
    ["CRLF line ends", 'x = "1"\r\n[a]\r\n\r\n[b]\r\n', ["a", "b"]],
    ["a date with a space", "x = 1979-05-27 07:32:00Z\n[a]\n", ["a"]],
  ];
  for (const [what, text, want] of cases) assert.deepEqual(headers(text), want, what);
});

Deno.test("scanToml() covers the text whole, a statement per line run, values decoded", () => {
  const text = '# c\n\nk = "a\\tb" # note\n[t]\nm = """\nx\ny"""\n';
  const st = scanToml(text);
  assert.equal(st.map((s) => text.slice(s.start, s.end)).join(""), text);
  assert.deepEqual(st.map((s) => s.kind), ["trivia", "trivia", "keyval", "header", "keyval"]);
  const k = st[2]!;
  assert.ok(k.kind === "keyval");
  assert.deepEqual(k.value, { kind: "string", value: "a\tb" });
  assert.equal(text.slice(k.valueStart, k.valueEnd), '"a\\tb"');
  const m = st[4]!;
  assert.ok(m.kind === "keyval");
  assert.deepEqual(m.value, { kind: "string", value: "x\ny" });
  assert.equal(m.line, 5);
});

Deno.test("scanToml() reads arrays and inline tables with their entries' text", () => {
  const [s] = scanToml('env = { A = "1", "B C" = \'2\', n = [1, "x"] }\n');
  assert.ok(s?.kind === "keyval" && s.value.kind === "table");
  assert.deepEqual(s.value.entries.map((e) => e.text), [
    'A = "1"',
    "\"B C\" = '2'",
    'n = [1, "x"]',
  ]);
  assert.deepEqual(s.value.entries[1]!.key, ["B C"]);
  assert.deepEqual(s.value.entries[2]!.value, {
    kind: "array",
    items: [{ kind: "other", text: "1" }, { kind: "string", value: "x" }],
  });
});

Deno.test("scanToml() refuses what is not TOML, saying where", () => {
  const cases: [string, number][] = [
    ['x = """never closed\n[a]\n', 1],
    ['a = 1\nx = "open\n', 2],
    ["[a\n", 1],
    ["a = 1 b = 2\n", 1],
    ["a = [1 2]\n", 1],
    ["= 1\n", 1],
    ['x = "\\q"\n', 1],
  ];
  for (const [text, line] of cases) {
    assert.throws(
      () => scanToml(text),
      (e) => e instanceof TomlSyntaxError && e.line === line,
      JSON.stringify(text),
    );
  }
});
