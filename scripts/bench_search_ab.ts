/**
 * `search()` of this tree against another commit's, on the journal and
 * code questions `scripts/bench_search.ts` left in its work folder: each
 * question asked of both in turn (which goes first alternates), so a host
 * that slows down slows both. Prints each build's p50 and mean, their
 * ratio, and how many questions the two answered differently (timings
 * aside): a change made for speed must answer every question the same.
 *
 *   deno run -A scripts/bench_search_ab.ts --base REV [--work DIR] [--rounds 1] [--json]
 *
 * One round asks each question once of each build, as `bench_search`
 * does: a second round asks them again, which a cache kept between
 * searches answers from memory.
 */
import { join } from "node:path";
import {
  abOptions,
  checkoutBuild,
  type Cleanup,
  fmtRatio,
  journalsAtSchemasOf,
  percentile,
  renderTable,
  runBenchMain,
  THIS_TREE,
} from "./bench_util.ts";
import type { SearchRequest, SearchResult } from "../src/search/mod.ts";

/** Questions asked of both builds before any is timed: the journal's pages and the JIT warm. */
const WARMUP = 30;

interface Options {
  base: string;
  work: string;
  rounds: number;
  json?: boolean;
}

/** One build's timings. */
interface Timed {
  build: string;
  p50: number;
  mean: number;
}

interface Result {
  base: string;
  questions: number;
  rounds: number;
  builds: Timed[];
  /** Questions answered differently, hits and verdicts compared with timings aside. */
  differ: number;
  /** The first few of them. */
  examples: string[];
}

function parseOptions(args: string[]): Options {
  const { place, ...rest } = abOptions(
    args,
    { name: "work", default: "/tmp/heimdall-search-bench" },
    "this tree's search()",
    1,
  );
  return { ...rest, work: place };
}

type Search = (j: unknown, req: SearchRequest) => Promise<SearchResult>;

/** A tree's `Journal.open` and `search`, loaded from `root`. */
async function load(root: string, journal: string): Promise<{ j: unknown; search: Search }> {
  const store = await import(join(root, "src/store/mod.ts"));
  const search = await import(join(root, "src/search/mod.ts"));
  return { j: store.Journal.open(journal, { readOnly: true }), search: search.search };
}

/** A result as compared: without the times it took and when it was verified. */
function answer(r: SearchResult): string {
  return JSON.stringify(r, (k, v) => {
    if (k === "took_ms" || k === "verified_at") return undefined;
    return k === "summary" && typeof v === "string" ? v.replace(/\d+ ms/, "") : v;
  });
}

async function run(opts: Options, cleanup: Cleanup): Promise<Result> {
  const journal = join(opts.work, "home", "journal.db");
  const casesFile = join(opts.work, "cases.json");
  let cases: { query: string }[];
  try {
    Deno.statSync(journal);
    cases = JSON.parse(Deno.readTextFileSync(casesFile));
  } catch {
    throw new Error(
      `No journal and questions in ${opts.work} (${journal}, ${casesFile}): run scripts/bench_search.ts --work ${opts.work} first`,
    );
  }
  const tree = checkoutBuild(opts.base, cleanup);
  // Two commits with different schemas each read a copy at their own.
  const dir = Deno.makeTempDirSync({ prefix: "heimdall-search-ab-" });
  cleanup.add(`remove ${dir}`, () => Deno.removeSync(dir, { recursive: true }));
  const [baseJournal, ownJournal] = await journalsAtSchemasOf([tree, THIS_TREE], journal, dir);

  const builds = [
    { name: `base (${opts.base})`, ...(await load(tree, baseJournal!)) },
    { name: "this tree", ...(await load(THIS_TREE, ownJournal!)) },
  ];
  const ask = (b: (typeof builds)[number], query: string) =>
    b.search(b.j, { query, limit: 10, semantic: null });
  for (const c of cases.slice(0, WARMUP)) for (const b of builds) await ask(b, c.query);
  const ms = builds.map(() => [] as number[]);
  let differ = 0;
  const examples: string[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    for (const [k, c] of cases.entries()) {
      const order = (k + round) % 2 === 0 ? [0, 1] : [1, 0];
      const answers: string[] = [];
      for (const i of order) {
        const t0 = performance.now();
        const r = await ask(builds[i]!, c.query);
        ms[i]!.push(performance.now() - t0);
        answers[i] = answer(r);
      }
      if (round === 0 && answers[0] !== answers[1]) {
        differ++;
        if (examples.length < 5) examples.push(c.query);
      }
    }
  }
  return {
    base: opts.base,
    questions: cases.length,
    rounds: opts.rounds,
    builds: builds.map((b, i) => ({
      build: b.name,
      p50: percentile(ms[i]!, 50),
      mean: ms[i]!.reduce((a, x) => a + x, 0) / ms[i]!.length,
    })),
    differ,
    examples,
  };
}

/** Milliseconds to a tenth: the differences compared are of a few. */
const ms = (x: number) => `${x.toFixed(1)} ms`;

function render(r: Result): string {
  const [base] = r.builds;
  const table = renderTable(
    ["build", "p50", "mean", "p50 ratio to base"],
    r.builds.map((b) => [b.build, ms(b.p50), ms(b.mean), fmtRatio(b.p50, base!.p50)]),
    [1, 2, 3],
  );
  const same = r.differ === 0
    ? `every one of the ${r.questions} questions answered the same by both`
    : `${r.differ} of ${r.questions} questions answered differently, e.g.: ${
      r.examples.map((q) => JSON.stringify(q)).join("; ")
    }`;
  return `search() of this tree against ${r.base}, ${r.questions} questions × ${r.rounds} round(s), interleaved\n${table}\n${same}`;
}

if (import.meta.main) {
  Deno.exit(await runBenchMain("bench_search_ab", parseOptions, run, render));
}
