import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import { createExtractor } from "../extract/mod.ts";
import { Reconciler } from "../reconcile/reconciler.ts";
import { Journal } from "../store/mod.ts";
import { BODY_MAX, firstSentence, PROSE_MAX, vocabPairs, vocabWords } from "./vocab.ts";
import { learnedAssociations } from "../search/vocab_lookup.ts";
import { configuredTuning, DEFAULT_TUNING } from "../search/rank.ts";
import { indexText, stem } from "./words.ts";
import { assertCases } from "../../tests/cases.ts";

Deno.test("firstSentence() stops at a full stop, a blank line or a field, and drops links and code", () => {
  assertCases(firstSentence, [
    ["Opens the file. Then reads it.", "Opens the file"],
    ["Opens the\nfile\n\nLong text.", "Opens the file"],
    ["Reads a header\n@param line the line", "Reads a header"],
    ["Reads a header\nArgs:\n  line: the line", "Reads a header"],
    [":param line: the line", ""],
    ["See https://example.com/a.b for `x.y` details", "See   for   details"],
    ["Follows the [protocol](https://mdn.io/x) closely", "Follows the [protocol  closely"],
    ["Version 1.2 of the format", "Version 1.2 of the format"],
  ]);
});

Deno.test("vocabWords() pairs a doc comment's first sentence with the name, signature and body", () => {
  const cases: [
    Parameters<typeof vocabWords>[0],
    { prose: string[]; code: string[] } | undefined,
  ][] = [
    [
      {
        name: "swap_in",
        signature: "void swap_in(struct page *src, struct page *dst)",
        doc: "Translate the page from external to internal representation.\n\n@param src the page",
        body: indexText(
          "{ memcpy(dst->data, src->data, PAGE_SIZE); dst->flags = internalFlags(src); }",
        ),
      },
      {
        prose: ["translat", "page", "extern", "intern", "represent"],
        code: ["swap", "page", "src", "dst", "data", "flag", "memcpi", "size"],
      },
    ],
    // The symbol's own name and identifier-shaped words are not prose.
    [
      {
        name: "Seek",
        signature: "func (fd *FD) Seek(offset int64) error",
        doc: "Seek wraps syscall.Seek.",
      },
      { prose: ["wrap", "syscal"], code: ["seek", "fd", "offset", "error"] },
    ],
    [
      { name: "getFileInfo", signature: null, doc: "GetFileInfo returns FileInfo." },
      undefined,
    ],
    // A docstring inside the body is not taken for code.
    [
      {
        name: "parse_header",
        signature: "def parse_header(line):",
        doc: "Splits one header line into its name and value.",
        body: indexText(
          '"""Splits one header line into its name and value."""\nname, _, value = line.partition(":")',
        ),
      },
      { prose: ["split", "header", "line", "name"], code: ["pars", "header", "line", "partit"] },
    ],
    [{ name: "x", signature: null, doc: null }, undefined],
    [{ name: "x", signature: null, doc: "The." }, undefined],
  ];
  for (const [sym, want] of cases) assert.deepEqual(vocabWords(sym), want, sym.name);
});

Deno.test("vocabWords() is bounded however long the doc and body", () => {
  const words = Array.from(
    { length: 200 },
    (_, i) => "w" + "abcdefghij"[i % 10]!.repeat(1 + i / 10),
  );
  const set = vocabWords({
    name: "f",
    signature: null,
    doc: words.join(" "),
    body: indexText(words.map((w) => "x" + w + "Id").join(" ")),
  })!;
  assert.equal(set.prose.length, PROSE_MAX);
  assert.equal(set.code.length, BODY_MAX);
});

Deno.test("vocabPairs() pairs every prose stem with every code stem but itself", () => {
  assert.deepEqual(
    vocabPairs({ name: "hashPassword", signature: null, doc: "Hashes a password." }),
    [["hash", "password"], ["password", "hash"]],
  );
  assert.deepEqual(vocabPairs({ name: "f", signature: null, doc: null }), []);
});

