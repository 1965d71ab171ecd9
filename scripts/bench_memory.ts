/**
 * Memory's figures, each against a baseline measured in the same run:
 *
 * 1. `why` on a synthetic journal of a 300,000-symbol graph (10,000 files of
 *    30 symbols, a call edge per symbol) holding 10,000 memories (decisions
 *    with superseded predecessors, open and repeated failures, notes on files
 *    and folders, 2% of anchors orphaned): in-process `why()` per query form
 *    (`name`, `path:name`, `Class.method`; each includes the probe of the
 *    target file's anchors), the probe of every anchor that `remember` and
 *    `attempt` run, the full re-anchor sweep a writer runs after a pass, and
 *    the whole `heimdall why` process against a bare Deno start and a bare
 *    `heimdall status` on the same journal.
 * 2. The wording similarity used to consolidate repeated failures: precision
 *    and recall per threshold, trigram against word Jaccard, on the labelled
 *    pairs in `tests/fixtures/memory/attempt_pairs.json`.
 * 3. The same journal connected to a team store (PostgreSQL on loopback)
 *    holding `--team-memories` memories another developer wrote through the
 *    real shared write path: that write, the first pull of them all, then per
 *    query `why` after the pull every read does, with a connection kept open
 *    (a long-lived MCP server) and with one opened per question (what a CLI
 *    process does, `pg` already loaded), against `why` alone on the same
 *    queries; loading `pg` in a fresh process; and the whole `heimdall why`
 *    process connected against the same command on the local journal alone.
 *    PostgreSQL comes from --pg, else $HEIMDALL_TEST_PG_URL, else
 *    scripts/pg_test_server.sh starts one; --no-pg skips this part.
 *
 *     deno run -A scripts/bench_memory.ts [--symbols 300000] [--memories 10000]
 *       [--queries 60] [--runs 15] [--seed 1] [--team-memories 2000]
 *       [--pg URL | --no-pg] [--keep] [--json]
 *
 * The synthetic journal is written through the store's own commit path
 * (`replaceOwnedRows`) and memory's import (`importMemories`); its files do
 * not exist on disk (nothing here reads them). Everything lives under one temp
 * folder, removed at the end unless `--keep`.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  EXPORT_HEADER,
  exportEnd,
  importMemories,
  type MemoryKind,
  newRow,
  reanchorIfStale,
  reanchorMemories,
  SAME_FAILURE_THRESHOLD,
  scoreThreshold,
  trigramSimilarity,
  why,
  wordSimilarity,
} from "../src/memory/mod.ts";
import { homePaths, loadConfig } from "../src/config/mod.ts";
import { nodeId } from "../src/reconcile/mod.ts";
import { Journal, type OwnedRows, replaceOwnedRows, upsertRoot } from "../src/store/mod.ts";
import {
  openPgTeamStore,
  type PortableAnchor,
  pullMemories,
  SharedMemory,
} from "../src/team/mod.ts";
import { storeAttempt, storeRemember } from "../src/team/pg_memory.ts";
import { MAIN } from "../tests/helpers.ts";
import {
  type Cleanup,
  fmtMs,
  fmtRatio,
  percentile,
  renderTable,
  runBenchMain,
  seededRandom,
  timeCommand,
  wholeNumber,
} from "./bench_util.ts";
import { benchDatabase } from "./bench_pg.ts";

const DENO = Deno.execPath();
const PERMS = ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-run", "--allow-sys"];
const TARGET_WHY_MS = 50;
const TARGET_TEAM_WHY_MS = 100;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;
const PER_FILE = 30;

interface Options {
  symbols: number;
  memories: number;
  queries: number;
  runs: number;
  seed: number;
  teamMemories: number;
  /** A server URL, "start" (scripts/pg_test_server.sh), or null (--no-pg). */
  pg: string | null;
  keep: boolean;
  json?: boolean;
}

function parseOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      symbols: { type: "string", default: "300000" },
      memories: { type: "string", default: "10000" },
      queries: { type: "string", default: "60" },
      runs: { type: "string", default: "15" },
      seed: { type: "string", default: "1" },
      "team-memories": { type: "string", default: "2000" },
      pg: { type: "string" },
      "no-pg": { type: "boolean" },
      keep: { type: "boolean" },
      json: { type: "boolean" },
    },
  });
  return {
    symbols: wholeNumber("symbols", values.symbols, PER_FILE),
    memories: wholeNumber("memories", values.memories, 10),
    queries: wholeNumber("queries", values.queries, 5),
    runs: wholeNumber("runs", values.runs, 3),
    seed: wholeNumber("seed", values.seed, 0),
    teamMemories: wholeNumber("team-memories", values["team-memories"], 10),
    pg: values["no-pg"] ? null : values.pg ?? Deno.env.get("HEIMDALL_TEST_PG_URL") ?? "start",
    keep: values.keep ?? false,
    ...(values.json ? { json: true } : {}),
  };
}

interface Stats {
  p50: number;
  p95: number;
  max: number;
}

const stats = (ms: number[]): Stats => ({
  p50: percentile(ms, 50),
  p95: percentile(ms, 95),
  max: Math.max(...ms),
});

/** A table row: `what`, p50, p95 and max of `s`, `note`. */
const statRow = (what: string, s: Stats, note: string) => [
  what,
  fmtMs(s.p50),
  fmtMs(s.p95),
  fmtMs(s.max),
  note,
];

interface Result {
  symbols: number;
  edges: number;
  memories: number;
  anchors: number;
  orphaned: number;
  buildSeconds: number;
  inProcess: Record<string, Stats>;
  sweep: Stats;
  probe: Stats;
  process: { why: Stats; status: Stats; denoStart: Stats };
  similarity: { threshold: number; trigram: Score; word: Score }[];
  chosen: number;
  team: TeamFigures | null;
}

/** Part 3: `why` with a team store on loopback. */
interface TeamFigures {
  memories: number;
  /** One shared write (storeRemember or storeAttempt), in process. */
  write: Stats;
  /** The first pull of every team memory into the journal, once (ms). */
  firstPullMs: number;
  rowsPulled: number;
  /** `why` alone, on the queries below (baseline). */
  whyLocal: Stats;
  /** Pull (nothing new) + `why`, on a connection kept open. */
  warm: Stats;
  /** Connect + schema check + pull + `why` + close, `pg` already loaded. */
  cold: Stats;
  /** A `SELECT 1` round trip (baseline of the store). */
  roundTrip: Stats;
  /** Loading `node:net` and `pg` in a fresh process. */
  loadPg: Stats;
  /** `heimdall why NAME` connected, whole process, and the same on the local journal alone. */
  processTeam: Stats;
  processLocal: Stats;
}

type Score = { precision: number; recall: number };

/** The synthetic graph: file f{i}.ts holds class C{i} with methods and functions fn{i}_{k}. */
function fileRows(root: string, i: number, files: number, rand: () => number): OwnedRows {
  const rel = `pkg${i % 100}/f${i}.ts`;
  const path = join(root, rel);
  const fileId = nodeId(path, "file", "");
  const nodes: OwnedRows["nodes"] = [{
    id: fileId,
    parent_id: null,
    kind: "file",
    name: `f${i}.ts`,
    qualname: "",
    start_line: 1,
    end_line: 400,
    signature: null,
    doc: null,
    struct_hash: null,
    partial: 0,
    scoped: 0,
  }];
  const classId = nodeId(path, "class", `C${i}`);
  nodes.push({
    id: classId,
    parent_id: fileId,
    kind: "class",
    name: `C${i}`,
    qualname: `C${i}`,
    start_line: 1,
    end_line: 150,
    signature: `class C${i}`,
    doc: null,
    struct_hash: hex(rand),
    partial: 0,
    scoped: 0,
  });
  for (let k = 0; k < PER_FILE - 1; k++) {
    const method = k < 14;
    const name = method ? `m${i}_${k}` : `fn${i}_${k}`;
    const qualname = method ? `C${i}.${name}` : name;
    const kind = method ? "method" : "function";
    nodes.push({
      id: nodeId(path, kind, qualname),
      parent_id: method ? classId : fileId,
      kind,
      name,
      qualname,
      start_line: 2 + k * 10,
      end_line: 10 + k * 10,
      signature: `${name}(x: number): number`,
      doc: null,
      struct_hash: hex(rand),
      partial: 0,
      scoped: 0,
    });
  }
  const edges: OwnedRows["edges"] = nodes.slice(1).map((n) => {
    const j = Math.floor(rand() * files);
    const target = nodeId(join(root, `pkg${j % 100}/f${j}.ts`), "function", `fn${j}_20`);
    return { src: n.id, dst: target, kind: "calls", line: (n.start_line ?? 1) + 1 };
  });
  return {
    path: {
      root_id: 1,
      path,
      rel,
      state: "indexed",
      reason: null,
      hash: hex(rand) + hex(rand),
      size: 12_000,
      mtime_ms: 0,
      language: "typescript",
      summary: null,
      requested_depth: 3,
      target_depth: 3,
      effective_depth: 3,
      depth_reason: null,
      racy: 0,
    },
    nodes,
    edges,
    pending: [],
  };
}

