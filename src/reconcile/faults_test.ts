import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { JournalCorruptError } from "../store/mod.ts";
import { homePaths } from "../config/mod.ts";
import {
  backoffMs,
  classifyFault,
  FAULT_FILE_BYTES,
  faultFile,
  type FaultKind,
  type FaultRecord,
  readFault,
  reserveFault,
  writeFault,
} from "./faults.ts";

Deno.test("classifyFault() sorts errors into transient kinds and corruption", () => {
  const cases: [unknown, FaultKind, boolean][] = [
    [new Error("database is locked"), "busy", true],
    [new Error("database table is locked"), "locked", true],
    [new Error("database or disk is full"), "full", true],
    [new Error("No space left on device (os error 28)"), "full", true],
    [new Error("disk I/O error"), "io", true],
    [new Error("Input/output error (os error 5)"), "io", true],
    [new Deno.errors.PermissionDenied("Permission denied (os error 13)"), "permission", true],
    [new Error("attempt to write a readonly database"), "permission", true],
    [new Error("database disk image is malformed"), "corrupt", false],
    [new Error("file is not a database"), "corrupt", false],
    [new TypeError("Cannot read properties of undefined"), "internal", true],
    ["a thrown string", "internal", true],
    [new JournalCorruptError("/h/journal.db", "bad header"), "corrupt", false],
    [Object.assign(new Error("SQLite error"), { errcode: 13 }), "full", true],
    [Object.assign(new Error("SQLite error"), { errcode: 266 }), "io", true],
    [Object.assign(new Error("SQLite error"), { errcode: 11 }), "corrupt", false],
  ];
  for (const [e, kind, transient] of cases) {
    const f = classifyFault(e);
    assert.deepEqual([f.kind, f.transient], [kind, transient], String(e));
  }
});

Deno.test("classifyFault() recognises a real busy error from node:sqlite", () => {
  const dir = Deno.makeTempDirSync();
  const file = dir + "/j.db";
  const a = new DatabaseSync(file, { timeout: 10 });
  const b = new DatabaseSync(file, { timeout: 10 });
  a.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)");
  a.exec("BEGIN IMMEDIATE");
  assert.throws(() => b.exec("BEGIN IMMEDIATE"), (e) => classifyFault(e).kind === "busy");
  a.exec("COMMIT");
  a.close();
  b.close();
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("backoffMs() doubles from its base and stops at its cap", () => {
  assert.deepEqual([1, 2, 3, 4].map((n) => backoffMs(n)), [500, 1000, 2000, 4000]);
  assert.equal(backoffMs(40), 30_000);
});

Deno.test("the last error's record is private and redacted: a message may quote what it failed on", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const home = homePaths(dir);
    const token = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8";
    writeFault(
      home,
      {
        kind: "io",
        message: `cannot read config: token ${token}`,
        at_ms: 1,
        failures: 1,
        retry_at_ms: 2,
        recovered_ms: null,
        pid: 1,
      } satisfies FaultRecord,
    );
    const text = Deno.readTextFileSync(faultFile(home));
    assert.ok(!text.includes(token), text);
    assert.match(text, /\[REDACTED:github_token\]/);
    if (Deno.build.os !== "windows") {
      assert.equal(Deno.statSync(faultFile(home)).mode! & 0o777, 0o600);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("writeFault keeps the fault file at its reserved size, a long message cut to fit", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const home = homePaths(dir);
    reserveFault(home);
    assert.equal(readFault(home), null, "a reserved file holds no record");
    const message = "x".repeat(10_000);
    const record = {
      kind: "full",
      message,
      at_ms: 1,
      failures: 1,
      retry_at_ms: 2,
      recovered_ms: null,
      pid: 1,
    } satisfies FaultRecord;
    writeFault(home, record);
    assert.equal(Deno.statSync(faultFile(home)).size, FAULT_FILE_BYTES);
    const read = readFault(home)!;
    assert.ok(read.message.length < FAULT_FILE_BYTES && read.message.endsWith("…"));
    assert.ok(message.startsWith(read.message.slice(0, -1)));
    reserveFault(home);
    assert.equal(readFault(home)?.kind, "full", "reserving again keeps the record");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
