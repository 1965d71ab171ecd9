import assert from "node:assert/strict";
import { meant, nearest } from "./nearest.ts";

const COMMANDS = ["search", "symbols", "blast-radius", "remember", "reconcile", "roots", "ui"];

Deno.test("meant() names the word a slip was meant to be, and nothing for a word that is no slip", () => {
  const cases: [string, string[], string | undefined][] = [
    ["serach", COMMANDS, "search"], // two letters swapped
    ["seach", COMMANDS, "search"], // one left out
    ["searchh", COMMANDS, "search"], // one too many
    ["Search", COMMANDS, "search"], // case
    ["blast", COMMANDS, "blast-radius"], // the start of one name
    ["r", COMMANDS, undefined], // one letter: anything is two edits away
    ["re", COMMANDS, undefined], // the start of several
    ["frobnicate", COMMANDS, undefined],
    ["kidn", ["kind", "about", "text"], "kind"],
    ["limt", ["limit", "json"], "limit"],
    ["", COMMANDS, undefined],
    ["search", [], undefined],
  ];
  for (const [word, candidates, want] of cases) {
    assert.equal(meant(word, candidates), want, word);
  }
});

Deno.test("nearest() always names the closest candidate, the first of equals", () => {
  assert.equal(nearest("maxFileByte", ["maxFileBytes", "batchSize"]), "maxFileBytes");
  assert.equal(nearest("zz", ["ab", "cd"]), "ab");
  assert.equal(nearest("x", []), "");
});
