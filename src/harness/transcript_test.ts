import assert from "node:assert/strict";
import { join } from "node:path";
import {
  capSummary,
  firstUnread,
  lastAssistantMessage,
  SUMMARY_MAX_CHARS,
  transcriptTurns,
} from "./transcript.ts";

function file(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  Deno.writeTextFileSync(path, text);
  return path;
}

const jsonl = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

Deno.test("the agent's last message is read from each harness's transcript shape", () => {
  // [harness: what its transcript holds, file name, transcript, the last message]
  const cases: [string, string, string, string][] = [
    [
      "Claude Code: the last assistant entry with text; tool calls and thinking are not text",
      "cc.jsonl",
      jsonl(
        { type: "user", message: { role: "user", content: "Fix compute_total" } },
        {
          type: "assistant",
          message: { role: "assistant", content: [{ type: "text", text: "Looking at billing." }] },
        },
        {
          type: "assistant",
          message: {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "hmm" },
              { type: "text", text: "Clamped the discount; t::neg passes." },
              { type: "tool_use", name: "Bash", input: { command: "pytest" } },
            ],
          },
        },
        {
          type: "user",
          message: { role: "user", content: [{ type: "tool_result", content: "ok" }] },
        },
      ),
      "Clamped the discount; t::neg passes.",
    ],
    [
      "Codex rollout: response items",
      "rollout.jsonl",
      jsonl(
        { type: "session_meta", payload: { id: "x" } },
        {
          type: "response_item",
          payload: {
            type: "message",
            role: "assistant",
            content: [{ type: "output_text", text: "Patched apply_discount." }],
          },
        },
        { type: "event_msg", payload: { type: "token_count" } },
      ),
      "Patched apply_discount.",
    ],
    [
      "pi: session entries wrapping messages",
      "pi.jsonl",
      jsonl(
        { type: "session", id: "pi1" },
        {
          type: "message",
          message: { role: "assistant", content: [{ type: "text", text: "Done with the cart." }] },
        },
      ),
      "Done with the cart.",
    ],
    [
      "Gemini CLI: one JSON chat",
      "session.json",
      JSON.stringify({
        sessionId: "g",
        messages: [
          { type: "user", content: "Fix it" },
          { type: "gemini", content: "Rounded after discounting." },
          { type: "info", content: "Request cancelled." },
        ],
      }),
      "Rounded after discounting.",
    ],
    [
      "Cursor: a text transcript",
      "c.txt",
      "user:\nFix compute_total\n\nassistant:\nI will look.\n\nuser:\nGo on\n\nassistant:\nFixed the negative discount.\n",
      "Fixed the negative discount.",
    ],
  ];
  const dir = Deno.makeTempDirSync();
  try {
    for (const [what, name, text, want] of cases) {
      assert.equal(lastAssistantMessage(file(dir, name, text)), want, what);
    }
    assert.equal(lastAssistantMessage(join(dir, "missing.jsonl")), null);
    assert.equal(lastAssistantMessage(file(dir, "empty.jsonl", "")), null);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a long summary is cut at a sentence and marked", () => {
  const long = "This sentence is about the fix. ".repeat(200);
  const cut = capSummary(long)!;
  assert.ok(cut.length <= SUMMARY_MAX_CHARS);
  assert.match(cut, /fix\.…$/);
  assert.equal(capSummary("  short  "), "short");
  assert.equal(capSummary("   "), null);
});

Deno.test("firstUnread() tells new turns by their place in the file, or by count in one JSON document", () => {
  const turn = (at?: number) => ({
    role: "user" as const,
    text: "t",
    line: 1,
    ...(at === undefined ? {} : { at }),
  });
  // [what, turns, last place read, turns read, first unread]
  const cases: [
    string,
    ReturnType<typeof turn>[],
    number | undefined,
    number | undefined,
    number,
  ][] = [
    ["never scanned", [turn(0), turn(10)], undefined, undefined, 0],
    ["the read slid past the turns read: all are new", [turn(500), turn(600)], 20, 2, 0],
    ["one new turn after the last read", [turn(10), turn(20), turn(30)], 20, 3, 2],
    ["nothing new", [turn(10), turn(20)], 20, 2, 2],
    ["a shorter transcript is a new one", [turn(0), turn(5)], 900, 9, 0],
    ["a JSON document: by count", [turn(), turn(), turn()], undefined, 2, 2],
    ["a JSON document with fewer turns: new", [turn()], undefined, 2, 0],
    ["a state from before places were kept: by count", [turn(10), turn(20)], undefined, 1, 1],
  ];
  for (const [what, turns, lastAt, count, want] of cases) {
    assert.equal(firstUnread(turns, lastAt, count), want, what);
  }
});

Deno.test("transcriptTurns() gives each turn of a JSONL transcript its byte place in the file", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const rows = [
      { type: "user", message: { role: "user", content: "Fix the café's totals" } },
      { type: "assistant", message: { role: "assistant", content: "Done ✓" } },
    ];
    const path = file(dir, "t.jsonl", jsonl(...rows));
    const bytes = Deno.readFileSync(path);
    const turns = transcriptTurns(path);
    assert.deepEqual(turns.map((t) => t.at), [0, bytes.indexOf(0x0a) + 1]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
