/**
 * Bad input on the command line, each with the exit code and the words its
 * message must have (the value, the accepted range or the remedy). Shared by
 * tests/bad_input_test.ts and scripts/faults/bad_input.ts.
 */
import { join } from "node:path";
import { cli, MAIN, tempDir } from "./helpers.ts";

/** A bad input that has not answered after this long is reported as hung. */
const HANG_MS = 120_000;

/** One bad command line and what it must get back. */
export interface BadInput {
  args: string[];
  /** 2 usage or bad input, 3 environment. */
  code: number;
  /** What stderr must say (the value and the accepted range or the fix). */
  says: RegExp;
  /** Environment for this run only, `{home}` replaced by the test's home. */
  env?: Record<string, string>;
}

/** A runaway value (a pasted file, a shell expansion gone wrong): quoted cut, with its length. */
const HUGE = "a".repeat(100_000);
const CUT = `"${"a".repeat(120)}… \\(100000 characters\\)"`;

export const BAD_INPUTS: BadInput[] = [
  {
    args: ["why", HUGE],
    code: 2,
    says: new RegExp(`^heimdall why: No symbol ${CUT} in the index;.{0,200}\n?$`),
  },
  {
    args: ["forget", HUGE],
    code: 2,
    says: new RegExp(`^heimdall forget: No memory ${CUT}:.{0,200}\n?$`),
  },
  {
    args: ["claim", HUGE],
    code: 2,
    says: new RegExp(`^heimdall claim: No symbol ${CUT} in the index;.{0,200}\n?$`),
  },
  {
    args: ["task", "show", HUGE],
    code: 2,
    says: new RegExp(`^heimdall task: No task ${CUT};.{0,200}\n?$`),
  },
  // Counts in decimal digits only: Number() took "" as 0 hops (no conflict
  // found, silently), "0x2" as 2 and "1e2" as 100.
  { args: ["conflicts", "foo", "--hops", ""], code: 2, says: /--hops "": .*from 0 to 10/ },
  { args: ["who-knows", "foo", "--hops", " 1"], code: 2, says: /--hops " 1": .*from 0 to 10/ },
  { args: ["blast-radius", "foo", "--depth", "0x2"], code: 2, says: /--depth "0x2": .*1 to 10/ },
  { args: ["search", "a", "--limit", "1e2"], code: 2, says: /--limit "1e2": .*from 1 to 200/ },
  { args: ["history", "--limit", "2.0"], code: 2, says: /--limit "2\.0": .*from 1 to 10000/ },
  { args: ["claim", "foo", "--ttl=-5m"], code: 2, says: /--ttl "-5m".*from 1s to 7d/ },
  { args: ["claim", "foo", "--ttl", "0s"], code: 2, says: /--ttl "0s".*from 1s to 7d/ },
  { args: ["claim", "foo", "--ttl", "8d"], code: 2, says: /--ttl "8d".*from 1s to 7d/ },
  // 10000 years.
  { args: ["claim", "foo", "--ttl", "87600000h"], code: 2, says: /--ttl "87600000h".*1s to 7d/ },
  { args: ["claim", "foo", "--ttl", "1e9s"], code: 2, says: /--ttl "1e9s"/ },
  { args: ["claim", "foo", "--ttl", "forever"], code: 2, says: /--ttl "forever"/ },
  {
    args: ["remember", "--kind", "note", "--about", "/tmp", "--valid-from", "5138-01-01", "x"],
    code: 2,
    says: /--valid-from "5138-01-01".*from 1970-01-01 to \d{4}/,
  },
  {
    args: ["remember", "--kind", "note", "--about", "/tmp", "--valid-from", "1066-10-14", "x"],
    code: 2,
    says: /--valid-from "1066-10-14".*from 1970-01-01/,
  },
  {
    args: ["remember", "--kind", "note", "--about", "/tmp", "--valid-to", "2025-02-30", "x"],
    code: 2,
    says: /--valid-to "2025-02-30"/,
  },
  { args: ["why", "x", "--as-of", "99999-01-01"], code: 2, says: /"99999-01-01"/ },
  { args: ["history", "--limit", "0"], code: 2, says: /--limit "0".*1 to 10000/ },
  { args: ["history", "--limit", "99999999999"], code: 2, says: /--limit "99999999999"/ },
  { args: ["search", "q", "--limit=-1"], code: 2, says: /--limit "-1".*1 to 200/ },
  { args: ["search", "q", "--limit", "1e9"], code: 2, says: /--limit "1e9"/ },
  { args: ["conflicts", "foo", "--hops=-2"], code: 2, says: /--hops "-2".*0 to 10/ },
  { args: ["blast-radius", "foo", "--depth", "99"], code: 2, says: /--depth "99".*1 to 10/ },
  { args: ["index", "--depth", "L9", "."], code: 2, says: /--depth "L9"/ },
  { args: ["search", "q", "--no-such-flag"], code: 2, says: /no-such-flag.*heimdall help search/ },
  { args: ["frobnicate"], code: 2, says: /Unknown command "frobnicate"/ },
  // A symbol's file with its name left out: was "did you mean …:py?", a symbol named as the extension.
  {
    args: ["callers", "lib/gzip.py:"],
    code: 2,
    says: /"lib\/gzip\.py:" names no symbol after its colon: write path:name or path:line/,
  },
  // A file's name where a symbol goes: was "did you mean …:py?" too.
  {
    args: ["blast-radius", "lib/gzip.py"],
    code: 2,
    says:
      /"lib\/gzip\.py" names a file, not a symbol: write lib\/gzip\.py:name or lib\/gzip\.py:line/,
  },
  // A slip of the keyboard names what it was probably meant to be.
  {
    args: ["serach", "q"],
    code: 2,
    says: /Unknown command "serach"; did you mean `heimdall search`\?/,
  },
  { args: ["search", "q", "--limt", "3"], code: 2, says: /"--limt" \(did you mean --limit\?\)/ },
  // A path typed wrong is bad input, not a failing disk (the command runs in the home).
  {
    args: ["export", "--out", "."],
    code: 2,
    says: /Cannot export to ".*": it is a folder; pass a file/,
  },
  {
    args: ["export", "--out", "no/such/x.jsonl"],
    code: 2,
    says: /Cannot export to ".*\/no\/such\/x\.jsonl": there is no folder ".*\/no\/such"; create it/,
  },
  // I/O: the home is under a regular file.
  {
    args: ["insert", "--title", "t", "--body", "b"],
    code: 3,
    // Was "Not a directory (os error 20): mkdir '…'", naming neither the file nor the fix.
    says:
      /"[^"]*\/file\/home" cannot be made: "[^"]*\/file" on its way is a file, not a folder.*set HEIMDALL_HOME to a folder/,
    env: { HEIMDALL_HOME: "{home}/file/home" },
  },
  {
    args: ["remember", "--kind", "note", "--about", "/tmp", "x"],
    code: 3,
    says: /"[^"]*\/file" on its way is a file, not a folder/,
    env: { HEIMDALL_HOME: "{home}/file/home" },
  },
];

