import assert from "node:assert/strict";
import { activeAnchor } from "./anchors.ts";
import { newRow } from "./remember.ts";
import { loadMemories } from "./records.ts";
import { forget } from "./remember.ts";
import {
  EXPORT_HEADER,
  exportEnd,
  exportMemories,
  importMemories,
  keepMarks,
  parseMemoryLine,
} from "./transfer.ts";
import { Journal, upsertRoot } from "../store/mod.ts";
import { parseInstant } from "./time.ts";
import { MemoryInputError } from "./types.ts";
import { secretSamples } from "../../tests/secret_samples.ts";

const NOW = Date.UTC(2026, 11, 1);
/** The header of an export written before version 3: no end record follows. */
const V2 = JSON.stringify({ ...EXPORT_HEADER, version: 2 });
const DAY = 24 * 3600 * 1000;

/** A memory line as `heimdall export` writes it, with `patch` applied. */
/** Runs `body` on a fresh journal in a temporary folder, removed afterwards. */
function inJournal(body: (j: Journal) => void): void {
  const dir = Deno.makeTempDirSync();
  const j = Journal.open(`${dir}/journal.db`);
  try {
    body(j);
  } finally {
    j.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

function line(
  patch: Record<string, unknown> = {},
  anchorPatch: Record<string, unknown> = {},
  at = NOW - 10 * DAY,
) {
  const memory = newRow({
    id: "m0123456789",
    kind: "decision",
    text: "Discounts are clamped to [0, 1]",
    author: "ada",
    scope: "project",
  }, at);
  const anchor = activeAnchor({
    ord: 0,
    target: "file",
    original: "pkg/billing.py",
    path: "/r/pkg/billing.py",
    root: "/r",
    symbol: null,
    symbol_kind: null,
    name: "billing.py",
    node_id: null,
    struct_hash: null,
    shape: null,
    start_line: null,
    end_line: null,
  }, at);
  return JSON.stringify({ ...memory, ...patch, anchors: [{ ...anchor, ...anchorPatch }] });
}

/** A note's export line pointing at `path` (no hash, no size). */
function noteLine(path: string): string {
  return JSON.stringify({
    type: "note",
    title: "t",
    body: "b",
    keywords: "",
    created_ms: NOW - DAY,
    paths: [{ path, hash: null, size: null }],
  });
}

Deno.test("parseMemoryLine() accepts a line as export writes it", () => {
  const m = parseMemoryLine(line(), "f:2", NOW);
  assert.equal(m.id, "m0123456789");
  assert.equal(m.anchors.length, 1);
});

Deno.test("parseMemoryLine() refuses impossible times, naming the record, field and value", () => {
  const y5138 = Date.UTC(5138, 0, 1);
  const cases: [Record<string, unknown>, Record<string, unknown>, RegExp][] = [
    [
      { recorded_at: y5138 },
      {},
      /f:2: field "recorded_at" is 99972403200000 \(5138-01-01T00:00:00\.000Z, year 5138\)/,
    ],
    [{ updated_at: NOW + 2 * DAY }, {}, /field "updated_at" .*no later than now/],
    [{ valid_from: -1 }, {}, /field "valid_from" is -1/],
    [{ valid_to: y5138 }, {}, /field "valid_to" .*year 5138.*before the year 2100/],
    [{ last_seen_at: 1.5 }, {}, /field "last_seen_at" is 1\.5, expected whole milliseconds/],
    [{ valid_to: NOW - 20 * DAY }, {}, /field "valid_to" \(\d+\) is not after "valid_from"/],
    [{}, { state_at: y5138 }, /f:2, anchor 0: field "state_at" .*year 5138/],
  ];
  for (const [patch, anchorPatch, message] of cases) {
    assert.throws(() => parseMemoryLine(line(patch, anchorPatch), "f:2", NOW), (e: unknown) => {
      assert.ok(e instanceof MemoryInputError);
      assert.match(e.message, message);
      return true;
    });
  }
  // A valid time in the future is a plan, not an error; a day of clock skew is tolerated.
  parseMemoryLine(line({ valid_to: Date.UTC(2030, 0, 1), updated_at: NOW + DAY / 2 }), "f:2", NOW);
});

Deno.test("parseMemoryLine() refuses oversized fields and malformed tests", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ text: "x".repeat(65_537) }, /field "text" is 65537 characters long, at most 65536/],
    [{ author: "a".repeat(5_000) }, /field "author" is 5000 characters long, at most 4096/],
    [{ tests: "not json" }, /field "tests" is "not json", expected a JSON list/],
    [{ tests: "[1, 2]" }, /field "tests" .* expected a JSON list/],
    [{ outcome: "maybe" }, /field "outcome" is "maybe", expected one of failed, passed/],
    [{ id: "" }, /f:2: field "id" is "", expected an id/],
    [{ id: " m1" }, /f:2: field "id" is " m1", expected an id/],
    [{ count: -3 }, /f:2: field "count" is -3, expected a whole number of times, at least 1/],
    [{ count: 1.5 }, /f:2: field "count" is 1.5/],
    [{ status: "open" }, /f:2: a decision with outcome null and status "open", expected/],
    [{ kind: "attempt" }, /an attempt with outcome null and status null/],
    [{ kind: "attempt", outcome: "failed" }, /outcome "failed" and status null/],
    [{ kind: "attempt", outcome: "passed", status: "open" }, /outcome "passed" and status "open"/],
    [
      { kind: "attempt", outcome: "failed", status: "resolved" },
      /field "resolved_at" is null with status "resolved"/,
    ],
    [
      { kind: "attempt", outcome: "failed", status: "open", resolved_at: NOW - DAY },
      /field "resolved_at" is \d+ with status "open"/,
    ],
  ];
  for (const [patch, message] of cases) {
    assert.throws(() => parseMemoryLine(line(patch), "f:2", NOW), message);
  }
  assert.throws(
    () => parseMemoryLine(line({}, { state: "ok" }), "f:2", NOW),
    /anchor 0: field "state" is "ok", expected one of active, moved, orphaned/,
  );
  const many = JSON.parse(line());
  many.anchors = Array.from({ length: 257 }, () => many.anchors[0]);
  assert.throws(
    () => parseMemoryLine(JSON.stringify(many), "f:2", NOW),
    /257 anchors, at most 256/,
  );
});

