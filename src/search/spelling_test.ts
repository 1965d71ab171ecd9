import assert from "node:assert/strict";
import { otherSpellings } from "./spelling.ts";

Deno.test("otherSpellings() gives the other side of each regular British/American ending", () => {
  const cases: [string, string][] = [
    ["serialise", "serialize"],
    ["initialised", "initialized"],
    ["organisation", "organization"],
    ["optimisers", "optimizers"],
    ["normalize", "normalise"],
    ["analyse", "analyze"],
    ["paralyzed", "paralysed"],
    ["colour", "color"],
    ["behaviours", "behaviors"],
    ["favoured", "favored"],
    ["centre", "center"],
    ["metres", "meters"],
    ["fibre", "fiber"],
    ["licence", "license"],
    ["defense", "defence"],
    ["catalogue", "catalog"],
    ["dialogs", "dialogues"],
    ["judgement", "judgment"],
    ["acknowledgments", "acknowledgements"],
  ];
  for (const [word, other] of cases) assert.ok(otherSpellings(word).includes(other), word);
});

Deno.test("otherSpellings() leaves words of four letters and words with no such ending alone", () => {
  for (const word of ["four", "your", "hour", "tour", "parse", "request", "index", "graph"]) {
    assert.deepEqual(otherSpellings(word), [], word);
  }
});