/** Documented functions about passwords (users, auth), and about other things. */
function corpus(): Record<string, string> {
  const files: Record<string, string> = {};
  const password = [
    [
      "checkPassword",
      "Checks the password of a user",
      "user, typed",
      "return auth.verify(user.name, typed)",
    ],
    ["resetPassword", "Resets a forgotten password", "user", "auth.revoke(user); mail(user.email)"],
    [
      "hashPassword",
      "Hashes a password before storing it",
      "plain, user",
      "return auth.digest(user.salt + plain)",
    ],
    [
      "validatePassword",
      "Validates password strength rules",
      "user, candidate",
      "auth.rules(user).every((r) => r(candidate))",
    ],
    [
      "changePassword",
      "Changes the password after checking the old one",
      "user, old, next",
      "auth.verify(user.name, old) && auth.store(user, next)",
    ],
  ];
  const other = [
    ["formatDate", "Formats a date for display", "date", "return date.toISOString()"],
    ["parseDate", "Parses a date string", "text", "return new Date(text)"],
    ["readConfig", "Reads the configuration file", "path", "return fs.readFileSync(path)"],
    ["writeConfig", "Writes the configuration file", "path, data", "fs.writeFileSync(path, data)"],
    ["sumValues", "Adds up numbers in a list", "list", "return list.reduce((a, b) => a + b, 0)"],
    [
      "sortItems",
      "Sorts items by weight",
      "items",
      "return items.sort((a, b) => a.weight - b.weight)",
    ],
    ["drawCircle", "Draws a circle on the canvas", "ctx, r", "ctx.arc(0, 0, r, 0, 7)"],
    ["drawSquare", "Draws a square on the canvas", "ctx, s", "ctx.rect(0, 0, s, s)"],
    ["sendMail", "Sends an email message", "to, body", "smtp.send(to, body)"],
    ["openSocket", "Opens a network socket", "host, port", "return net.connect(port, host)"],
    [
      "clampNumber",
      "Limits a number to a range",
      "n, lo, hi",
      "return Math.min(hi, Math.max(lo, n))",
    ],
    [
      "retryCall",
      "Retries a failing call with backoff",
      "fn, tries",
      "for (let i = 0; i < tries; i++) fn()",
    ],
  ];
  [...password, ...other].forEach(([name, doc, params, body], i) => {
    files[`src/f${i}.ts`] = `/** ${doc}. */\nexport function ${name}(${params}) {\n  ${body};\n}\n`;
  });
  return files;
}

Deno.test("learnedAssociations() finds the code words the project's own docs pair with a prose word", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-vocab-lookup-" });
  const root = join(base, "repo");
  for (const [rel, content] of Object.entries(corpus())) {
    Deno.mkdirSync(join(root, rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(root, rel), content);
  }
  const home = homePaths(join(base, "home"));
  const j = Journal.open(home.journal);
  try {
    const config = {
      ...defaultConfig(),
      roots: [{ path: root, depth: "max" as const }],
      vocabularyWeight: 0.03,
    };
    // The weight reaches search's ranking, and the index learns what it reads.
    assert.equal(configuredTuning(config).learnedWeight, 0.03);
    assert.equal(configuredTuning(defaultConfig()), DEFAULT_TUNING);
    const r = new Reconciler(j, home, config, createExtractor());
    r.syncRoots();
    await r.audit();
    const learned = learnedAssociations(j, ["password"]);
    assert.ok((learned.get(stem("user")) ?? 0) > 0, JSON.stringify([...learned]));
    assert.ok((learned.get("auth") ?? 0) > 0, JSON.stringify([...learned]));
    assert.ok(!learned.has("password"), "the query's own stem is not returned");
    assert.ok(!learned.has("date") && !learned.has("canva"), JSON.stringify([...learned]));
    // Weights are summed over the query's words; unknown and stop words add nothing.
    const both = learnedAssociations(j, ["the", "password", "zebra"]);
    assert.deepEqual(both, learned);
    assert.equal(learnedAssociations(j, ["password"], { minLift: 1000 }).size, 0);
    assert.equal(learnedAssociations(j, ["canvas"]).size, 0, "documented by two symbols only");
  } finally {
    j.close();
    Deno.removeSync(base, { recursive: true });
  }
});