Deno.test("importMemories() reads an export behind a byte-order mark, and exports joined end to end", () =>
  inJournal((j) => {
    const header = JSON.stringify(EXPORT_HEADER);
    const at = Date.now() - 10 * DAY; // import refuses times after this machine's clock
    const other = line({ id: "m9876543210", text: "Totals are rounded last" }, {}, at);
    const end = exportEnd(1, 0);
    const r = importMemories(
      j,
      `\uFEFF${header}\n${line({}, {}, at)}\n${end}\n${header}\n${other}\n${end}\n`,
      "f",
    );
    assert.deepEqual([r.added, r.unchanged, r.unchecked], [2, 0, 0]);
  }));

Deno.test("importMemories() of a newer copy keeps the forget, supersede and resolve marks made here", () =>
  inJournal((j) => {
    const header = V2;
    const now = Date.now(); // import refuses times after this machine's clock
    importMemories(j, `${header}\n${line({}, {}, now - 10 * DAY)}\n`, "a1");
    forget(j, "m0123456789", { author: "bob", now: now - 5 * DAY });
    // Elsewhere it was superseded later, by a copy that never saw the forget.
    const later = line(
      {
        superseded_at: now - 2 * DAY,
        superseded_by: "m9876543210",
        updated_at: now - 2 * DAY,
      },
      {},
      now - 10 * DAY,
    );
    assert.equal(importMemories(j, `${header}\n${later}\n`, "a2").updated, 1);
    const [m] = loadMemories(j, ["m0123456789"]);
    assert.deepEqual(
      [m!.forgotten_by, m!.forgotten_at, m!.superseded_by],
      ["bob", now - 5 * DAY, "m9876543210"],
    );
    // The same file again changes nothing.
    assert.equal(importMemories(j, `${header}\n${later}\n`, "a2").updated, 0);
  }));

Deno.test("keepMarks() keeps a resolution made here over an open newer copy", () => {
  const open = JSON.parse(line({ kind: "attempt", outcome: "failed", status: "open" }));
  const resolved = {
    ...open,
    status: "resolved",
    resolved_at: NOW - DAY,
    resolved_by: "mpass000000",
  };
  const merged = keepMarks(resolved, { ...open, count: 3, updated_at: NOW });
  assert.deepEqual(
    [merged.status, merged.resolved_by, merged.count],
    ["resolved", "mpass000000", 3],
  );
});

