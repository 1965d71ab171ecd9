/**
 * What memory commands print and write out: text from memory never drives
 * the terminal, and an export is as private as the journal it comes from.
 * Real repositories in temp folders, the real CLI in subprocesses.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, indexedTree, MAIN, PERMS, tempDir } from "./helpers.ts";
import { Journal } from "../src/store/mod.ts";

const ENV = { HEIMDALL_AUTHOR: "alice" };
/** A window title change, a bell and a screen clear: what a hostile text would send a terminal. */
const ESCAPES = "\x1b]0;pwned\x07\x1b[2J";
const SHOWN = String.raw`\x1b]0;pwned\x07\x1b[2J`;

const indexedRepo = () =>
  indexedTree({ "src/util.ts": "export function formatBytes(n: number) {\n  return n;\n}\n" });

/** True when `text` holds a control character other than a newline. */
// deno-lint-ignore no-control-regex
const hasControl = (text: string) => /[\x00-\x09\x0b-\x1f\x7f]/.test(text);

Deno.test("why, history, remember, attempt and insert print control characters from memory as visible escapes", async () => {
  const { repo, home } = await indexedRepo();
  const env = { HEIMDALL_AUTHOR: `mallory${ESCAPES}` };
  const outputs: string[] = [];
  const run = async (args: string[]) => {
    const r = await cli(home, args, { cwd: repo, env });
    assert.equal(r.code, 0, r.stderr);
    outputs.push(r.stdout);
    return r.stdout;
  };
  await run([
    "remember",
    "--kind",
    "note",
    "--about",
    "src/util.ts",
    "--task",
    `T${ESCAPES}`,
    `first line ${ESCAPES}\nsecond line`,
  ]);
  await run([
    "attempt",
    "--about",
    "src/util.ts",
    "--failed",
    "--tests",
    `test${ESCAPES}`,
    `it broke ${ESCAPES}`,
  ]);
  const why = await run(["why", "src/util.ts"]);
  const history = await run(["history", "src/util.ts"]);
  await run(["insert", "--title", `how ${ESCAPES}`, "--body", "b"]);
  for (const out of outputs) assert.ok(!hasControl(out), JSON.stringify(out));
  assert.match(why, new RegExp(`first line ${escapeRe(SHOWN)}\n\\s+second line`));
  for (const out of [why, history]) {
    assert.ok(out.includes(`mallory${SHOWN}`), out);
    assert.ok(out.includes(`task T${SHOWN}`), out);
    assert.ok(out.includes(`tests test${SHOWN}`), out);
    assert.ok(out.includes(`it broke ${SHOWN}`), out);
  }
  assert.ok(outputs.at(-1)!.includes(`how ${SHOWN}`), outputs.at(-1));
  // JSON output keeps the text as it is, escaped by JSON.
  const json = await run(["why", "src/util.ts", "--json"]);
  const texts = JSON.parse(json).current.map((m: { text: string }) => m.text);
  assert.ok(texts.includes(`first line ${ESCAPES}\nsecond line`), texts);
});

