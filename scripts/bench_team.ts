/**
 * How fast `heimdall conflicts` answers on a large graph, on the local
 * journal and against PostgreSQL on loopback.
 *
 *   deno run -A scripts/bench_team.ts [--symbols 300000] [--probes 300] [--claims 300]
 *                                     [--cli-runs 15] [--pg URL | --no-pg] [--keep] [--json]
 *
 * Builds a synthetic journal through the store's own commit path: files of
 * 30 functions, each calling 3 functions picked at random across the graph.
 * Another developer holds `--claims` claims on random functions, plus one
 * within 1–3 call hops of each of the first quarter of the probes, so both
 * the "conflict found" and the "walked everything, found nothing" cases are
 * timed. Each probe is a 3-hop conflict check both ways, in process and
 * through the CLI. Baselines in the same run: one indexed node lookup and
 * search's 3-hop blast radius (in process), `heimdall --version` (CLI), and
 * a `SELECT 1` round trip (PostgreSQL). PostgreSQL comes from --pg, else
 * $HEIMDALL_TEST_PG_URL, else scripts/pg_test_server.sh starts one.
 * `--keep` leaves the synthetic repository and home in place (their folder
 * is printed on stderr) for profiling a single command against them.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { type OwnedRows, replaceOwnedRows, upsertRoot } from "../src/store/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { blastRadius, type SymbolRef } from "../src/search/mod.ts";
import {
  type Actor,
  findConflicts,
  LocalTeamStore,
  openPgTeamStore,
  type SymbolKey,
} from "../src/team/mod.ts";
import { RUN_PERMISSIONS } from "../src/harness/install/command.ts";
import {
  type Cleanup,
  fmtMs,
  fmtRatio,
  percentile,
  renderTable,
  runBenchMain,
  seededRandom,
  timeCommand,
  UsageError,
  wholeNumber,
} from "./bench_util.ts";
import { benchDatabase } from "./bench_pg.ts";

interface Options {
  symbols: number;
  probes: number;
  claims: number;
  cliRuns: number;
  pg: string | null | "start";
  keep?: boolean;
  json?: boolean;
}

interface Figure {
  what: string;
  p50: number;
  p95: number;
  baseline: string;
  baseP50: number;
  found?: string;
}

interface Result {
  symbols: number;
  callEdges: number;
  buildSeconds: number;
  journalMiB: number;
  figures: Figure[];
}

const FUNCS_PER_FILE = 30;
const CALLS_PER_FUNC = 3;
const MAIN = new URL("../main.ts", import.meta.url).pathname;
const ME: Actor = { developer: "bob", agent: "bench", session: null };
const THEM: Actor = { developer: "alice", agent: "bench", session: null };

function parse(args: string[]): Options {
  const opts: Options = { symbols: 300_000, probes: 300, claims: 300, cliRuns: 15, pg: "start" };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = () => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === "--symbols") opts.symbols = wholeNumber("symbols", next(), FUNCS_PER_FILE);
    else if (a === "--probes") opts.probes = wholeNumber("probes", next(), 4);
    else if (a === "--claims") opts.claims = wholeNumber("claims", next(), 0);
    else if (a === "--cli-runs") opts.cliRuns = wholeNumber("cli-runs", next(), 1);
    else if (a === "--pg") opts.pg = next();
    else if (a === "--no-pg") opts.pg = null;
    else if (a === "--json") opts.json = true;
    else if (a === "--keep") opts.keep = true;
    else {throw new UsageError(
        `Unknown option "${a}"; see the comment at the top of scripts/bench_team.ts`,
      );}
  }
  if (opts.pg === "start") opts.pg = Deno.env.get("HEIMDALL_TEST_PG_URL") ?? "start";
  return opts;
}

const id = (file: number, fn: number) =>
  createHash("sha1").update(`bench\0${file}\0${fn}`).digest("hex").slice(0, 20);
const qualname = (file: number, fn: number) => `f${file}_${fn}`;

/** Writes the synthetic graph through `replaceOwnedRows`, 500 files per transaction. */
function buildGraph(j: Journal, root: string, files: number, rand: () => number): number {
  const rootId = upsertRoot(j, root, "max");
  let edges = 0;
  for (let start = 0; start < files; start += 500) {
    j.tx(() => {
      for (let f = start; f < Math.min(files, start + 500); f++) {
        const rel = `src/m${f % 100}/file${f}.ts`;
        const rows: OwnedRows = {
          path: {
            root_id: rootId,
            path: join(root, rel),
            rel,
            state: "indexed",
            reason: null,
            hash: createHash("sha1").update(rel).digest("hex"),
            size: 1000,
            mtime_ms: 0,
            language: "typescript",
            summary: null,
            requested_depth: 3,
            target_depth: 3,
            effective_depth: 3,
            depth_reason: null,
            racy: 0,
          },
          nodes: [],
          edges: [],
          pending: [],
        };
        const fileId = id(f, -1);
        rows.nodes.push({
          id: fileId,
          parent_id: null,
          kind: "file",
          name: `file${f}.ts`,
          qualname: "",
          start_line: 1,
          end_line: FUNCS_PER_FILE * 5,
          signature: null,
          doc: null,
          struct_hash: null,
          partial: 0,
          scoped: 0,
        });
        for (let k = 0; k < FUNCS_PER_FILE; k++) {
          const me = id(f, k);
          rows.nodes.push({
            id: me,
            parent_id: fileId,
            kind: "function",
            name: qualname(f, k),
            qualname: qualname(f, k),
            start_line: k * 5 + 1,
            end_line: k * 5 + 4,
            signature: `function ${qualname(f, k)}()`,
            doc: null,
            struct_hash: createHash("sha1").update(me).digest("hex").slice(0, 16),
            partial: 0,
            scoped: 0,
          });
          for (let c = 0; c < CALLS_PER_FUNC; c++) {
            const tf = Math.floor(rand() * files);
            const tk = Math.floor(rand() * FUNCS_PER_FILE);
            if (tf === f && tk === k) continue;
            rows.edges.push({ src: me, dst: id(tf, tk), kind: "calls", line: k * 5 + 2 });
            edges++;
          }
        }
        replaceOwnedRows(j, rows, null);
      }
    });
  }
  return edges;
}