Deno.test("importMemories() refuses a fraction where the journal keeps a whole number, and two anchors with one ord, naming the line and field, writing nothing", () =>
  inJournal((j) => {
    const header = V2;
    const twoAnchors = JSON.parse(line({ id: "m2" }));
    twoAnchors.anchors.push({ ...twoAnchors.anchors[0], path: "/r/pkg/other.py" });
    const note = JSON.parse(noteLine("/r/pkg/billing.py"));
    note.paths[0].size = 10.5;
    const cases: [string, RegExp][] = [
      [
        line({ id: "m2" }, { ord: 0.5 }),
        /f:3, anchor 0: field "ord" is 0\.5, expected a whole number/,
      ],
      [line({ id: "m2" }, { start_line: 1.5 }), /f:3, anchor 0: field "start_line" is 1\.5/],
      [line({ id: "m2" }, { end_line: 1e300 }), /f:3, anchor 0: field "end_line" is 1e\+300/],
      [line({ id: "m2", count: 1e20 }), /f:3: field "count" is 100000000000000000000/],
      [JSON.stringify(twoAnchors), /f:3, anchor 1: field "ord" is 0, which an earlier anchor/],
      [JSON.stringify(note), /f:3, path 0: field "size" is 10\.5, expected a whole number/],
    ];
    for (const [bad, message] of cases) {
      assert.throws(
        () => importMemories(j, `${header}\n${line()}\n${bad}\n`, "f"),
        (e: unknown) => e instanceof MemoryInputError && message.test(e.message),
        bad,
      );
      assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM memories")!.n, 0);
      assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM notes")!.n, 0);
    }
  }));

Deno.test("importMemories() reads a version 1 export, and refuses a note whose path is not absolute", () =>
  inJournal((j) => {
    const v1 = JSON.stringify({ ...EXPORT_HEADER, version: 1 });
    assert.equal(importMemories(j, `${v1}\n${line()}\n`, "old").added, 1);
    const note = noteLine("src/a.ts");
    assert.throws(
      () => importMemories(j, `${V2}\n${note}\n`, "f"),
      /f:2, path 0: field "path" is "src\/a.ts", expected an absolute path/,
    );
    assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM notes")!.n, 0);
  }));

Deno.test("importMemories() moves a note's path onto the one root here of the same folder name, and adds a note once", () =>
  inJournal((j) => {
    upsertRoot(j, "/Users/b/code/shop", "max");
    const note = (path: string) =>
      JSON.stringify({
        type: "note",
        title: "Rounding",
        body: "Totals are rounded last",
        keywords: "money",
        created_ms: NOW - DAY,
        paths: [{ path, hash: "a".repeat(40), size: 10 }],
      });
    const text = `${V2}\n${note("/home/a/shop/src/total.ts")}\n`;
    const r = importMemories(j, text, "f");
    assert.deepEqual([r.notesAdded, r.notesUnchanged, r.rebased], [1, 0, 1]);
    assert.deepEqual(
      j.all<Record<string, unknown>>("SELECT path, hash, size FROM note_paths").map((r) => ({
        ...r,
      })),
      [
        { path: "/Users/b/code/shop/src/total.ts", hash: "a".repeat(40), size: 10 },
      ],
    );
    assert.deepEqual([importMemories(j, text, "f").notesUnchanged], [1]);
    // No root of that name: the path stays as written.
    importMemories(j, text.replace("Rounding", "Other").replaceAll("/shop/", "/till/"), "g");
    assert.equal(
      j.get<{ path: string }>("SELECT path FROM note_paths ORDER BY rowid DESC")!.path,
      "/home/a/till/src/total.ts",
    );
  }));

/** `n` URLs whose passwords redaction replaces by a longer mark (`[REDACTED:url_password]`). */
const urls = (n: number) => ("https://u:" + "k9d2m7q@h ").repeat(n);

