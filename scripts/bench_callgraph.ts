/**
 * Precision and recall of Heimdall's call graph against real type checkers,
 * on real projects: every call edge Heimdall resolves is checked against the
 * declaration the TypeScript compiler's checker (`typescript` 5, see
 * ./callgraph/oracle_tsc.ts) gives for the same call site in a TypeScript
 * project, and the one Jedi gives (`python3-jedi`, ./callgraph/oracle_jedi.py)
 * in a Python project; scoring in ./callgraph/compare.ts. Targets (issue 13):
 * precision ≥ 97% on both; recall is reported.
 *
 *     deno run -A scripts/bench_callgraph.ts [--ts DIR] [--py DIR]
 *       [--before REV] [--tree DIR] [--samples 12] [--json]
 *
 * Defaults: `--ts /tmp/heimdall-corpus/tree/npm-mobx` (the benchmark corpus
 * of scripts/bench_corpus.ts), `--py` the installed `requests` package.
 * `--before REV` measures the Heimdall of git revision REV too (exported
 * with `git archive` to a temp folder), in the same run; `--tree DIR` measures
 * the Heimdall source tree at DIR instead of this one. Each project is
 * copied to a temp folder, indexed cold with `heimdall index` (fresh home),
 * and the checker runs on the same copy. Progress to stderr, the table (or
 * one JSON object) to stdout. Exit 0 when the run completed (whether or not
 * a target was met), 1 when a tool failed, 2 on bad arguments.
 */
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { compareCalls, type OracleCall, type Score } from "./callgraph/compare.ts";
import { heimdallCalls, jediCalls, tscCalls } from "./callgraph/run.ts";

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

function copyTree(from: string, to: string, keep: RegExp): number {
  let n = 0;
  Deno.mkdirSync(to, { recursive: true });
  for (const e of Deno.readDirSync(from)) {
    if (e.name.startsWith(".") || e.name === "node_modules" || e.name === "__pycache__") continue;
    const src = join(from, e.name);
    if (e.isDirectory) n += copyTree(src, join(to, e.name), keep);
    else if (e.isFile && keep.test(e.name)) {
      Deno.copyFileSync(src, join(to, e.name));
      n++;
    }
  }
  return n;
}

async function sh(cmd: string, args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, ...(cwd ? { cwd } : {}), stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

async function defaultPy(): Promise<string> {
  const file = await sh("python3", ["-c", "import requests; print(requests.__file__)"]);
  return file.replace(/\/__init__\.py$/, "");
}

interface Row {
  project: string;
  checker: string;
  files: number;
  sites: number;
  scores: Record<string, Score>;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      ts: { type: "string", default: "/tmp/heimdall-corpus/tree/npm-mobx" },
      py: { type: "string" },
      before: { type: "string" },
      tree: { type: "string" },
      samples: { type: "string", default: "12" },
      json: { type: "boolean", default: false },
    },
  });
  const samples = Number(values.samples);
  if (!Number.isInteger(samples) || samples < 0) {
    console.error(`--samples "${values.samples}" is not a count; pass a whole number`);
    return 2;
  }
  const scratch = Deno.makeTempDirSync({ prefix: "heimdall-callgraph-" });
  try {
    const trees: Record<string, string> = {};
    const head = await sh("git", ["rev-parse", "--short", "HEAD"], REPO);
    if (values.before) {
      const rev = await sh("git", ["rev-parse", "--short", values.before], REPO);
      const dir = join(scratch, `heimdall-${rev}`);
      Deno.mkdirSync(dir);
      await sh("sh", ["-c", `git -C '${REPO}' archive '${rev}' | tar -x -C '${dir}'`]);
      trees[`before (${rev})`] = dir;
    }
    if (values.tree) trees[`now (${basename(values.tree)})`] = values.tree;
    else {trees[`now (${head}${await sh("git", ["status", "--porcelain"], REPO) ? "+" : ""})`] =
        REPO;}

    const projects: { label: string; dir: string; keep: RegExp; checker: string }[] = [
      {
        label: basename(values.ts),
        dir: values.ts,
        keep: /\.(ts|tsx|mts|cts|json)$/,
        checker: "tsc",
      },
      {
        label: values.py ? basename(values.py) : "requests",
        dir: values.py ?? await defaultPy(),
        keep: /\.py$/,
        checker: "jedi",
      },
    ];
    const rows: Row[] = [];
    for (const p of projects) {
      // The project keeps its folder's name (a Python package must, for
      // its relative imports to mean the copy, not an installed namesake).
      const root = join(scratch, "projects", p.label);
      const files = copyTree(p.dir, join(root, basename(p.dir)), p.keep);
      console.error(`${p.label}: ${files} files; ${p.checker}…`);
      const oracle: OracleCall[] = p.checker === "tsc"
        ? await tscCalls(root)
        : await jediCalls(root);
      const row: Row = {
        project: p.label,
        checker: p.checker === "tsc" ? "tsc 5.9.3" : "jedi",
        files,
        sites: oracle.length,
        scores: {},
      };
      for (const [label, tree] of Object.entries(trees)) {
        console.error(`${p.label}: heimdall ${label}…`);
        const home = join(scratch, "homes", `${p.label}-${label.replace(/\W+/g, "_")}`);
        Deno.mkdirSync(home, { recursive: true });
        row.scores[label] = compareCalls(await heimdallCalls(root, tree, home), oracle, samples);
      }
      rows.push(row);
    }

    if (values.json) {
      console.log(JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));
      return 0;
    }
    console.log(`Call graph against type checkers (${new Date().toISOString().slice(0, 10)})\n`);
    console.log(
      "project".padEnd(14) + "checker".padEnd(11) + "heimdall".padEnd(20) +
        "resolved  judged  correct  precision  in-repo  found  recall  unjudged",
    );
    for (const r of rows) {
      for (const [label, s] of Object.entries(r.scores)) {
        console.log(
          r.project.padEnd(14) + r.checker.padEnd(11) + label.padEnd(20) +
            `${s.resolved}`.padStart(8) + `${s.judged}`.padStart(8) + `${s.correct}`.padStart(9) +
            pct(s.precision).padStart(11) + `${s.inRepo}`.padStart(9) + `${s.found}`.padStart(7) +
            pct(s.recall).padStart(8) + `${s.unjudged}`.padStart(10),
        );
      }
    }
    for (const r of rows) {
      const [label, s] = Object.entries(r.scores).at(-1)!;
      console.log(
        `\n${r.project}, ${r.files} files, ${r.sites} call sites seen by ${r.checker}; heimdall ${label}:`,
      );
      console.log(
        "  judged/correct by how: " +
          Object.entries(s.byHow).map(([how, [j, c]]) => `${how} ${c}/${j}`).join(", "),
      );
      if (s.wrong.length > 0) console.log("  wrong:\n    " + s.wrong.join("\n    "));
      if (s.missed.length > 0) console.log("  missed (sample):\n    " + s.missed.join("\n    "));
    }
    return 0;
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    return 1;
  } finally {
    Deno.removeSync(scratch, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main());
