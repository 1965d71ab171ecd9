/**
 * No secret is ever stored, measured with the real CLI, MCP server and hook
 * in subprocesses on real temp folders:
 *
 * - 39 fake secrets of 30 kinds (tests/secret_samples.ts) planted through
 *   indexed files (one after 412 KiB of filler), CLI insert, remember,
 *   attempt, import, task, claim and hand-off, the MCP tools and a whole hook
 *   session; then the raw bytes of everything under $HEIMDALL_HOME (journal,
 *   WAL, sessions, logs) are searched for each one. The same planting runs
 *   against this checkout's parent release (`git archive BEFORE`) for the
 *   figure before these changes;
 * - the same through a team store on a real PostgreSQL (every row of every
 *   table), when one can be had (see tests/team_fixture.ts);
 * - false positives: how many files of the benchmark corpus
 *   (/tmp/heimdall-corpus/{tree,prose}) the content screen would skip, by
 *   kind, now and before, and what the screen costs on them.
 *
 * Run alone: `deno run -A scripts/faults/secrets.ts`.
 */
import { join } from "node:path";
import { isBinary } from "../../src/extract/mod.ts";
import { walkRoot } from "../../src/files/mod.ts";
import { sniffSecret } from "../../src/files/secrets.ts";
import {
  ALL_LINES,
  leaks,
  ok,
  pgRows,
  plantedRepo,
  plantThroughCli,
  plantThroughHooks,
  plantThroughMcp,
  rawFiles,
  SAMPLES,
  useMain,
} from "../../tests/secret_plant.ts";
import { freshDatabase, hasPostgres, pgServer } from "../../tests/team_fixture.ts";
import type { FaultRow } from "./row.ts";

/** The commit before the secrets work of issue 12: what "before" means in these rows. */
const BEFORE = "ccba148";
const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const REPO = new URL("../../", import.meta.url).pathname;
const CORPUS = ["/tmp/heimdall-corpus/tree", "/tmp/heimdall-corpus/prose"];
const KINDS = new Set(SAMPLES.map((s) => s.kind)).size;

/** Distinct samples found in `blobs`. */
function leakedSamples(blobs: Map<string, string>): number {
  return SAMPLES.filter((s) => leaks(blobs, [s]).length > 0).length;
}

/** Plants every sample in a fresh home with `main`; counts those stored and those shown to the agent. */
async function plantLocal(main: string): Promise<{ stored: number; shown: number }> {
  useMain(main);
  const base = Deno.makeTempDirSync({ prefix: "heimdall-fault-secrets-" });
  try {
    const canary = "zebracanary" + crypto.randomUUID().slice(0, 8);
    const repo = plantedRepo(base);
    const home = join(base, "home");
    await ok(home, ["index", repo]);
    await plantThroughCli(home, repo, base, canary);
    await plantThroughMcp(home, repo, canary);
    const hookOut = await plantThroughHooks(home, repo, base, canary);
    const stored = rawFiles(home);
    if (![...stored.values()].some((t) => t.includes(canary))) {
      throw new Error("the canary is nowhere in the home: the planting did not happen");
    }
    return {
      stored: leakedSamples(stored),
      shown: leakedSamples(new Map([["hooks", hookOut.join("\n")]])),
    };
  } finally {
    useMain(MAIN);
    Deno.removeSync(base, { recursive: true });
  }
}

/** Plants every sample with a PostgreSQL team store; counts samples in its rows. */
async function plantTeam(): Promise<number> {
  const server = await pgServer();
  const db = await freshDatabase(server.url);
  const base = Deno.makeTempDirSync({ prefix: "heimdall-fault-secrets-pg-" });
  try {
    const canary = "zebracanary" + crypto.randomUUID().slice(0, 8);
    const repo = plantedRepo(base);
    const home = join(base, "home");
    await ok(home, ["index", repo]);
    await ok(home, ["team", "connect", db.url]);
    await plantThroughCli(home, repo, base, canary);
    await ok(home, [
      "remember",
      "--kind",
      "decision",
      "--scope",
      "team",
      "--about",
      "pkg/billing.py",
      `${canary} team decision\n${ALL_LINES}`,
    ], { cwd: repo });
    await plantThroughMcp(home, repo, canary);
    await plantThroughHooks(home, repo, base, canary);
    const rows = await pgRows(db.url);
    if (![...rows.values()].some((t) => t.includes(canary))) {
      throw new Error("the canary is nowhere in PostgreSQL: the planting did not happen");
    }
    return leakedSamples(rows);
  } finally {
    Deno.removeSync(base, { recursive: true });
    await db.drop();
    await server.stop();
  }
}

