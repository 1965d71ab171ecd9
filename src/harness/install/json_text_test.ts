import assert from "node:assert/strict";
import { ConfigEditError, formatJsonDoc, parseJsonDoc } from "./json_file.ts";
import { editJsonText, JsonDuplicateKeyError } from "./json_text.ts";

/** Parses `text`, lets `edit` change the value, writes it back as init does. */
function edited(text: string, edit: (v: Record<string, unknown>) => void): string {
  const doc = parseJsonDoc("/x.json", text);
  edit(doc.value);
  return formatJsonDoc(doc);
}

const HOOK = { hooks: [{ type: "command", command: "heimdall hook --harness claude-code" }] };

Deno.test("formatJsonDoc() keeps every value's text: large numbers, decimals, escapes, compact arrays", () => {
  const text = '{\n  "n": 12345678901234567890,\n  "f": 1.0,\n  "e": 1E2,\n' +
    '  "s": "caf\\u00e9 \\/",\n  "list": [1,2,3],\n  "o": {"a":1},\n  "hooks": {}\n}\n';
  const out = edited(text, (v) => {
    (v.hooks as Record<string, unknown>).Stop = [HOOK];
  });
  assert.equal(
    out,
    text.replace(
      '"hooks": {}',
      '"hooks": {\n    "Stop": [\n      {\n        "hooks": [\n          {\n' +
        '            "type": "command",\n            "command": "heimdall hook --harness claude-code"\n' +
        "          }\n        ]\n      }\n    ]\n  }",
    ),
  );
  // Taking it out again gives the file back byte for byte.
  assert.equal(edited(out, (v) => delete (v.hooks as Record<string, unknown>).Stop), text);
});

Deno.test("formatJsonDoc() adds to a list and an object in their own layout, and removes without a trace", () => {
  const text =
    '{\n\t"hooks": {\n\t\t"Stop": [\n\t\t\t{"command": "notify-send done"}\n\t\t]\n\t}\n}';
  const out = edited(text, (v) => {
    const hooks = v.hooks as Record<string, unknown[]>;
    hooks.Stop!.push({ command: "heimdall" });
    hooks.Start = [{ command: "heimdall" }];
  });
  assert.equal(
    out,
    '{\n\t"hooks": {\n\t\t"Stop": [\n\t\t\t{"command": "notify-send done"},\n' +
      '\t\t\t{\n\t\t\t\t"command": "heimdall"\n\t\t\t}\n\t\t],\n' +
      '\t\t"Start": [\n\t\t\t{\n\t\t\t\t"command": "heimdall"\n\t\t\t}\n\t\t]\n\t}\n}',
  );
  const back = edited(out, (v) => {
    const hooks = v.hooks as Record<string, unknown[]>;
    hooks.Stop!.pop();
    delete hooks.Start;
  });
  assert.equal(back, text);
});

Deno.test("formatJsonDoc() writes into a one-line file on its one line", () => {
  const text = '{"numStartups":12,"big":9007199254740993,"mcpServers":{"gh":{"command":"npx"}}}\n';
  const out = edited(text, (v) => {
    (v.mcpServers as Record<string, unknown>).heimdall = { command: "h", args: ["mcp"] };
  });
  assert.equal(
    out,
    '{"numStartups":12,"big":9007199254740993,"mcpServers":{"gh":{"command":"npx"},' +
      '"heimdall":{"command":"h","args":["mcp"]}}}\n',
  );
  const spaced = edited('{ "a": 1 }', (v) => v.b = [2]);
  assert.equal(spaced, '{ "a": 1, "b": [2] }');
});

Deno.test("formatJsonDoc() edits inside a changed item of a list, keeping its other members", () => {
  const text = '{"hooks": {"Pre": [\n  {"matcher": "Bash", "hooks": [{"command": "guard"}, ' +
    '{"command": "heimdall hook"}], "x": 1.50}\n]}}';
  const out = edited(text, (v) => {
    const group = (v.hooks as Record<string, Record<string, unknown[]>[]>).Pre![0]!;
    group.hooks = group.hooks!.slice(0, 1);
  });
  assert.equal(
    out,
    '{"hooks": {"Pre": [\n  {"matcher": "Bash", "hooks": [{"command": "guard"}], "x": 1.50}\n]}}',
  );
});

Deno.test("formatJsonDoc() refuses to rewrite an object that has a key twice", () => {
  const text = '{"a": 1, "a": 2}';
  assert.throws(
    () => edited(text, (v) => v.b = 1),
    (e) => e instanceof ConfigEditError && /has the key "a" twice/.test(e.message),
  );
  // An object the edit does not touch keeps its text, duplicates and all.
  assert.equal(
    edited('{"x": {"a": 1, "a": 2}}', (v) => v.y = 1),
    '{"x": {"a": 1, "a": 2}, "y": 1}',
  );
  assert.throws(
    () => editJsonText(text, JSON.parse(text), { a: 3 }, 2),
    JsonDuplicateKeyError,
  );
});

Deno.test("formatJsonDoc() writes a new file with two-space indentation", () => {
  assert.equal(edited("", (v) => v.a = [1]), '{\n  "a": [\n    1\n  ]\n}\n');
  assert.equal(edited("{}\n", (v) => v.a = 1), '{\n  "a": 1\n}\n');
});

Deno.test("a config file that begins with a byte-order mark is read past it and written back with it", () => {
  // Notepad and other Windows editors write one; the harness reads past it, so must Heimdall.
  const text = '\uFEFF{\n    "theme": "dark"\n}\n';
  const doc = parseJsonDoc("settings.json", text);
  assert.equal(doc.value.theme, "dark");
  doc.value.hooks = { Stop: [] };
  assert.equal(
    formatJsonDoc(doc),
    '\uFEFF{\n    "theme": "dark",\n    "hooks": {\n        "Stop": []\n    }\n}\n',
  );
  const blank = parseJsonDoc("settings.json", "\uFEFF\n");
  blank.value.theme = "dark";
  assert.equal(formatJsonDoc(blank), '\uFEFF{\n  "theme": "dark"\n}\n');
});