function hex(rand: () => number): string {
  return Math.floor(rand() * 2 ** 32).toString(16).padStart(8, "0") +
    Math.floor(rand() * 2 ** 32).toString(16).padStart(8, "0");
}

/** An export-format line for one memory anchored to `anchors`. */
function memoryLine(
  id: string,
  kind: string,
  t: number,
  anchors: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): string {
  const text = `${kind} ${id}: keep the retry bound at 4 and log the handle`;
  const author = ["alice", "bob", "carol"][t % 3]!;
  const row = newRow({ id, kind: kind as MemoryKind, text, author, scope: "project" }, t);
  return JSON.stringify({ ...row, ...extra, anchors });
}

function symbolAnchor(
  root: string,
  i: number,
  k: number,
  state = "active",
): Record<string, unknown> {
  const method = k < 14;
  const name = method ? `m${i}_${k}` : `fn${i}_${k}`;
  const qualname = method ? `C${i}.${name}` : name;
  const path = join(root, `pkg${i % 100}/f${i}.ts`);
  const orphan = state === "orphaned";
  return {
    ord: 0,
    target: "symbol",
    original: qualname,
    path,
    root,
    symbol: orphan ? `gone_${qualname}` : qualname,
    symbol_kind: method ? "method" : "function",
    name: orphan ? `gone_${name}` : name,
    node_id: orphan ? `gone${i}_${k}` : nodeId(path, method ? "method" : "function", qualname),
    struct_hash: null,
    shape: null,
    start_line: 2 + k * 10,
    end_line: 10 + k * 10,
    state,
    moved_from: null,
    state_at: 0,
    checked: orphan ? "" : null,
  };
}

