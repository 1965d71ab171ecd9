import assert from "node:assert/strict";
import {
  changeOf,
  diffSymbols,
  type RegionSymbol,
  snapshotFromEdits,
  snapshotOf,
  symbolsInEdit,
} from "./region.ts";
import type { FileEdit } from "./event.ts";

const PATH = "/r/pkg/billing.py";

/** A file's text and its symbols as the journal has them (every function, by its lines). */
function file(lines: string[]): { content: string; symbols: RegionSymbol[] } {
  const content = lines.join("\n") + "\n";
  const symbols: RegionSymbol[] = [];
  lines.forEach((line, i) => {
    const m = /^def (\w+)/.exec(line);
    if (!m) return;
    let end = i;
    while (end + 1 < lines.length && /^\s+\S/.test(lines[end + 1]!)) end++;
    symbols.push({
      id: `id-${m[1]}`,
      kind: "function",
      name: m[1]!,
      qualname: m[1]!,
      path: PATH,
      line: i + 1,
      endLine: end + 1,
      structHash: `hash-${m[1]}-${lines.slice(i, end + 1).join("|")}`,
    });
  });
  return { content, symbols };
}

const BEFORE = [
  "def apply_discount(amount, discount):",
  "    return round(amount * (1 - discount), 2)",
  "",
  "",
  "def compute_total(prices, discount=0.0):",
  "    subtotal = sum(prices)",
  "    return apply_discount(subtotal, discount)",
  "",
  "",
  "def refund(amount):",
  "    return -amount",
];

const edit = (oldText: string | null, newText: string | null): FileEdit => ({
  path: PATH,
  oldText,
  newText,
});

Deno.test("snapshotFromEdits() knows only what the edit's texts tell, never the whole file as added", () => {
  const cases: { name: string; after: string[]; edits: FileEdit[]; changes: string[] }[] = [
    {
      name: "one line changed inside a function",
      after: BEFORE.map((l) => l.replace("sum(prices)", "float(sum(prices))")),
      edits: [edit("subtotal = sum(prices)", "subtotal = float(sum(prices))")],
      changes: ["compute_total modified"],
    },
    {
      name: "the edit's old and new texts share context lines on either side",
      after: BEFORE.map((l) => l.replace("(subtotal, discount)", "(subtotal, max(discount, 0))")),
      edits: [
        edit(
          "    subtotal = sum(prices)\n    return apply_discount(subtotal, discount)\n\n\ndef refund",
          "    subtotal = sum(prices)\n    return apply_discount(subtotal, max(discount, 0))\n\n\ndef refund",
        ),
      ],
      changes: ["compute_total modified"],
    },
    {
      name: "a function inserted between two, anchored on the next one's definition",
      after: [
        ...BEFORE.slice(0, 9),
        "def credit(amount):",
        "    return amount",
        "",
        "",
        ...BEFORE.slice(9),
      ],
      edits: [edit("\n\ndef refund", "\n\ndef credit(amount):\n    return amount\n\n\ndef refund")],
      changes: ["credit added"],
    },
    {
      name: "a function appended after the last line of another",
      after: [...BEFORE, "", "", "def credit(amount):", "    return amount"],
      edits: [
        edit(
          "    return -amount",
          "    return -amount\n\n\ndef credit(amount):\n    return amount",
        ),
      ],
      changes: ["credit added"],
    },
    {
      name: "a statement taken out of a function's body",
      after: [
        ...BEFORE.slice(0, 5),
        "    return apply_discount(sum(prices), discount)",
        ...BEFORE.slice(7),
      ],
      edits: [
        edit(
          "    subtotal = sum(prices)\n    return apply_discount(subtotal, discount)",
          "    return apply_discount(sum(prices), discount)",
        ),
      ],
      changes: ["compute_total modified"],
    },
    {
      name: "a line taken out between two statements",
      after: [
        ...BEFORE.slice(0, 5),
        "    subtotal = sum(prices)",
        "    return apply_discount(subtotal, discount)",
        ...BEFORE.slice(7),
      ],
      edits: [edit("sum(prices)\n    log(subtotal)\n    return", "sum(prices)\n    return")],
      changes: ["compute_total modified"],
    },
    {
      name: "a whole function taken out: what it was is unknown, its neighbours are unchanged",
      after: BEFORE.slice(0, 9).concat(BEFORE.slice(9)),
      edits: [
        edit(
          "discount)\n\n\ndef gone():\n    pass\n\n\ndef refund",
          "discount)\n\n\ndef refund",
        ),
      ],
      changes: [],
    },
    {
      name: "a function renamed: the new name is changed code, the old one unknown",
      after: BEFORE.map((l) => l.replace("def refund", "def give_back")),
      edits: [edit("def refund(amount):", "def give_back(amount):")],
      changes: ["give_back modified"],
    },
    {
      name: "a function moved whole: its name was in the old text, so it is changed, not new",
      after: BEFORE,
      edits: [
        edit("def refund(amount):\n    return amount", "def refund(amount):\n    return -amount"),
      ],
      changes: ["refund modified"],
    },
    {
      name: "a whole-file write tells nothing",
      after: BEFORE,
      edits: [edit(null, BEFORE.join("\n"))],
      changes: [],
    },
    {
      name: "a deletion with no new text tells nothing",
      after: BEFORE,
      edits: [edit("x = 1\n", "")],
      changes: [],
    },
    {
      name: "a new text found in two places tells nothing",
      after: BEFORE,
      edits: [edit("    return amount", "    return")],
      changes: [],
    },
    {
      name: "a new text not in the file (a later edit changed it again) tells nothing",
      after: BEFORE,
      edits: [edit("subtotal = sum(prices)", "subtotal = float(sum(prices))")],
      changes: [],
    },
    {
      name: "only spacing changed: nothing placed",
      after: BEFORE,
      edits: [edit("discount)\n\ndef refund", "discount)\n\n\ndef refund")],
      changes: [],
    },
  ];
  for (const c of cases) {
    const { content, symbols } = file(c.after);
    const before = snapshotFromEdits(symbols, c.edits, content);
    const changes = diffSymbols(PATH, before, symbols).map((d) => `${d.qualname} ${d.change}`);
    assert.deepEqual(changes, c.changes, c.name);
  }
});

