/**
 * Small helpers shared by the `scripts/bench*` scripts: a seeded random
 * source, timing of subprocesses, percentiles, /proc readings and a plain
 * text table. Benchmarks (and the fixture scripts) only; tests never import it.
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";

// The seeded random source lives with the tests, which need it too (a test never imports a bench).
export { seededRandom } from "../tests/seeded_random.ts";

/** The `p`-th percentile (0–100) of `values`, nearest rank; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** One finished subprocess: wall time in ms (spawn to exit), exit code and its output. */
export interface Timed {
  ms: number;
  code: number;
  stdout: string;
  stderr: string;
  /** True when `timeoutMs` passed and the process was killed (then `code` is the kill's). */
  timedOut?: boolean;
}

/**
 * Runs a command to completion and times it from spawn to exit. Never throws
 * on a non-zero exit (the caller decides); throws when the program is missing.
 * With `timeoutMs`, a process still running then is sent SIGKILL and the
 * result says `timedOut`.
 */
export async function timeCommand(
  cmd: string,
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<Timed> {
  const command = new Deno.Command(cmd, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
  });
  const t0 = performance.now();
  const child = command.spawn();
  let timedOut = false;
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, options.timeoutMs);
  const out = await child.output().finally(() => clearTimeout(timer));
  const ms = performance.now() - t0;
  const dec = new TextDecoder();
  return {
    ms,
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    ...(timedOut ? { timedOut } : {}),
  };
}

/** Runs `fn` `n` times in sequence; returns every result and the one with the smallest `ms`. */
export async function bestOf<T extends { ms: number }>(
  n: number,
  fn: (i: number) => Promise<T>,
): Promise<{ best: T; all: T[] }> {
  const all: T[] = [];
  for (let i = 0; i < n; i++) all.push(await fn(i));
  const best = all.reduce((a, b) => (b.ms < a.ms ? b : a));
  return { best, all };
}