Deno.test("review and reflect print control characters from statements and memories as visible escapes", async () => {
  const { base, repo, home } = await indexedRepo();
  Deno.mkdirSync(join(repo, ".git"));
  const env = { ...ENV, HEIMDALL_DISTILLER: join(base, "distill.sh") };
  Deno.writeTextFileSync(
    env.HEIMDALL_DISTILLER,
    `#!/bin/sh\nprintf '0.8\\tNever log colours like ${ESCAPES} in the output\\n'\n`,
  );
  Deno.chmodSync(env.HEIMDALL_DISTILLER, 0o755);
  const transcript = join(base, "t.jsonl");
  Deno.writeTextFileSync(transcript, "{}\n");
  const run = async (args: string[]) => {
    const r = await cli(home, args, { cwd: repo, env });
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  await run(["review", "distill", transcript, "--project", repo]);
  await run(["remember", "--kind", "decision", "--about", "src/util.ts", `keep ${ESCAPES} out`]);
  const outputs = [
    await run(["review"]),
    await run(["reflect", repo, "--dry-run"]),
    await run(["reflect", repo]),
  ];
  for (const out of outputs) assert.ok(!hasControl(out), JSON.stringify(out));
  assert.ok(outputs[0]!.includes(`Never log colours like ${SHOWN} in the output`), outputs[0]);
  for (const out of outputs.slice(1)) assert.ok(out.includes(`keep ${SHOWN} out`), out);
  // JSON output keeps the text as it is.
  const page = JSON.parse(await run(["reflect", repo, "--dry-run", "--json"])).text as string;
  assert.ok(page.includes(`keep ${ESCAPES} out`), page);
  const queued = JSON.parse(await run(["review", "--json"])).candidates[0].text as string;
  assert.equal(queued, `Never log colours like ${ESCAPES} in the output`);
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

Deno.test("export --out writes a file its owner alone may read, new or replaced", {
  ignore: Deno.build.os === "windows",
}, async () => {
  const { base, repo, home } = await indexedRepo();
  const r = await cli(home, ["remember", "--kind", "note", "--about", "src/util.ts", "x"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(r.code, 0, r.stderr);
  const fresh = join(base, "fresh.jsonl");
  const old = join(base, "old.jsonl");
  Deno.writeTextFileSync(old, "an older, shared export\n");
  Deno.chmodSync(old, 0o644);
  for (const out of [fresh, old]) {
    const e = await cli(home, ["export", "--out", out]);
    assert.equal(e.code, 0, e.stderr);
    assert.equal(Deno.statSync(out).mode! & 0o777, 0o600, out);
    assert.match(Deno.readTextFileSync(out), /^\{"type":"heimdall-memory"/);
  }
});

Deno.test(
  "export --out refuses the journal and its side files, also through a link, and leaves every memory there",
  {
    ignore: Deno.build.os === "windows",
  },
  async () => {
    const { base, repo, home } = await indexedRepo();
    const r = await cli(
      home,
      ["remember", "--kind", "decision", "--about", "src/util.ts", "keep"],
      {
        cwd: repo,
        env: ENV,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    const link = join(base, "backup.jsonl");
    Deno.symlinkSync(join(home, "journal.db"), link);
    for (const out of [join(home, "journal.db"), join(home, "journal.db-wal"), link]) {
      const e = await cli(home, ["export", "--out", out]);
      assert.equal(e.code, 2, e.stderr);
      assert.match(e.stderr, /it is Heimdall's own file in .*; pass a file outside it/);
    }
    const h = await cli(home, ["history", "src/util.ts"], { cwd: repo });
    assert.equal(h.code, 0, h.stderr);
    assert.match(h.stdout, /keep/);
  },
);

Deno.test(
  "an export that cannot be written whole exits 3 and leaves the earlier export as it was",
  {
    ignore: Deno.build.os === "windows",
  },
  async () => {
    const { base, repo, home } = await indexedRepo();
    for (const word of ["alpha", "beta"]) {
      const text = `${word} `.repeat(8_000);
      const r = await cli(home, ["remember", "--kind", "note", "--about", "src/util.ts", text], {
        cwd: repo,
        env: ENV,
      });
      assert.equal(r.code, 0, r.stderr);
    }
    const out = join(base, "backup.jsonl");
    Deno.writeTextFileSync(out, "the export of yesterday\n");
    // A file size limit of 64 KiB (the export is about 100 KiB), its signal
    // ignored so that the write fails as on a full disk.
    const deno = Deno.execPath();
    const script = `trap '' XFSZ; ulimit -f 64; exec "$0" run ${
      PERMS.join(" ")
    } "$1" export --out "$2"`;
    const run = await new Deno.Command("bash", {
      args: ["-c", script, deno, MAIN, out],
      env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 3, stderr);
    assert.match(stderr, /Cannot write the export to ".*backup\.jsonl"/);
    assert.equal(Deno.readTextFileSync(out), "the export of yesterday\n");
    assert.deepEqual([...Deno.readDirSync(base)].map((e) => e.name).sort(), [
      "backup.jsonl",
      "home",
      "repo",
    ]);
  },
);

Deno.test("history says when a fact's valid time ended or has not begun, as why does", async () => {
  const { repo, home } = await indexedRepo();
  const facts: string[][] = [
    ["--valid-from", "2020-01-01", "--valid-to", "2021-01-01", "bytes were counted in KB in 2020"],
    ["--valid-from", "2098-01-01", "bytes will be counted in KiB"],
    ["bytes are counted in bytes"],
  ];
  for (const f of facts) {
    const r = await cli(home, [
      "remember",
      "--kind",
      "fact",
      "--keep",
      "--about",
      "src/util.ts",
      ...f,
    ], {
      cwd: repo,
      env: ENV,
    });
    assert.equal(r.code, 0, r.stderr);
  }
  const r = await cli(home, ["history", "src/util.ts"], { cwd: repo, env: ENV });
  assert.equal(r.code, 0, r.stderr);
  const line = (text: string) => {
    const lines = r.stdout.split("\n");
    return lines[lines.findIndex((l) => l.trim() === text) - 1] ?? "";
  };
  assert.match(line("bytes were counted in KB in 2020"), /valid until 2021-01-01 00:00:00Z/);
  assert.match(line("bytes will be counted in KiB"), /valid from 2098-01-01 00:00:00Z/);
  assert.doesNotMatch(line("bytes are counted in bytes"), /valid/);
});

Deno.test("why and history of a symbol by the name it had before a rename say where it went, not that it was typed from the wrong folder", async () => {
  const { repo, home } = await indexedRepo();
  let r = await cli(home, [
    "remember",
    "--kind",
    "decision",
    "--about",
    "src/util.ts:formatBytes",
    "bytes are counted in KiB",
  ], { cwd: repo, env: ENV });
  assert.equal(r.code, 0, r.stderr);
  const util = join(repo, "src/util.ts");
  Deno.writeTextFileSync(util, Deno.readTextFileSync(util).replace("formatBytes", "formatSize"));
  assert.equal((await cli(home, ["reconcile", "src"], { cwd: repo })).code, 0);
  for (const command of ["why", "history"]) {
    r = await cli(home, [command, "src/util.ts:formatBytes"], { cwd: repo, env: ENV });
    assert.equal(r.code, 0, r.stderr);
    const head = r.stdout.split("\n")[0]!;
    assert.doesNotMatch(head, /nothing by that name here/);
    assert.match(
      head,
      /^src\/util\.ts:formatBytes — moved: its memories follow src\/util\.ts:formatSize/,
    );
  }
});

Deno.test("search flags a fact whose valid time ended, or has not begun, as it flags a superseded one", async () => {
  const { repo, home } = await indexedRepo();
  const facts: [string[], RegExp][] = [
    [
      ["--valid-from", "2020-01-01", "--valid-to", "2021-01-01", "kilobytes in year 2020"],
      /\[valid until 2021-01-01\]$/,
    ],
    [["--valid-from", "2098-01-01", "kibibytes from year 2098"], /\[valid from 2098-01-01\]$/],
    [["plain bytes for ever"], /^fact on util\.ts$/],
  ];
  for (const [args] of facts) {
    const r = await cli(home, [
      "remember",
      "--kind",
      "fact",
      "--keep",
      "--about",
      "src/util.ts",
      ...args,
    ], {
      cwd: repo,
      env: ENV,
    });
    assert.equal(r.code, 0, r.stderr);
  }
  for (const [args, title] of facts) {
    const query = args.at(-1)!;
    const r = await cli(home, ["search", query, "--kind", "memory", "--json"], {
      cwd: repo,
      env: ENV,
    });
    assert.equal(r.code, 0, r.stderr);
    const hit = JSON.parse(r.stdout).hits.find((h: { summary: string }) => h.summary === query);
    assert.match(hit?.symbol ?? "", title, query);
  }
});

Deno.test("export --out - writes to stdout, as import - reads stdin, and leaves no file named -", async () => {
  const { base, repo, home } = await indexedRepo();
  const r = await cli(home, ["remember", "--kind", "note", "--about", "src/util.ts", "dash"], {
    cwd: repo,
    env: ENV,
  });
  assert.equal(r.code, 0, r.stderr);
  const e = await cli(home, ["export", "--out", "-"], { cwd: base });
  assert.equal(e.code, 0, e.stderr);
  assert.match(e.stdout, /^\{"type":"heimdall-memory".*\n.*"dash"/s);
  assert.throws(() => Deno.statSync(join(base, "-")), Deno.errors.NotFound);
  const plain = await cli(home, ["export"]);
  assert.equal(e.stdout, plain.stdout);
});

Deno.test("import refuses an export cut short at a line boundary, naming the file and the remedy, and imports nothing; an old export is read with a note", async () => {
  const { base, repo, home } = await indexedRepo();
  for (const text of ["keep sizes in bytes", "round totals last"]) {
    const r = await cli(home, ["remember", "--kind", "note", "--about", "src/util.ts", text], {
      cwd: repo,
      env: ENV,
    });
    assert.equal(r.code, 0, r.stderr);
  }
  const out = join(base, "backup.jsonl");
  const e = await cli(home, ["export", "--out", out]);
  assert.equal(e.code, 0, e.stderr);
  assert.match(e.stderr, /exported 2 memories and 0 notes/);
  const lines = Deno.readTextFileSync(out).split("\n");
  const cut = join(base, "cut.jsonl");
  Deno.writeTextFileSync(cut, lines.slice(0, 2).join("\n") + "\n"); // the header and one memory
  const other = join(base, "other");
  const i = await cli(other, ["import", cut]);
  assert.equal(i.code, 2, i.stderr);
  assert.match(i.stderr, new RegExp(`${escapeRe(cut)}: .*cut short.*export it again`));
  const h = await cli(other, ["export"]);
  assert.equal(h.stdout.trim().split("\n").length, 2, "nothing was imported: a header and the end");
  // Written by an earlier version: no end record, imported, and said so.
  const old = join(base, "old.jsonl");
  Deno.writeTextFileSync(
    old,
    [JSON.stringify({ type: "heimdall-memory", version: 2 }), lines[1]].join("\n") + "\n",
  );
  const o = await cli(other, ["import", old]);
  assert.equal(o.code, 0, o.stderr);
  assert.match(o.stdout, /imported 1 new memory/);
  assert.match(o.stderr, /old\.jsonl was written by an older heimdall .* could not be checked/);
  const whole = await cli(other, ["import", out]);
  assert.equal(whole.code, 0, whole.stderr);
  assert.match(whole.stdout, /imported 1 new memory, 0 updated, 1 unchanged/);
  assert.equal(whole.stderr, "");
});

Deno.test("import - names what it read as stdin in its errors, not as a file named -", async () => {
  const home = tempDir();
  const bad = `${JSON.stringify({ type: "heimdall-memory", version: 3 })}\n{"bad":1}\n`;
  const r = await cli(home, ["import", "-"], { stdin: bad });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^heimdall import: stdin:2: /);
});

Deno.test("an export redacts a secret an earlier build stored before its screen knew that kind", async () => {
  const { base, repo, home } = await indexedRepo();
  try {
    const r = await cli(home, ["remember", "--kind", "note", "--about", "src/util.ts", "ok"], {
      cwd: repo,
      env: ENV,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await cli(home, ["insert", "--title", "t", "--body", "b"])).code, 0);
    // As a build whose screen did not know bearer tokens wrote them.
    const token = "8fK2mQ9x" + "Lp4vT7wZr3Nc6Yb1Hd5Js0Ga";
    const said = `curl -H "Authorization: Bearer ${token}" https://api.example.org`;
    const j = Journal.open(join(home, "journal.db"));
    try {
      j.run("UPDATE memories SET text = ?", said);
      j.run("UPDATE notes SET body = ?", said);
    } finally {
      j.close();
    }
    const e = await cli(home, ["export"]);
    assert.equal(e.code, 0, e.stderr);
    assert.ok(!e.stdout.includes(token), "the token left in the export");
    assert.equal(e.stdout.split("[REDACTED:bearer_token]").length - 1, 2, e.stdout);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