Deno.test("snapshotFromEdits() keeps a symbol changed by an earlier edit of the same call changed", () => {
  const after = BEFORE.map((l) =>
    l.replace("sum(prices)", "float(sum(prices))").replace("-amount", "0 - amount")
  );
  const { content, symbols } = file(after);
  const before = snapshotFromEdits(symbols, [
    edit("sum(prices)", "float(sum(prices))"),
    edit("return -amount", "return 0 - amount"),
  ], content);
  assert.deepEqual(
    diffSymbols(PATH, before, symbols).map((d) => `${d.qualname} ${d.change}`),
    ["compute_total modified", "refund modified"],
  );
  assert.deepEqual(snapshotFromEdits(symbols, [edit("a", "b")], null), snapshotOf(symbols));
});

Deno.test("changeOf() places an insertion that could sit in several places where a diff would", () => {
  const { content } = file([
    ...BEFORE.slice(0, 9),
    "def credit(amount):",
    "    return amount",
    "",
    "",
    ...BEFORE.slice(9),
  ]);
  // Anchored on "def ": the greedy split would start inside credit's line and end in refund's.
  assert.deepEqual(
    changeOf(content, edit("def refund", "def credit(amount):\n    return amount\n\n\ndef refund")),
    {
      from: 10,
      to: 11,
      inserted: true,
    },
  );
});

Deno.test("symbolsInEdit() claims what the old text covers, everything for a write, nothing it cannot find", () => {
  const { content, symbols } = file(BEFORE);
  const names = (e: FileEdit) => symbolsInEdit(symbols, e, content).map((s) => s.name);
  assert.deepEqual(names(edit("    subtotal = sum(prices)", "x")), ["compute_total"]);
  assert.deepEqual(names(edit("discount)\n\n\ndef refund", "x")), ["compute_total", "refund"]);
  assert.deepEqual(names(edit(null, "whole new file")), [
    "apply_discount",
    "compute_total",
    "refund",
  ]);
  assert.deepEqual(names(edit("not in the file at all", "x")), [], "no guess at the whole file");
  assert.deepEqual(symbolsInEdit(symbols, edit(null, "x"), null), [], "a file not there yet");
});
