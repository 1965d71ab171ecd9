import assert from "node:assert/strict";
import { captureCandidates, type Turn } from "./personal.ts";

Deno.test("captureCandidates finds the person's standing rules, preferences, decisions and corrections, with their lines", () => {
  const turns: Turn[] = [
    {
      role: "user",
      line: 1,
      text:
        "Fix the cart total. From now on, run ruff before every commit.\nWe use pytest, not unittest.",
    },
    { role: "assistant", line: 4, text: "I'll always keep that in mind. Never mind the flake." },
    {
      role: "user",
      line: 7,
      text:
        "No, the discount is applied after tax.\nCan you always squash commits?\n```\n# never edit generated files\n```\n    always indented code\n> never quoted",
    },
    {
      role: "user",
      line: 15,
      text: "Let's go with SQLite for the cache. Don't add new dependencies.",
    },
    { role: "user", line: 16, text: "ok" },
    { role: "user", line: 17, text: "Always." },
  ];
  const found = captureCandidates(turns, "/t/cc.jsonl");
  assert.deepEqual(
    found.map((c) => [c.kind, c.text, c.source, c.confidence]),
    [
      ["rule", "From now on, run ruff before every commit.", "/t/cc.jsonl:1", 0.9],
      ["preference", "We use pytest, not unittest.", "/t/cc.jsonl:2", 0.8],
      ["correction", "No, the discount is applied after tax.", "/t/cc.jsonl:7", 0.55],
      ["decision", "Let's go with SQLite for the cache.", "/t/cc.jsonl:15", 0.75],
      ["rule", "Don't add new dependencies.", "/t/cc.jsonl:15", 0.75],
    ],
    "assistant text, questions, code, quotes and one-word replies are not rules",
  );
});

Deno.test("a correction counts only when it answers the assistant", () => {
  const alone: Turn[] = [{ role: "user", line: 1, text: "No, that is wrong and it stays wrong." }];
  assert.deepEqual(captureCandidates(alone, "f"), []);
  const answering: Turn[] = [
    { role: "assistant", line: 1, text: "Done: I rounded first." },
    { role: "user", line: 2, text: "That's wrong, round after the discount." },
  ];
  assert.deepEqual(captureCandidates(answering, "f").map((c) => c.kind), ["correction"]);
});