Deno.test("parseMemoryLine() holds text, author and task to their limits as stored, secrets redacted", () => {
  // 20 characters each, 36 once redacted: within the limit as read, past it as stored.
  const longer = urls(3_000);
  assert.ok(longer.length <= 65_536);
  assert.throws(
    () => parseMemoryLine(line({ text: longer }), "f:2", NOW),
    /f:2: field "text" is 108000 characters long once its secrets are redacted, at most 65536/,
  );
  assert.throws(
    () => parseMemoryLine(line({ author: urls(150) }), "f:2", NOW),
    /field "author" is 5400 characters long once its secrets are redacted, at most 4096/,
  );
  assert.throws(
    () => parseMemoryLine(line({ task_id: urls(150) }), "f:2", NOW),
    /field "task_id" is 5400 characters long once its secrets are redacted/,
  );
  assert.throws(
    () => parseMemoryLine(line({ tests: JSON.stringify([urls(3_000)]) }), "f:2", NOW),
    /field "tests" is \d+ characters long once its secrets are redacted, at most 65536/,
  );
  // What fits once redacted is read, whatever its length as written.
  parseMemoryLine(line({ text: urls(1_800) }), "f:2", NOW);
  const key =
    ["-----BEGIN RSA PRIVATE" + " KEY-----", ...Array(1_200).fill("Ab3dE5gH7jK9mN1p".repeat(4))]
      .join("\n") + "\n-----END RSA PRIVATE" + " KEY-----";
  assert.ok(key.length > 65_536);
  assert.equal(parseMemoryLine(line({ text: key }), "f:2", NOW).text, key);
});

Deno.test("importMemories() refuses a note whose body outgrows its limit once redacted, writing nothing", () =>
  inJournal((j) => {
    const note = JSON.stringify({
      type: "note",
      title: "t",
      body: urls(3_000),
      keywords: "",
      created_ms: NOW - DAY,
      paths: [],
    });
    assert.throws(
      () => importMemories(j, `${V2}\n${line()}\n${note}\n`, "f"),
      /f:3: field "body" is 108000 characters long once its secrets are redacted, at most 65536/,
    );
    assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM memories")!.n, 0);
  }));

Deno.test("importMemories() redacts secrets in the author, task and who forgot it", () =>
  inJournal((j) => {
    const token = "gh" + "p_Zx9Kq2Lm8Np4Rs6Tv1Wy3Ab5Cd7Ef0GhIjKl";
    const at = Date.now() - 10 * DAY;
    const text = `${V2}\n${
      line(
        {
          author: `ada ${token}`,
          task_id: token,
          forgotten_at: at + DAY,
          forgotten_by: token,
        },
        {},
        at,
      )
    }\n`;
    assert.equal(importMemories(j, text, "f").redacted, 1);
    const [m] = loadMemories(j, ["m0123456789"]);
    assert.deepEqual(
      [m!.author, m!.task_id, m!.forgotten_by],
      ["ada [REDACTED:github_token]", "[REDACTED:github_token]", "[REDACTED:github_token]"],
    );
  }));

Deno.test("a valid time the command line accepts is one an import accepts, and the reverse", () => {
  const last = parseInstant("2099-12-31", "--valid-to", "end");
  parseMemoryLine(line({ valid_to: last }), "f:2", NOW);
  assert.throws(() => parseMemoryLine(line({ valid_to: last + 1 }), "f:2", NOW), /year 2100/);
  assert.throws(() => parseInstant("2100-01-01", "--valid-to"), /from 1970-01-01 to 2099-12-31/);
});

Deno.test("importMemories() of the same export again reports it unchanged, though its anchors were moved onto a root here and its secrets redacted", () =>
  inJournal((j) => {
    upsertRoot(j, "/Users/b/code/r", "max");
    const secret = secretSamples().find((s) => s.kind === "github_token")!;
    const text = `${V2}\n${line({ text: `Deploys use ${secret.line}` })}\n`;
    const first = importMemories(j, text, "f");
    assert.deepEqual(
      [first.added, first.rebased, first.redacted],
      [1, 1, 1],
    );
    const again = importMemories(j, text, "f");
    assert.deepEqual(
      [again.added, again.updated, again.unchanged, again.kept, again.rebased, again.redacted],
      [0, 0, 1, 0, 0, 0],
    );
  }));

