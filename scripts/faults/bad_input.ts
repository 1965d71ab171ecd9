/**
 * Bad input, measured with the real CLI in subprocesses:
 *
 * - every bad command line of tests/bad_input_cases.ts (durations such as a
 *   10000-year `--ttl`, valid times in year 5138, limits, hops, unknown
 *   flags, a home under a regular file): refused with its exit code (2 bad
 *   input, 3 environment) and one line naming the value and the accepted
 *   range; stack traces printed (must be 0);
 * - a second one-shot `index` while one holds the writer lock: is it told
 *   that a one-shot index holds it (not "the daemon")?
 *
 * Run alone: `deno run -A scripts/faults/bad_input.ts`.
 */
import { homePaths } from "../../src/config/mod.ts";
import { WriterLock } from "../../src/reconcile/mod.ts";
import { BAD_INPUTS, homeWithJournal, tryBadInput } from "../../tests/bad_input_cases.ts";
import { cli, tempDir } from "../../tests/helpers.ts";
import type { FaultRow } from "./row.ts";

/** Measures every bad input; see the module comment. */
export async function run(): Promise<FaultRow[]> {
  const home = await homeWithJournal();
  const failures: string[] = [];
  for (let i = 0; i < BAD_INPUTS.length; i += 4) {
    const batch = await Promise.all(BAD_INPUTS.slice(i, i + 4).map((c) => tryBadInput(home, c)));
    failures.push(...batch.filter((f): f is string => f !== undefined));
  }
  const stacks = failures.filter((f) => f.endsWith("printed a stack trace")).length;
  if (Deno.env.get("FAULTS_VERBOSE")) { for (const f of failures) console.error(f); }

  // A one-shot index holding the lock, as this process.
  const other = tempDir();
  const project = tempDir(); // not the home: a home is never indexed
  const lock = await WriterLock.acquire(homePaths(other), 300, "index");
  let named = false;
  try {
    const r = await cli(other, ["index", project]);
    named = r.code === 3 && /one-shot `heimdall index` \(pid \d+\)/.test(r.stderr) &&
      !/daemon/i.test(r.stderr);
  } finally {
    lock.release();
  }
  Deno.removeSync(home, { recursive: true });
  Deno.removeSync(other, { recursive: true });
  Deno.removeSync(project, { recursive: true });
  const n = BAD_INPUTS.length;
  return [
    {
      figure: "bad inputs refused (exit 2 or 3, one line naming the value and the range)",
      value: `${n - failures.length} of ${n}`,
      target: `${n} of ${n}`,
      met: failures.length === 0,
    },
    {
      figure: "stack traces printed on bad input",
      value: String(stacks),
      target: "0",
      met: stacks === 0,
    },
    {
      figure: "a second one-shot index told a one-shot index holds the lock (not the daemon)",
      value: named ? "yes" : "no",
      target: "yes",
      met: named,
    },
  ];
}

if (import.meta.main) console.table(await run());
