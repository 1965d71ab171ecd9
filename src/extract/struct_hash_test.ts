import { equal, notEqual } from "node:assert/strict";
import { TreeSitterExtractor } from "./tree_sitter.ts";

const extractor = new TreeSitterExtractor();

async function hashOf(language: string, text: string, qualname: string): Promise<string> {
  const x = await extractor.extract({ path: "t", language, text, depth: 2 });
  const sym = x.symbols.find((s) => s.qualname === qualname);
  if (!sym?.structHash) throw new Error(`no ${qualname} in ${JSON.stringify(x)}`);
  return sym.structHash;
}

/** The hashes of `qualname` in `before` and in `after`, to compare. */
function hashesOf(language: string, qualname: string, before: string, after: string) {
  return Promise.all([hashOf(language, before, qualname), hashOf(language, after, qualname)]);
}

const PY = `
def total(items, tax):
    """Sums items."""
    # add them up
    s = sum(i.price for i in items)
    return s * (1 + tax)
`;

Deno.test("structHash() is the same after reformatting and moving a definition", async () => {
  const reformatted = `\n\n\nimport os\n\ndef total( items,tax ):
  """Sums items."""
  # add them up
  s=sum( i.price for i in items )
  return s*(1+tax)
`;
  equal(await hashOf("python", PY, "total"), await hashOf("python", reformatted, "total"));
});

Deno.test("structHash() ignores comment and docstring edits", async () => {
  const edited = PY.replace("# add them up", "# sum every price, then apply tax")
    .replace('"""Sums items."""', '"""Returns the total price, tax included."""');
  equal(await hashOf("python", PY, "total"), await hashOf("python", edited, "total"));
});

Deno.test("structHash() changes on a logic edit", async () => {
  const base = await hashOf("python", PY, "total");
  notEqual(base, await hashOf("python", PY.replace("1 + tax", "1 - tax"), "total"));
  notEqual(base, await hashOf("python", PY.replace("i.price", "i.cost"), "total"));
  notEqual(base, await hashOf("python", PY.replace("return s", "return -s"), "total"));
});

Deno.test("structHash() ignores semicolons and trailing commas a formatter adds", async () => {
  const a = `export function f(a: number, b: number) {\n  const x = g(a, b)\n  return x\n}\n`;
  const b =
    `export function f(\n  a: number,\n  b: number,\n) {\n  const x = g(\n    a,\n    b,\n  );\n  return x;\n}\n`;
  equal(await hashOf("typescript", a, "f"), await hashOf("typescript", b, "f"));
  notEqual(...await hashesOf("typescript", "f", a, a.replace("g(a, b)", "g(b, a)")));
});

Deno.test("structHash() covers decorators and attributes", async () => {
  const a = `#[derive(Debug)]\nstruct S { x: u8 }\n`;
  const b = `#[derive(Debug, Clone)]\nstruct S { x: u8 }\n`;
  notEqual(await hashOf("rust", a, "S"), await hashOf("rust", b, "S"));
  const c = `/// Doc changed.\n#[derive(Debug)]\nstruct S {\n    x: u8,\n}\n`;
  equal(await hashOf("rust", a, "S"), await hashOf("rust", c, "S"));
});

Deno.test("structHash() sees layout that carries meaning: indentation, line ends, strings, 1-tuples", async () => {
  const py = `def f(x):\n    if x:\n        a()\n        b()\n    return (x,)\n`;
  const base = await hashOf("python", py, "f");
  // Dedenting b() moves it out of the `if`: a logic edit with the same tokens.
  notEqual(base, await hashOf("python", py.replace("        b()", "    b()"), "f"));
  notEqual(base, await hashOf("python", py.replace("(x,)", "(x)"), "f"));
  // Re-indenting the whole body (4 → 2 spaces) is a reformat.
  equal(base, await hashOf("python", py.replace(/^( +)/gm, (s) => " ".repeat(s.length / 2)), "f"));

  const sh = `f() {\n  echo a\n  echo b\n}\n`;
  notEqual(...await hashesOf("bash", "f", sh, sh.replace("a\n  echo", "a echo")));
  equal(...await hashesOf("bash", "f", sh, sh.replace("a\n  echo", "a; echo")));

  const ts = `function g() {\n  return "a b";\n}\n`;
  notEqual(...await hashesOf("typescript", "g", ts, ts.replace("a b", "a  b")));
  equal(...await hashesOf("typescript", "g", ts, ts.replace("return", "return /* why */")));
});

Deno.test("structHash() of a method is the same in another class and at another depth", async () => {
  const a = `class A:\n    def m(self):\n        return 1\n`;
  const b = `class B:\n  class C:\n    def m(self):\n      return 1\n`;
  equal(await hashOf("python", a, "A.m"), await hashOf("python", b, "B.C.m"));
});