/** The text files of the benchmark corpus, as the index would read them (≤ 1 MiB). */
function corpusTexts(): { texts: string[]; bytes: number } {
  const texts: string[] = [];
  let bytes = 0;
  for (const root of CORPUS) {
    for (const ev of walkRoot({ root, maxFileBytes: 1_048_576 })) {
      if (ev.type !== "file") continue;
      const b = Deno.readFileSync(ev.path);
      if (isBinary(b)) continue;
      texts.push(new TextDecoder().decode(b));
      bytes += b.length;
    }
  }
  return { texts, bytes };
}

interface Screen {
  byKind: Map<string, number>;
  skipped: number;
  ms: number;
}

/** What `sniff` skips in `texts`, by kind, and its best time of three. */
function screen(texts: string[], sniff: (t: string) => string | undefined): Screen {
  const byKind = new Map<string, number>();
  let ms = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    for (const t of texts) {
      const why = sniff(t);
      if (round === 0 && why !== undefined) {
        const kind = why.replace("content: ", "");
        byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
      }
    }
    ms = Math.min(ms, performance.now() - t0);
  }
  return { byKind, skipped: [...byKind.values()].reduce((a, b) => a + b, 0), ms };
}

const kinds = (m: Map<string, number>) =>
  [...m].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ") || "none";

/** A copy of the checkout at `commit` in a temp folder (git archive: the repository is untouched). */
async function checkout(commit: string): Promise<string> {
  const dir = Deno.makeTempDirSync({ prefix: "heimdall-before-" });
  const out = await new Deno.Command("bash", {
    args: ["-c", `git -C '${REPO}' archive ${commit} | tar -x -C '${dir}'`],
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return dir;
}

/** The figures; see the module comment. */
export async function run(): Promise<FaultRow[]> {
  const rows: FaultRow[] = [];
  const before = await checkout(BEFORE);
  try {
    const now = await plantLocal(MAIN);
    let then: { stored: number; shown: number } | undefined;
    try {
      then = await plantLocal(join(before, "main.ts"));
    } catch (e) {
      console.error(`secrets: planting at ${BEFORE} failed: ${(e as Error).message}`);
    }
    const was = (n: number | undefined) => n === undefined ? "" : ` (${BEFORE}: ${n})`;
    rows.push({
      figure:
        `secrets planted (${SAMPLES.length}, ${KINDS} kinds; files, CLI, MCP, hooks, import) found in journal, WAL, sessions, logs`,
      value: `${now.stored} of ${SAMPLES.length}${was(then?.stored)}`,
      target: "0",
      met: now.stored === 0,
    });
    rows.push({
      figure: "planted secrets shown back to an agent by a hook",
      value: `${now.shown} of ${SAMPLES.length}${was(then?.shown)}`,
      target: "0",
      met: now.shown === 0,
    });
    if (hasPostgres()) {
      const team = await plantTeam();
      rows.push({
        figure: "planted secrets found in the team store's PostgreSQL rows",
        value: `${team} of ${SAMPLES.length}`,
        target: "0",
        met: team === 0,
      });
    }

    const corpus = corpusTexts();
    const old = await import(join(before, "src/reconcile/secrets.ts"));
    const a = screen(corpus.texts, sniffSecret);
    const b = screen(corpus.texts, old.sniffSecret as (t: string) => string | undefined);
    const pct = (n: number) => `${(100 * n / corpus.texts.length).toFixed(2)}%`;
    rows.push({
      figure: `corpus files the content screen skips (${corpus.texts.length} text files, ${
        (corpus.bytes / 2 ** 20).toFixed(0)
      } MiB)`,
      value: `${a.skipped} (${pct(a.skipped)}): ${kinds(a.byKind)}; ${BEFORE}: ${b.skipped} (${
        kinds(b.byKind)
      })`,
      target: "≤ 0.1%, each a literal credential",
      met: a.skipped / corpus.texts.length <= 0.001,
    });
    rows.push({
      figure: "content screen over the corpus (whole files; before: first 256 KiB)",
      value: `${(corpus.bytes / 2 ** 20 / (a.ms / 1000)).toFixed(0)} MiB/s, ${
        a.ms.toFixed(0)
      } ms; ${BEFORE}: ${(corpus.bytes / 2 ** 20 / (b.ms / 1000)).toFixed(0)} MiB/s`,
      target: "—",
      met: true,
    });
  } finally {
    Deno.removeSync(before, { recursive: true });
  }
  return rows;
}

if (import.meta.main) console.table(await run());
