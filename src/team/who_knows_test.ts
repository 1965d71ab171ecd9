import assert from "node:assert/strict";
import { type Evidence, rankPeople } from "./who_knows.ts";

const e = (person: string, kind: string, hops: number, symbol = "f", at = 0): Evidence => ({
  person,
  kind,
  hops,
  symbol,
  at,
});

Deno.test("rankPeople() weighs decisions over attempts over claims, halved per hop", () => {
  const ranked = rankPeople([
    e("claimer", "claim", 0),
    e("decider", "decision", 0),
    e("tryer", "attempt", 0),
    e("far", "decision", 2, "g"),
    e("tryer", "claim", 1, "g"),
  ]);
  assert.deepEqual(ranked.map((x) => [x.person, x.score]), [
    ["decider", 3],
    ["tryer", 2.5],
    ["claimer", 1],
    ["far", 0.75],
  ]);
  assert.deepEqual(ranked[1]!.about, ["f", "g"]);
  assert.equal(ranked[1]!.attempts, 1);
  assert.equal(ranked[1]!.claims, 1);
});

Deno.test("rankPeople() breaks ties by the latest evidence, then by name", () => {
  const ranked = rankPeople([
    e("b", "claim", 0, "f", 1),
    e("a", "claim", 0, "f", 1),
    e("c", "claim", 0, "f", 9),
  ]);
  assert.deepEqual(ranked.map((x) => x.person), ["c", "a", "b"]);
  assert.deepEqual(rankPeople([]), []);
});
