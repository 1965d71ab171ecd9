/**
 * The error model: each kind of HeimdallError gets its documented exit code,
 * from the one table; an error that is not a HeimdallError is a bug in
 * Heimdall (exit 70), whatever its message says; and every error class in
 * `src/` has a kind.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { ConfigError } from "../config/mod.ts";
import {
  ChecksumMismatchError,
  DownloadError,
  ManifestError,
  ModelSourceError,
} from "../embed/mod.ts";
import {
  DriftError,
  EnvironmentError,
  ERROR_KINDS,
  type ErrorKind,
  type HeimdallError,
  InternalError,
  UsageError,
} from "../errors/mod.ts";
import { MapError } from "../map/mod.ts";
import { MemoryInputError } from "../memory/mod.ts";
import { IndexLockedError } from "../reconcile/mod.ts";
import { SearchFilterError } from "../search/mod.ts";
import { JournalError } from "../store/mod.ts";
import { TeamStoreError, TeamUrlError } from "../team/mod.ts";
import { describeError } from "./errors.ts";
import { EXIT_FOR_KIND } from "./exit_codes.ts";

/** The exit codes the README documents for each kind. */
const DOCUMENTED: Record<ErrorKind, number> = {
  drift: 1,
  usage: 2,
  environment: 3,
  internal: 70,
};

Deno.test("EXIT_FOR_KIND gives every kind the exit code the README documents", () => {
  assert.deepEqual(Object.keys(EXIT_FOR_KIND).sort(), [...ERROR_KINDS].sort());
  for (const kind of ERROR_KINDS) assert.equal(EXIT_FOR_KIND[kind], DOCUMENTED[kind], kind);
});

Deno.test("describeError() gives a HeimdallError its kind's exit code and its own message", () => {
  const cases: [HeimdallError, ErrorKind][] = [
    [new UsageError('Invalid --depth "x": expected 1 to 10'), "usage"],
    [new EnvironmentError("Port 4000 is in use; pass another --port"), "environment"],
    [new DriftError("2 files changed since they were indexed; run heimdall reconcile"), "drift"],
    // Errors of each folder, with their data, classified by what they are.
    [new ConfigError("search.limit", -1, "expected a whole number from 1 to 100"), "usage"],
    [new SearchFilterError('No repo "nope"; indexed: a, b'), "usage"],
    [new MapError("map.toml", 3, "unknown key"), "usage"],
    [new MemoryInputError('Invalid kind "x"'), "usage"],
    [new TeamUrlError('Invalid team URL "x"'), "usage"],
    [new ManifestError('Invalid dims "x"'), "usage"],
    [new ModelSourceError("/m", "model.onnx", '"/m" has no model.onnx'), "usage"],
    [new IndexLockedError(4121, "/h/writer.lock", "daemon"), "environment"],
    [new JournalError('No journal at "/h/journal.db"', "/h/journal.db"), "environment"],
    [new TeamStoreError("Cannot reach the team store"), "environment"],
    [new DownloadError("Download stopped", "https://x/m.onnx", 10), "environment"],
    [new ChecksumMismatchError("/m/a", "00", "11", "it was removed"), "environment"],
  ];
  for (const [error, kind] of cases) {
    assert.equal(error.kind, kind, error.name);
    const d = describeError(error);
    assert.equal(d.code, DOCUMENTED[kind], `${error.name} (${kind})`);
    assert.equal(d.message, error.message, error.name);
    assert.equal(d.bug, false, error.name);
  }
  const bug = describeError(new InternalError("rebuild lost 2 memories"));
  assert.equal(bug.code, 70);
  assert.equal(bug.bug, true);
  assert.match(bug.message, /^internal error: rebuild lost 2 memories\. This is a bug .*report it/);
});

Deno.test("describeError() reports an unknown error as an internal bug, never as environment, whatever its message", () => {
  const unknown: unknown[] = [
    new Error("something broke"),
    new TypeError("Cannot read properties of undefined (reading 'id')"),
    new RangeError("Invalid array length"),
    "a thrown string",
    { not: "an error" },
    undefined,
    // Messages that read like the environment, but with no code or class that says so.
    new Error("Permission denied (os error 13): open '/h/journal.db'"),
    new Error("No space left on device (os error 28)"),
    new Error("database is locked"),
    new Error("Cannot write the index: the writer lock is held by pid 1"),
  ];
  for (const e of unknown) {
    const d = describeError(e);
    assert.equal(d.code, 70, `${String(e)} → ${d.code}`);
    assert.notEqual(d.code, EXIT_FOR_KIND.environment);
    assert.equal(d.bug, true);
    assert.match(d.message, /^internal error: .*This is a bug in heimdall.*report it/);
    assert.equal(d.message.split("\n").length, 1);
  }
  // The environment is recognised by a code or a class, not by words.
  const denied = new Deno.errors.PermissionDenied("open '/h/journal.db'");
  assert.equal(describeError(denied).code, 3);
  const full = Object.assign(new Error("write failed"), { code: "ENOSPC" });
  assert.equal(describeError(full).code, 3);
});

/** Error classes that need no kind, and why. */
const KINDLESS: Record<string, string> = {
  // The base itself: abstract, its kind is its subclass's.
  HeimdallError: "src/errors/heimdall_error.ts",
  // The browser's copy of an HTTP refusal; never thrown in the CLI or the server.
  ApiError: "src/ui/app/api.ts",
  // Caught by `heimdall init`, which reports it per harness and goes on.
  ConfigEditError: "src/harness/install/json_file.ts",
};

Deno.test("every error class in src/ extends HeimdallError (through a kind), so none is taken for a bug", async () => {
  const root = new URL("../..", import.meta.url).pathname;
  const direct: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
        const text = await Deno.readTextFile(path);
        for (const m of text.matchAll(/class (\w+) extends (?:globalThis\.)?Error\b/g)) {
          const rel = relative(root, path);
          if (KINDLESS[m[1]!] !== rel) direct.push(`${rel}: ${m[1]}`);
        }
      }
    }
  };
  await walk(join(root, "src"));
  assert.deepEqual(direct, [], "extend UsageError, EnvironmentError, DriftError or InternalError");
});