/** Runs one bad input; returns what went wrong with it, or undefined. */
export async function tryBadInput(home: string, c: BadInput): Promise<string | undefined> {
  const env = Object.fromEntries(
    Object.entries(c.env ?? {}).map(([k, v]) => [k, v.replace("{home}", home)]),
  );
  const label = `heimdall ${c.args.join(" ")}`;
  // A watchdog, not a time limit on the answer: a command that hangs fails
  // with its name instead of hanging the suite.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...c.args],
    env: {
      HEIMDALL_HOME: home,
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
      ...env,
      HEIMDALL_DEBUG: "",
    },
    cwd: home,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(HANG_MS),
  }).output();
  if (out.signal !== null) return `${label}: hung, killed after ${HANG_MS / 1000} s`;
  const r = {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
  if (r.code !== c.code) return `${label}: exit ${r.code}, want ${c.code}: ${r.stderr}`;
  if (!c.says.test(r.stderr)) {
    return `${label}: message ${JSON.stringify(r.stderr)} lacks ${c.says}`;
  }
  if (/^\s+at /m.test(r.stderr + r.stdout)) return `${label}: printed a stack trace`;
  if (r.stderr.trim().split("\n").length !== 1) return `${label}: more than one line`;
  return undefined;
}

/** A home with a journal, and a regular file at `file` to put a home under. */
export async function homeWithJournal(): Promise<string> {
  const home = tempDir();
  const r = await cli(home, ["insert", "--title", "seed", "--body", "a note"]);
  if (r.code !== 0) throw new Error(`insert failed: ${r.stderr}`);
  Deno.writeTextFileSync(join(home, "file"), "not a folder");
  return home;
}