async function runBench(opts: Options, cleanup: Cleanup): Promise<Result> {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-bench-memory-" });
  if (!opts.keep) cleanup.add(`remove ${base}`, () => Deno.removeSync(base, { recursive: true }));
  else console.error(`[bench_memory] keeping ${base}`);
  const home = join(base, "home");
  const root = join(base, "repo");
  Deno.mkdirSync(root, { recursive: true });
  const rand = seededRandom(opts.seed);
  const files = Math.floor(opts.symbols / PER_FILE);

  const t0 = performance.now();
  const j = Journal.open(join(home, "journal.db"));
  let anchors = 0, orphaned = 0;
  try {
    upsertRoot(j, root, "max");
    Deno.writeTextFileSync(
      join(home, "config.json"),
      JSON.stringify({ roots: [{ path: root, depth: "max" }] }),
    );
    for (let start = 0; start < files; start += 500) {
      j.tx(() => {
        for (let i = start; i < Math.min(files, start + 500); i++) {
          replaceOwnedRows(j, fileRows(root, i, files, rand), null);
        }
      });
      if (start % 2000 === 0) console.error(`[bench_memory] graph: ${start}/${files} files`);
    }
    // Memories, through the export format and importMemories.
    const lines = [JSON.stringify(EXPORT_HEADER)];
    const T = Date.parse("2025-01-01T00:00:00Z");
    for (let m = 0; m < opts.memories; m++) {
      const i = Math.floor(rand() * files);
      const k = 1 + Math.floor(rand() * (PER_FILE - 2));
      const t = T + m * 60_000;
      const id = `mb${String(m).padStart(9, "0")}`;
      const roll = rand();
      if (roll < 0.02) {
        orphaned++;
        anchors++;
        lines.push(memoryLine(id, "note", t, [symbolAnchor(root, i, k, "orphaned")]));
      } else if (roll < 0.4) {
        // A decision superseding an older one on the same symbol.
        const old = `${id}o`;
        lines.push(memoryLine(old, "decision", t - 1, [symbolAnchor(root, i, k)], {
          superseded_at: t,
          superseded_by: id,
          updated_at: t,
        }));
        lines.push(memoryLine(id, "decision", t, [symbolAnchor(root, i, k)]));
        anchors += 2;
      } else if (roll < 0.7) {
        lines.push(memoryLine(id, "attempt", t, [symbolAnchor(root, i, k)], {
          outcome: "failed",
          status: "open",
          count: 1 + Math.floor(rand() * 4),
          tests: JSON.stringify([`t_${i}_${k}`]),
        }));
        anchors++;
      } else if (roll < 0.9) {
        const path = join(root, `pkg${i % 100}/f${i}.ts`);
        lines.push(memoryLine(id, "convention", t, [{
          ...symbolAnchor(root, i, k),
          target: "file",
          symbol: null,
          symbol_kind: null,
          node_id: null,
          name: `f${i}.ts`,
          path,
          original: path,
        }]));
        anchors++;
      } else {
        const path = join(root, `pkg${i % 100}`);
        lines.push(memoryLine(id, "convention", t, [{
          ...symbolAnchor(root, i, k),
          target: "folder",
          symbol: null,
          symbol_kind: null,
          node_id: null,
          name: `pkg${i % 100}`,
          path,
          original: path,
        }]));
        anchors++;
      }
    }
    // The folders exist on disk, so folder anchors stay active.
    for (let p = 0; p < 100; p++) Deno.mkdirSync(join(root, `pkg${p}`), { recursive: true });
    lines.push(exportEnd(lines.length - 1, 0));
    importMemories(j, lines.join("\n"), "bench");
  } finally {
    j.close();
  }
  const buildSeconds = (performance.now() - t0) / 1000;
  console.error(`[bench_memory] built in ${buildSeconds.toFixed(1)} s; measuring`);

  // Queries: symbols that have memories (from the anchors), in three forms.
  const r = Journal.open(join(home, "journal.db"));
  const inProcess: Record<string, Stats> = {};
  let sweep: Stats;
  let probe: Stats;
  let cliTargets: string[];
  try {
    const picks = r.all<{ path: string; symbol: string; name: string }>(
      `SELECT path, symbol, name FROM memory_anchors WHERE target = 'symbol' AND state = 'active'
       ORDER BY memory_id LIMIT ?`,
      opts.queries,
    );
    const forms: Record<string, (p: (typeof picks)[0]) => string> = {
      "why name": (p) => p.name,
      "why path:name": (p) => `${p.path}:${p.name}`,
      "why Class.method": (p) => p.symbol,
    };
    for (const [label, form] of Object.entries(forms)) {
      const ms: number[] = [];
      for (const p of picks) {
        const t = performance.now();
        const w = why(r, form(p), { viewer: "alice", cwd: root });
        ms.push(performance.now() - t);
        if (w.current.length + w.history.length === 0) throw new Error(`no memory for ${form(p)}`);
      }
      inProcess[label] = stats(ms.slice(1)); // the first query warms the statement cache
    }
    const sweeps: number[] = [];
    const probes: number[] = [];
    for (let i = 0; i < opts.runs; i++) {
      let t = performance.now();
      reanchorMemories(r);
      sweeps.push(performance.now() - t);
      t = performance.now();
      if (reanchorIfStale(r) !== undefined) {
        throw new Error("the probe found stale anchors after a sweep");
      }
      probes.push(performance.now() - t);
    }
    sweep = stats(sweeps);
    probe = stats(probes);
    cliTargets = picks.slice(0, opts.runs).map((p) => p.name);
  } finally {
    r.close();
  }

  const env = { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", HEIMDALL_AUTHOR: "alice" };
  const empty = join(base, "empty.ts");
  Deno.writeTextFileSync(empty, "");
  const proc = { why: [] as number[], status: [] as number[], denoStart: [] as number[] };
  for (let i = 0; i < opts.runs; i++) {
    // Interleaved, so drift on a shared machine hits all three alike.
    const w = await timeCommand(DENO, [...PERMS, MAIN, "why", cliTargets[i % cliTargets.length]!], {
      env,
      cwd: root,
    });
    if (w.code !== 0) throw new Error(`heimdall why failed (${w.code}): ${w.stderr}`);
    proc.why.push(w.ms);
    const s = await timeCommand(DENO, [...PERMS, MAIN, "status"], { env, cwd: root });
    if (s.code !== 0) throw new Error(`heimdall status failed (${s.code}): ${s.stderr}`);
    proc.status.push(s.ms);
    proc.denoStart.push((await timeCommand(DENO, [...PERMS, empty], { env })).ms);
  }

  const team = opts.pg === null
    ? null
    : await benchTeam(opts, cleanup, { base, home, root, files, rand, env, cliTargets });

  const pairs = JSON.parse(
    Deno.readTextFileSync(new URL("../tests/fixtures/memory/attempt_pairs.json", import.meta.url)),
  ).pairs;
  const similarity = [0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9].map((threshold) => {
    const t = scoreThreshold(pairs, trigramSimilarity, threshold);
    const w = scoreThreshold(pairs, wordSimilarity, threshold);
    return {
      threshold,
      trigram: { precision: t.precision, recall: t.recall },
      word: { precision: w.precision, recall: w.recall },
    };
  });

  const counts = Journal.open(join(home, "journal.db"), { readOnly: true });
  try {
    return {
      symbols: counts.get<{ n: number }>("SELECT count(*) AS n FROM nodes WHERE kind != 'file'")!.n,
      edges: counts.get<{ n: number }>("SELECT count(*) AS n FROM edges")!.n,
      memories: counts.get<{ n: number }>("SELECT count(*) AS n FROM memories")!.n,
      anchors,
      orphaned,
      buildSeconds,
      inProcess,
      sweep,
      probe,
      process: {
        why: stats(proc.why),
        status: stats(proc.status),
        denoStart: stats(proc.denoStart),
      },
      similarity,
      chosen: SAME_FAILURE_THRESHOLD,
      team,
    };
  } finally {
    counts.close();
  }
}

function render(r: Result): string {
  const out: string[] = [];
  out.push(
    `synthetic journal: ${r.symbols.toLocaleString("en")} symbols, ${
      r.edges.toLocaleString("en")
    } edges, ${
      r.memories.toLocaleString("en")
    } memories (${r.anchors} anchors, ${r.orphaned} orphaned), built in ${
      r.buildSeconds.toFixed(1)
    } s`,
    "",
  );
  const rows: string[][] = [];
  for (const [label, s] of Object.entries(r.inProcess)) {
    rows.push(
      statRow(
        `${label}, in process`,
        s,
        `${s.p95 < TARGET_WHY_MS ? "met" : "missed"} (< ${TARGET_WHY_MS} ms)`,
      ),
    );
  }
  rows.push(
    statRow(
      "stale-anchor probe of every anchor (a backstop, not on any command path)",
      r.probe,
      "",
    ),
  );
  rows.push(
    statRow("full re-anchor sweep (after each writer pass that changed the index)", r.sweep, ""),
  );
  const p = r.process;
  rows.push(
    statRow(
      "`heimdall why NAME`, whole process",
      p.why,
      `${fmtRatio(p.why.p50, p.denoStart.p50)} of bare Deno start, ${
        fmtRatio(p.why.p50, p.status.p50)
      } of \`heimdall status\``,
    ),
  );
  rows.push(statRow("`heimdall status`, whole process", p.status, "baseline"));
  rows.push(statRow("bare Deno start (empty script)", p.denoStart, "baseline"));
  out.push(renderTable(["figure", "p50", "p95", "max", "note"], rows, [1, 2, 3]), "");
  if (r.team) out.push(renderTeam(r.team), "");
  out.push(
    `wording similarity on ${60} labelled pairs (chosen threshold ${r.chosen}, trigram):`,
    renderTable(
      ["threshold", "trigram P", "trigram R", "word P", "word R"],
      r.similarity.map((s) => [
        String(s.threshold) + (s.threshold === r.chosen ? " *" : ""),
        s.trigram.precision.toFixed(2),
        s.trigram.recall.toFixed(2),
        s.word.precision.toFixed(2),
        s.word.recall.toFixed(2),
      ]),
      [1, 2, 3, 4],
    ),
  );
  return out.join("\n");
}

/** The portable anchor of synthetic symbol k of file i (the root is repository "repo"). */
function portableSymbol(i: number, k: number): PortableAnchor {
  const method = k < 14;
  const name = method ? `m${i}_${k}` : `fn${i}_${k}`;
  return {
    target: "symbol",
    repo: "repo",
    path: `pkg${i % 100}/f${i}.ts`,
    qualname: method ? `C${i}.${name}` : name,
    kind: method ? "method" : "function",
    name,
    structHash: null,
    shape: null,
  };
}

async function benchTeam(
  opts: Options,
  cleanup: Cleanup,
  at: {
    base: string;
    home: string;
    root: string;
    files: number;
    rand: () => number;
    env: Record<string, string>;
    cliTargets: string[];
  },
): Promise<TeamFigures> {
  const url = await benchDatabase(opts.pg!, "heimdall_bench_memory", cleanup, at.base);
  const store = await openPgTeamStore(url);
  const names: string[] = [];
  const writes: number[] = [];
  try {
    // Another developer's memories, through the real shared write path.
    for (let m = 0; m < opts.teamMemories; m++) {
      const i = Math.floor(at.rand() * at.files);
      const k = 1 + Math.floor(at.rand() * (PER_FILE - 2));
      const anchor = portableSymbol(i, k);
      const common = {
        id: `mt${String(m).padStart(9, "0")}`,
        author: "dave",
        scope: "project" as const,
        taskId: null,
        anchors: [anchor],
      };
      const t = performance.now();
      if (at.rand() < 0.6) {
        await storeRemember(store, {
          ...common,
          kind: "decision",
          text: `team decision ${m}: ${anchor.name} keeps the retry bound at 4`,
          validFrom: null,
          validTo: null,
          explicit: [],
          supersede: true,
        });
      } else {
        await storeAttempt(store, {
          ...common,
          text: `team attempt ${m}: ${anchor.name} timed out under load`,
          outcome: "failed",
          tests: [`t_${i}_${k}`],
          fix: null,
        });
      }
      writes.push(performance.now() - t);
      if (names.length < opts.queries) names.push(anchor.qualname);
      if (m % 500 === 0) console.error(`[bench_memory] team: ${m}/${opts.teamMemories} writes`);
    }
    const config = join(at.home, "config.json");
    Deno.writeTextFileSync(
      config,
      JSON.stringify({ ...JSON.parse(Deno.readTextFileSync(config)), teamUrl: url }),
    );
    const j = Journal.open(join(at.home, "journal.db"));
    try {
      let t = performance.now();
      const pulled = await pullMemories(j, store);
      const firstPullMs = performance.now() - t;
      const home = homePaths(at.home);
      const ctx = { home, config: () => loadConfig(home.config) };
      const local: number[] = [], warm: number[] = [], cold: number[] = [], trip: number[] = [];
      for (const [n, name] of names.entries()) {
        // Interleaved, so drift on a shared machine hits all alike.
        t = performance.now();
        const base = why(j, name, { viewer: "alice", cwd: at.root });
        local.push(performance.now() - t);
        if (base.current.length + base.history.length === 0) throw new Error(`no memory: ${name}`);
        t = performance.now();
        await pullMemories(j, store);
        why(j, name, { viewer: "alice", cwd: at.root });
        warm.push(performance.now() - t);
        t = performance.now();
        const shared = await SharedMemory.open(ctx);
        try {
          await shared.sync(j);
          why(j, name, { viewer: "alice", cwd: at.root });
        } finally {
          await shared.close();
        }
        cold.push(performance.now() - t);
        t = performance.now();
        await store.query("SELECT 1");
        trip.push(performance.now() - t);
        if (n === 0) {
          local.length =
            warm.length =
            cold.length =
            trip.length =
              0; // warm-up
        }
      }
      const loadPg: number[] = [];
      const probe = join(at.base, "load_pg.ts");
      Deno.writeTextFileSync(
        probe,
        `const t = performance.now(); await import("node:net"); await import("pg");\n` +
          `console.log(performance.now() - t);\n`,
      );
      const processTeam: number[] = [], processLocal: number[] = [];
      const localHome = join(at.base, "home-local");
      Deno.mkdirSync(localHome);
      // The local-only twin: the same journal (checkpointed first), no team URL.
      j.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      Deno.copyFileSync(join(at.home, "journal.db"), join(localHome, "journal.db"));
      Deno.writeTextFileSync(
        join(localHome, "config.json"),
        JSON.stringify({ ...JSON.parse(Deno.readTextFileSync(config)), teamUrl: undefined }),
      );
      for (let i = 0; i < opts.runs; i++) {
        const l = await timeCommand(DENO, ["run", "-A", "--config", CONFIG, probe]);
        if (l.code !== 0) throw new Error(`loading pg failed: ${l.stderr}`);
        loadPg.push(Number(l.stdout.trim()));
        const target = names[i % names.length]!;
        const w = await timeCommand(DENO, [
          ...PERMS,
          "--allow-net=127.0.0.1,localhost",
          MAIN,
          "why",
          target,
        ], {
          env: at.env,
          cwd: at.root,
        });
        if (w.code !== 0) throw new Error(`heimdall why (team) failed (${w.code}): ${w.stderr}`);
        processTeam.push(w.ms);
        const o = await timeCommand(DENO, [...PERMS, MAIN, "why", target], {
          env: { ...at.env, HEIMDALL_HOME: localHome },
          cwd: at.root,
        });
        if (o.code !== 0) throw new Error(`heimdall why (local) failed (${o.code}): ${o.stderr}`);
        processLocal.push(o.ms);
      }
      return {
        memories: opts.teamMemories,
        write: stats(writes),
        firstPullMs,
        rowsPulled: pulled.added,
        whyLocal: stats(local),
        warm: stats(warm),
        cold: stats(cold),
        roundTrip: stats(trip),
        loadPg: stats(loadPg),
        processTeam: stats(processTeam),
        processLocal: stats(processLocal),
      };
    } finally {
      j.close();
    }
  } finally {
    await store.close();
  }
}

function renderTeam(t: TeamFigures): string {
  const inProcess = t.cold.p50 + t.loadPg.p50;
  return [
    `team store on PostgreSQL (loopback): ${t.memories} memories by another developer; first pull of ${t.rowsPulled} rows ${
      (t.firstPullMs / 1000).toFixed(1)
    } s`,
    renderTable(["figure", "p50", "p95", "max", "note"], [
      statRow(
        "shared write (remember/attempt), in process",
        t.write,
        `${fmtRatio(t.write.p50, t.roundTrip.p50)} of a SELECT 1`,
      ),
      statRow(
        "pull (nothing new) + why, connection kept open",
        t.warm,
        `${fmtRatio(t.warm.p50, t.whyLocal.p50)} of why alone`,
      ),
      statRow(
        "connect + pull + why, pg loaded (a CLI's in-process part)",
        t.cold,
        `${fmtRatio(t.cold.p50, t.whyLocal.p50)} of why alone; with loading pg ${
          fmtMs(inProcess)
        } p50, ${inProcess < TARGET_TEAM_WHY_MS ? "met" : "missed"} (< ${TARGET_TEAM_WHY_MS} ms)`,
      ),
      statRow("why alone, same queries", t.whyLocal, "baseline"),
      statRow("SELECT 1 round trip", t.roundTrip, "baseline"),
      statRow("loading node:net and pg, fresh process", t.loadPg, "once per process"),
      statRow(
        "`heimdall why NAME` connected, whole process",
        t.processTeam,
        `${fmtRatio(t.processTeam.p50, t.processLocal.p50)} of the same on the local journal`,
      ),
      statRow("`heimdall why NAME` local journal, whole process", t.processLocal, "baseline"),
    ], [1, 2, 3]),
  ].join("\n");
}

if (import.meta.main) {
  Deno.exit(await runBenchMain("bench_memory", parseOptions, runBench, render));
}