function timeSync(n: number, fn: (i: number) => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

async function timeAsync(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

async function run(opts: Options, cleanup: Cleanup): Promise<Result> {
  const tmp = Deno.makeTempDirSync({ prefix: "heimdall-bench-team-" });
  if (opts.keep) console.error(`[bench_team] keeping ${tmp} (repository bench/, home home/)`);
  else cleanup.add("remove the bench folder", () => Deno.removeSync(tmp, { recursive: true }));
  const root = join(tmp, "bench");
  Deno.mkdirSync(join(root, ".git"), { recursive: true });
  Deno.writeTextFileSync(
    join(root, ".git", "config"),
    '[remote "origin"]\n\turl = https://example.com/acme/bench.git\n',
  );
  const home = join(tmp, "home");
  const journalFile = join(home, "journal.db");
  const rand = seededRandom(42);
  const files = Math.ceil(opts.symbols / FUNCS_PER_FILE);

  console.error(`[bench_team] building ${files * FUNCS_PER_FILE} functions in ${files} files…`);
  const t0 = performance.now();
  const j = Journal.open(journalFile);
  cleanup.add("close the journal", () => j.close());
  const callEdges = buildGraph(j, root, files, rand);
  j.db.exec("PRAGMA wal_checkpoint(TRUNCATE); ANALYZE");
  const buildSeconds = (performance.now() - t0) / 1000;

  // Probes, and claims by someone else: random ones, and one near each of the first quarter of probes.
  const pick = () => [Math.floor(rand() * files), Math.floor(rand() * FUNCS_PER_FILE)] as const;
  const probes = Array.from({ length: opts.probes }, pick);
  const key = ([f, k]: readonly [number, number]): SymbolKey => ({
    repo: "bench",
    path: `src/m${f % 100}/file${f}.ts`,
    qualname: qualname(f, k),
    kind: "function",
    structHash: null,
  });
  const near: SymbolKey[] = [];
  for (const [f, k] of probes.slice(0, Math.floor(opts.probes / 4))) {
    let at = id(f, k);
    const hops = 1 + Math.floor(rand() * 3);
    for (let h = 0; h < hops; h++) {
      const next = j.get<{ dst: string }>(
        "SELECT dst FROM edges WHERE src = ? AND kind = 'calls' LIMIT 1",
        at,
      );
      if (!next) break;
      at = next.dst;
    }
    const n = j.get<{ qualname: string }>("SELECT qualname FROM nodes WHERE id = ?", at)!;
    const [, fs, ks] = /^f(\d+)_(\d+)$/.exec(n.qualname)!;
    near.push(key([Number(fs), Number(ks)]));
  }
  const claimKeys = [...Array.from({ length: opts.claims }, () => key(pick())), ...near];
  const local = new LocalTeamStore(j);
  await local.claim(THEM, claimKeys, { ttlSeconds: 86_400, taskId: null, taskText: "bench" });

  const figures: Figure[] = [];
  const refs = probes.map(([f, k]) =>
    j.get<SymbolRef>(
      `SELECT n.id, n.kind, n.name, n.qualname, p.path, n.start_line AS line, n.end_line AS endLine,
         n.signature FROM nodes n JOIN paths p ON p.id = n.path_id WHERE n.id = ?`,
      id(f, k),
    )!
  );
  // Warm the page cache and the statement cache once.
  for (const r of refs.slice(0, 20)) await findConflicts(j, local, ME, [r.id], { hops: 3 });

  const lookup = timeSync(
    refs.length,
    (i) => j.get("SELECT * FROM nodes WHERE id = ?", refs[i]!.id),
  );
  const blast = timeSync(refs.length, (i) => blastRadius(j, refs[i]!, 3));
  let found = 0;
  const localTimes = await timeAsync(refs.length, async (i) => {
    const r = await findConflicts(j, local, ME, [refs[i]!.id], { hops: 3 });
    if (r.conflicts.length > 0) found++;
  });
  const foundText = `${found}/${refs.length} probes found conflicts`;
  figures.push({
    what: "conflicts(), 3 hops, local journal",
    p50: percentile(localTimes, 50),
    p95: percentile(localTimes, 95),
    baseline: "one indexed node lookup",
    baseP50: percentile(lookup, 50),
    found: foundText,
  });
  figures.push({
    what: "conflicts(), 3 hops, local journal",
    p50: percentile(localTimes, 50),
    p95: percentile(localTimes, 95),
    baseline: "blastRadius(), 3 hops, callers only",
    baseP50: percentile(blast, 50),
  });

  const env = {
    HEIMDALL_HOME: home,
    HEIMDALL_AUTHOR: "bob",
    DENO_NO_UPDATE_CHECK: "1",
    NO_COLOR: "1",
  };
  const deno = ["run", ...RUN_PERMISSIONS, MAIN];
  const cli = async (args: string[]) => {
    const times: number[] = [];
    for (let i = 0; i < opts.cliRuns; i++) {
      const r = refs[i % refs.length]!;
      const t = await timeCommand(Deno.execPath(), [
        ...deno,
        ...args.map((a) => a.replace("@", r.qualname)),
      ], {
        cwd: root,
        env,
      });
      if (t.code > 1) throw new Error(`heimdall ${args.join(" ")} exited ${t.code}: ${t.stderr}`);
      times.push(t.ms);
    }
    return times;
  };
  const version = await cli(["--version"]);
  const cliLocal = await cli(["conflicts", "@"]);
  figures.push({
    what: "`heimdall conflicts SYMBOL`, local journal, wall",
    p50: percentile(cliLocal, 50),
    p95: percentile(cliLocal, 95),
    baseline: "`heimdall --version`, wall",
    baseP50: percentile(version, 50),
  });

  const url = opts.pg === null
    ? null
    : await benchDatabase(opts.pg, "heimdall_bench", cleanup, tmp);
  if (url) {
    const shared = await openPgTeamStore(url);
    cleanup.add("close the PostgreSQL store", () => shared.close());
    await shared.claim(THEM, claimKeys, { ttlSeconds: 86_400, taskId: null, taskText: "bench" });
    for (const r of refs.slice(0, 20)) await findConflicts(j, shared, ME, [r.id], { hops: 3 });
    const select1 = await timeAsync(refs.length, () => shared.client.query("SELECT 1"));
    let pgFound = 0;
    const pgTimes = await timeAsync(refs.length, async (i) => {
      const r = await findConflicts(j, shared, ME, [refs[i]!.id], { hops: 3 });
      if (r.conflicts.length > 0) pgFound++;
    });
    figures.push({
      what: "conflicts(), 3 hops, PostgreSQL on loopback",
      p50: percentile(pgTimes, 50),
      p95: percentile(pgTimes, 95),
      baseline: "conflicts(), local journal",
      baseP50: percentile(localTimes, 50),
      found: `${pgFound}/${refs.length} probes found conflicts`,
    });
    figures.push({
      what: "conflicts(), 3 hops, PostgreSQL on loopback",
      p50: percentile(pgTimes, 50),
      p95: percentile(pgTimes, 95),
      baseline: "`SELECT 1` round trip",
      baseP50: percentile(select1, 50),
    });
    const connected = await timeCommand(Deno.execPath(), [...deno, "team", "connect", url], {
      env,
    });
    if (connected.code !== 0) throw new Error(`team connect failed: ${connected.stderr}`);
    const cliPg = await cli(["conflicts", "@"]);
    figures.push({
      what: "`heimdall conflicts SYMBOL`, PostgreSQL, wall",
      p50: percentile(cliPg, 50),
      p95: percentile(cliPg, 95),
      baseline: "`heimdall --version`, wall",
      baseP50: percentile(version, 50),
    });
  }
  const size = Deno.statSync(journalFile).size;
  return {
    symbols: files * FUNCS_PER_FILE,
    callEdges,
    buildSeconds: Math.round(buildSeconds * 10) / 10,
    journalMiB: Math.round(size / 1048576),
    figures,
  };
}

function render(r: Result): string {
  const head =
    `${r.symbols} functions, ${r.callEdges} call edges, journal ${r.journalMiB} MiB, built in ${r.buildSeconds} s`;
  return [
    head,
    "",
    renderTable(
      ["figure", "p50", "p95", "baseline (same run)", "base p50", "ratio p50", "note"],
      r.figures.map((f) => [
        f.what,
        fmtMs(f.p50),
        fmtMs(f.p95),
        f.baseline,
        fmtMs(f.baseP50),
        fmtRatio(f.p50, f.baseP50),
        f.found ?? "",
      ]),
      [1, 2, 4, 5],
    ),
  ].join("\n");
}

if (import.meta.main) Deno.exit(await runBenchMain("bench_team", parse, run, render));