/** Clock ticks per second for /proc CPU times (`getconf CLK_TCK`; 100 when unavailable). */
export async function clockTicks(): Promise<number> {
  try {
    const out = await new Deno.Command("getconf", { args: ["CLK_TCK"], stdout: "piped" }).output();
    const n = Number(new TextDecoder().decode(out.stdout).trim());
    return Number.isFinite(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
}

/**
 * User plus system CPU ticks of process `pid`, every thread included (fields
 * 14 and 15 of /proc/PID/stat). Throws when the process is gone.
 */
export function cpuTicks(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: split after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state), so utime (14) and stime (15) sit at 11 and 12.
  return Number(fields[11]) + Number(fields[12]);
}

/** Memory of process `pid` from /proc/PID/status, in bytes. */
export interface ProcMemory {
  name: string;
  threads: number;
  rss: number;
  hwm: number;
}

/** Reads name, thread count, VmRSS and VmHWM of `pid`. Throws when the process is gone. */
export function procMemory(pid: number): ProcMemory {
  const text = Deno.readTextFileSync(`/proc/${pid}/status`);
  const field = (key: string) => text.match(new RegExp(`^${key}:\\s*(.*)$`, "m"))?.[1] ?? "";
  const kb = (key: string) => Number(field(key).replace(/\s*kB$/, "")) * 1024;
  return {
    name: field("Name"),
    threads: Number(field("Threads")),
    rss: kb("VmRSS"),
    hwm: kb("VmHWM"),
  };
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** `1.23 s` above a second, `456 ms` below. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
}

/** Bytes as MiB with one decimal. */
export function fmtMiB(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

/** `value / base` as `3.2×` (`0.0014×` below 0.1); `—` when the base is zero or not a number. */
export function fmtRatio(value: number, base: number): string {
  const r = value / base;
  if (!Number.isFinite(r) || base <= 0) return "—";
  if (r > 0 && r < 0.1) return `${r.toPrecision(2)}×`;
  return `${r < 10 ? r.toFixed(2) : r.toFixed(1)}×`;
}

/**
 * Lays rows out as a plain-text table: columns padded to their widest cell,
 * the first column left-aligned, the others too unless listed in `right`.
 */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly number[] = [],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    widths
      .map((w, i) => {
        const c = cells[i] ?? "";
        return right.includes(i) ? c.padStart(w) : c.padEnd(w);
      })
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "─".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/**
 * Things to undo, last registered first: temp folders, child processes.
 * `run()` runs each once, even when an earlier one throws.
 */
export class Cleanup {
  readonly #steps: { what: string; fn: () => void | Promise<void> }[] = [];
  #ran = false;

  /** Registers `fn` to run at cleanup time; `what` names it in a failure message. */
  add(what: string, fn: () => void | Promise<void>): void {
    this.#steps.push({ what, fn });
  }

  /** Runs every registered step in reverse order; failures are reported on stderr, not thrown. */
  async run(): Promise<void> {
    if (this.#ran) return;
    this.#ran = true;
    for (const step of this.#steps.reverse()) {
      try {
        await step.fn();
      } catch (e) {
        console.error(`cleanup: could not ${step.what}: ${(e as Error).message}`);
      }
    }
  }
}

/**
 * The shared `main` of a bench script: parse the options (a bad one exits 2
 * with its message), run with a {@link Cleanup} that also runs on Ctrl-C or
 * SIGTERM, print the result as a table, or as JSON when the options say
 * `json: true`. Returns the exit code.
 */
export async function runBenchMain<O extends object, R>(
  name: string,
  parse: (args: string[]) => O,
  run: (opts: O, cleanup: Cleanup) => Promise<R>,
  render: (result: R, opts: O) => string,
): Promise<number> {
  let opts: O;
  try {
    opts = parse(Deno.args);
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  const cleanup = new Cleanup();
  const onSignal = () => {
    console.error(`[${name}] interrupted; cleaning up`);
    cleanup.run().finally(() => Deno.exit(130));
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  try {
    const result = await run(opts, cleanup);
    const json = "json" in opts && opts.json === true;
    console.log(json ? JSON.stringify(result, null, 2) : render(result, opts));
    return 0;
  } catch (e) {
    console.error(`${name} failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await cleanup.run();
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
  }
}

/** A command-line value that is not usable; runBenchMain prints it and exits 2. */
export class UsageError extends Error {}

/** `raw` as a whole number ≥ `min`, or a {@link UsageError} naming `--name` and the value. */
export function wholeNumber(name: string, raw: string, min: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new UsageError(`Invalid --${name} "${raw}": expected a whole number ≥ ${min}`);
  }
  return n;
}

/** What an A/B bench is told: the base commit, how many rounds, JSON or a table, and where. */
export interface AbOptions {
  base: string;
  /** The path its `place` option names (a work folder, a journal). */
  place: string;
  rounds: number;
  json?: boolean;
}

/**
 * The options of a bench that compares this tree with `--base REV`:
 * `--rounds N` (default `rounds`), `--json`, and one path option, `place`,
 * with its default. `what` is what is compared, for the missing-base message.
 */
export function abOptions(
  args: string[],
  place: { name: string; default: string },
  what: string,
  rounds: number,
): AbOptions {
  const { values } = parseArgs({
    args,
    options: {
      base: { type: "string" },
      [place.name]: { type: "string", default: place.default },
      rounds: { type: "string", default: String(rounds) },
      json: { type: "boolean" },
    },
  });
  return {
    base: commitRev(values.base as string | undefined, what),
    place: values[place.name] as string,
    rounds: wholeNumber("rounds", values.rounds as string, 1),
    ...(values.json ? { json: true } : {}),
  };
}

/** The repository this script belongs to. */
const REPO = new URL("..", import.meta.url).pathname;

/** `rev` when it names a commit of this repository; else a {@link UsageError} naming it and the remedy. */
export function commitRev(rev: string | undefined, what: string): string {
  if (rev === undefined) {
    throw new UsageError(`Missing --base REV: the commit to compare ${what} with`);
  }
  const known = new Deno.Command("git", {
    args: ["-C", REPO, "rev-parse", "--verify", "--quiet", `${rev}^{commit}`],
    stdout: "null",
  }).outputSync();
  if (!known.success) {
    throw new UsageError(
      `Invalid --base "${rev}": no such commit in ${REPO} (a hash, tag or branch: git log --oneline)`,
    );
  }
  return rev;
}

/** This checkout's root: the A/B benches' "this tree", whose modules they import. */
export const THIS_TREE = REPO.replace(/\/$/, "");

/** What a build needs to load its `src/` modules, taken from the base commit by the A/B benches. */
const BUILD_PARTS = ["src", "deno.json", "deno.lock", "grammars", "wasm"];

/**
 * The files a build loads ({@link BUILD_PARTS}) of commit `rev`, unpacked
 * into a temp folder that `cleanup` removes; returns the folder (another
 * build to import from).
 */
export function checkoutBuild(rev: string, cleanup: Cleanup): string {
  const parts = BUILD_PARTS;
  const tree = Deno.makeTempDirSync({ prefix: "heimdall-ab-" });
  cleanup.add(`remove ${tree}`, () => Deno.removeSync(tree, { recursive: true }));
  const archive = new Deno.Command("git", {
    args: ["-C", REPO, "archive", rev, ...parts],
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!archive.success) {
    throw new Error(`git archive ${rev}: ${new TextDecoder().decode(archive.stderr).trim()}`);
  }
  Deno.writeFileSync(`${tree}/tree.tar`, archive.stdout);
  const untar = new Deno.Command("tar", { args: ["-xf", "tree.tar"], cwd: tree }).outputSync();
  if (!untar.success) throw new Error(`tar could not unpack ${rev}'s tree in ${tree}`);
  return tree;
}

/**
 * How many schema versions the tree at `root` knows (its
 * `src/store/schema.ts`), so that an A/B bench of two commits with
 * different schemas gives each a journal it can open.
 */
export async function schemaVersionOf(root: string): Promise<number> {
  const schema = await import(join(root, "src/store/schema.ts"));
  return schema.MIGRATIONS.length;
}

/** `PRAGMA user_version` of the journal at `file`, read without migrating it. */
export function journalVersion(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
  } finally {
    db.close();
  }
}

/**
 * One journal per tree in `roots` that the tree can open: `file` itself for
 * every tree when all of them are at its schema version; else, for each, a
 * copy of `file` in `dir` (`VACUUM INTO`, so each starts from the same
 * layout) that the tree's own store migrated when it is newer. Throws when
 * `file` is newer than a tree knows: a build cannot read a later schema.
 */
export async function journalsAtSchemasOf(
  roots: readonly string[],
  file: string,
  dir: string,
): Promise<string[]> {
  const have = journalVersion(file);
  const wants = await Promise.all(roots.map(schemaVersionOf));
  for (const [i, want] of wants.entries()) {
    const root = roots[i]!;
    if (have > want) {
      throw new Error(
        `${file} is at schema version ${have}, newer than the tree at ${root} knows (${want}): pass a journal that tree can read`,
      );
    }
  }
  if (wants.every((want) => want === have)) return roots.map(() => file);
  const copies: string[] = [];
  for (const [i, root] of roots.entries()) {
    const copy = join(dir, `journal-${i}.db`);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      db.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`);
    } finally {
      db.close();
    }
    if (wants[i]! > have) {
      const store = await import(join(root, "src/store/mod.ts"));
      store.Journal.open(copy).close();
    }
    copies.push(copy);
  }
  return copies;
}