Deno.test("importMemories() refuses a secret in a field that links or places a record, naming the record and field, and writes nothing", () =>
  inJournal((j) => {
    const token = secretSamples().find((s) => s.kind === "github_token")!.line;
    const header = V2;
    const note = noteLine(`/r/${token}.ts`);
    const cases: [string, RegExp][] = [
      [
        line({ superseded_by: token }),
        /f:2: field "superseded_by" holds a secret \(github_token\)/,
      ],
      [line({ id: token.replace(/\s/g, "") }), /f:2: field "id" holds a secret/],
      [line({}, { original: `pkg/${token}` }), /f:2, anchor 0: field "original" holds a secret/],
      [line({}, { moved_from: `/r/${token}` }), /f:2, anchor 0: field "moved_from" holds a secret/],
      [note, /f:2, path 0: field "path" holds a secret/],
    ];
    for (const [record, message] of cases) {
      assert.throws(() => importMemories(j, `${header}\n${record}\n`, "f"), message);
    }
    assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM memories")!.n, 0);
    assert.equal(j.get<{ n: number }>("SELECT count(*) AS n FROM notes")!.n, 0);
    // Free text keeps being redacted, not refused.
    assert.equal(
      importMemories(j, `${header}\n${line({ text: `use ${token}` })}\n`, "f").redacted,
      1,
    );
  }));

Deno.test("importMemories() refuses an export cut short at any line boundary, or with a line lost, naming the file, and writes nothing", () =>
  inJournal((from) => {
    const at = Date.now() - 10 * DAY;
    const records = [
      line({}, {}, at),
      line({ id: "m9876543210", text: "Totals are rounded last" }, {}, at + 1),
    ];
    const whole = `${JSON.stringify(EXPORT_HEADER)}\n${records.join("\n")}\n${exportEnd(2, 0)}\n`;
    importMemories(from, whole, "whole");
    const exported = [...exportMemories(from)];
    assert.equal(exported.at(-1), exportEnd(2, 0), "an export ends with its count");
    const count = (j: Journal) => j.get<{ n: number }>("SELECT count(*) AS n FROM memories")!.n;
    inJournal((j) => {
      // Every cut at a line boundary, short of the whole file: a partial copy or download.
      for (let keep = 1; keep < exported.length; keep++) {
        const cut = exported.slice(0, keep).join("\n") + "\n";
        assert.throws(
          () => importMemories(j, cut, "backup.jsonl"),
          /^MemoryInputError: backup\.jsonl: the export that starts at line 1 stops at line \d+ without the end record .*cut short.*nothing was imported: export it again, or copy the whole file/,
          `cut after ${keep} lines`,
        );
      }
      // Cut in the middle of the last line, as a download stops.
      const mid = exported.join("\n").slice(0, -10);
      assert.throws(
        () => importMemories(j, mid, "backup.jsonl"),
        /backup\.jsonl:4: the last line stops in the middle of a record .*cut short/,
      );
      // A record lost from the middle: the count says so.
      const lost = [exported[0], exported[2], exported[3]].join("\n") + "\n";
      assert.throws(
        () => importMemories(j, lost, "backup.jsonl"),
        /backup\.jsonl:3: the end record counts 2 memories and 0 notes, but the export before it \(from line 1\) holds 1 memory and 0 notes: lines were lost/,
      );
      // A record after the end: not what export wrote.
      const after = [...exported, exported[1]].join("\n") + "\n";
      assert.throws(() => importMemories(j, after, "f"), /f:5: a record after the end record/);
      // Joined end to end, the second part cut: refused too.
      const joined = [...exported, ...exported.slice(0, 2)].join("\n") + "\n";
      assert.throws(
        () => importMemories(j, joined, "f"),
        /f: the export that starts at line 5 stops at line 7 without the end record/,
      );
      assert.equal(count(j), 0, "nothing was imported");
      const r = importMemories(j, exported.join("\n") + "\n", "f");
      assert.deepEqual([r.added, r.unchecked], [2, 0]);
    });
    // An export of an earlier version has no end record: read, said unchecked.
    inJournal((j) => {
      const old = `${V2}\n${records[0]}\n`;
      assert.deepEqual(
        [importMemories(j, old, "old").added, importMemories(j, old, "old").unchecked],
        [1, 1],
      );
    });
  }));
