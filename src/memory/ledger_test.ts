import assert from "node:assert/strict";
import { type LedgerEntry, memoryLost } from "./ledger.ts";

const ledger = (entries: [string, number, number][]) =>
  new Map<string, LedgerEntry>(entries.map(([id, updated, anchors]) => [id, { updated, anchors }]));

Deno.test("memoryLost() names memories gone or stripped of anchors, never ones added or changed meanwhile", () => {
  const before = ledger([["a", 1, 2], ["b", 1, 1], ["c", 1, 3]]);
  const cases: [string, Map<string, LedgerEntry>, string[]][] = [
    ["the same", ledger([["a", 1, 2], ["b", 1, 1], ["c", 1, 3]]), []],
    [
      "one added by another process",
      ledger([["a", 1, 2], ["b", 1, 1], ["c", 1, 3], ["d", 5, 1]]),
      [],
    ],
    ["one gone", ledger([["a", 1, 2], ["c", 1, 3]]), ["b"]],
    ["anchors dropped, unchanged", ledger([["a", 1, 1], ["b", 1, 1], ["c", 1, 3]]), ["a"]],
    ["anchors replaced by a newer copy", ledger([["a", 7, 1], ["b", 1, 1], ["c", 1, 3]]), []],
    ["anchors added", ledger([["a", 1, 4], ["b", 1, 1], ["c", 1, 3]]), []],
  ];
  for (const [what, after, lost] of cases) assert.deepEqual(memoryLost(before, after), lost, what);
});
