/**
 * Measures the reconciler's figures on a synthetic repository tree, each as a
 * ratio against a baseline measured in the same run:
 *
 * 1. Cold index at L1 of an N-file tree (`heimdall index`, wall clock of the
 *    subprocess, Deno start-up included) against `git ls-files -z | xargs -0
 *    stat`; then a warm re-index (the stat audit) against the same baseline.
 * 2. Edit → journal updated, with the daemon running: each edit rewrites a
 *    file, then the journal is polled read-only every 2 ms until `paths.hash`
 *    is the sha1 of the new bytes. Baseline: when this script's own
 *    `Deno.watchFs` on the tree saw the same write (the OS notification floor).
 * 3. The daemon's idle CPU and memory with the tree watched, from
 *    /proc/PID/stat and /proc/PID/status of the daemon's own process (its
 *    watcher Worker is a thread of it). Baseline: a bare Deno process holding
 *    a recursive `Deno.watchFs` of the same tree, idle over the same window.
 *
 *     deno run -A scripts/bench_index.ts [--files 50000] [--runs 3] [--edits 100]
 *       [--gap-ms 50] [--idle-s 10] [--seed 1] [--cpu-prof DIR] [--keep] [--json]
 *
 * The tree, the homes and every child process live under one temp folder,
 * removed at the end (also on error or Ctrl-C) unless `--keep`. Progress goes
 * to stderr; the table (or, with `--json`, one JSON object) to stdout. Exit 0
 * when the run completed (whether or not a target was met), 1 when it failed,
 * 2 on bad arguments. `--cpu-prof DIR` adds one untimed cold index run under
 * `deno run --cpu-prof` and leaves its `.cpuprofile` in DIR (open it in Chrome
 * DevTools) to see where the index time goes.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { MAIN, waitFor } from "../tests/helpers.ts";
import {
  bestOf,
  type Cleanup,
  clockTicks,
  cpuTicks,
  fmtMiB,
  fmtMs,
  fmtRatio,
  percentile,
  procMemory,
  renderTable,
  runBenchMain,
  seededRandom,
  sleep,
  timeCommand,
  type Timed,
  UsageError,
  wholeNumber,
} from "./bench_util.ts";

const DENO = Deno.execPath();
const ENV_BASE = { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };
const MiB = 1048576;
const TARGET_COLD_RATIO = 2;
const TARGET_EDIT_P95_MS = 300;
const TARGET_RSS_BYTES = 150 * MiB;

/** What the command line asked for. */
interface Options {
  files: number;
  runs: number;
  edits: number;
  gapMs: number;
  idleS: number;
  seed: number;
  editTimeoutMs: number;
  /** When set, one extra (untimed) cold index writes a V8 CPU profile into this folder. */
  cpuProf: string | undefined;
  keep: boolean;
  json: boolean;
}

/** Bad arguments: exit 2 with the message. */

const USAGE =
  "usage: deno run -A scripts/bench_index.ts [--files N] [--runs N] [--edits N] [--gap-ms MS] [--idle-s S] [--seed N] [--cpu-prof DIR] [--keep] [--json]";

function parseOptions(args: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        files: { type: "string", default: "50000" },
        runs: { type: "string", default: "3" },
        edits: { type: "string", default: "100" },
        "gap-ms": { type: "string", default: "50" },
        "idle-s": { type: "string", default: "10" },
        seed: { type: "string", default: "1" },
        "edit-timeout-ms": { type: "string", default: "10000" },
        "cpu-prof": { type: "string" },
        keep: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }).values;
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n${USAGE}`);
  }
  if (parsed.help) throw new UsageError(USAGE);
  const int = wholeNumber;
  return {
    files: int("files", parsed.files, 50),
    runs: int("runs", parsed.runs, 1),
    edits: int("edits", parsed.edits, 1),
    gapMs: int("gap-ms", parsed["gap-ms"], 0),
    idleS: int("idle-s", parsed["idle-s"], 1),
    seed: int("seed", parsed.seed, 0),
    editTimeoutMs: int("edit-timeout-ms", parsed["edit-timeout-ms"], 100),
    cpuProf: parsed["cpu-prof"],
    keep: parsed.keep,
    json: parsed.json,
  };
}

function progress(message: string): void {
  console.error(`[bench_index] ${message}`);
}

// ─── Synthetic tree ──────────────────────────────────────────────────────────

type Lang = "ts" | "py" | "go" | "rs" | "md" | "json";
type CodeLang = "ts" | "py" | "go" | "rs";

const CODE_LANGS: readonly CodeLang[] = ["ts", "py", "go", "rs"];

const WORDS: readonly string[] = (
  "user order cache index parse render config token session queue event handler buffer " +
  "stream record schema query result client server route layer node graph entry path file " +
  "block state store model view match filter batch worker task job plan item list key value " +
  "count limit offset range span scope frame trace metric error retry timeout lock signal " +
  "account invoice payment ledger report search ranking feature vector shard replica " +
  "snapshot commit"
).split(" ");

const FOLDER_NAMES: readonly string[] = (
  "src lib internal pkg core api handlers models services utils components hooks routes " +
  "store db migrations config tests fixtures docs scripts cmd server client common shared " +
  "types schema auth billing search ingest render parser cache queue events metrics tracing " +
  "storage http grpc cli ui widgets pages jobs workers adapters plugins"
).split(" ");

const REPOS: readonly [string, CodeLang][] = [
  ["web-app", "ts"],
  ["billing-service", "go"],
  ["ml-pipeline", "py"],
  ["search-engine", "rs"],
  ["api-gateway", "ts"],
  ["auth-service", "go"],
  ["data-tools", "py"],
  ["storage-engine", "rs"],
  ["design-system", "ts"],
  ["notifier", "go"],
  ["analytics", "py"],
  ["indexer", "rs"],
];

/** The generated tree: what was written, and which files an edit may rewrite. */
interface TreeInfo {
  /** Root-relative paths of generated source files (tracked, indexed; never an ignore file). */
  editable: { rel: string; lang: Lang }[];
  /** Files git tracks and Heimdall should index (sources plus the .gitignore files). */
  tracked: number;
  /** Files written where both git and Heimdall must skip them (node_modules, ignored). */
  ignored: number;
  bytes: number;
  folders: number;
  maxDepth: number;
}

/** Draws values for the generator from one seeded source. */
class Gen {
  constructor(readonly r: () => number) {}

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }

  pick<T>(arr: readonly T[]): T {
    return arr[Math.floor(this.r() * arr.length)]!;
  }

  word(): string {
    return this.pick(WORDS);
  }

  camel(n = this.int(1, 3)): string {
    let s = this.word();
    for (let i = 1; i < n; i++) s += cap(this.word());
    return s;
  }

  pascal(): string {
    return cap(this.camel(this.int(1, 2)));
  }

  snake(n = this.int(1, 3)): string {
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(this.word());
    return parts.join("_");
  }

  sentence(): string {
    const n = this.int(5, 12);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(this.word());
    return cap(parts.join(" ")) + ".";
  }

  /** A file size in bytes: log-normal (median 2 KiB), clipped to 200 B – 16 KiB. */
  size(): number {
    const u1 = Math.max(this.r(), 1e-12);
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * this.r());
    return Math.min(16384, Math.max(200, Math.round(2048 * Math.exp(0.9 * z))));
  }
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Plausible source text of about `size` bytes (never more) in `lang`. */
function content(g: Gen, lang: Lang, size: number, pkg: string, banner = ""): string {
  if (lang === "json") return jsonContent(g, size, banner);
  let text = banner + header(g, lang, pkg);
  while (text.length < size) text += unit(g, lang);
  if (text.length <= size) return text;
  const cut = text.lastIndexOf("\n", size - 1);
  return cut > size / 2 ? text.slice(0, cut + 1) : text.slice(0, size - 1) + "\n";
}

function header(g: Gen, lang: Lang, pkg: string): string {
  switch (lang) {
    case "ts":
      return `import type { ${g.pascal()} } from "./${g.word()}.ts";\nimport { ${g.camel()} } from "../${g.word()}/mod.ts";\n\n`;
    case "py":
      return `"""${g.sentence()}"""\nfrom __future__ import annotations\n\nimport logging\nfrom .${g.word()} import ${g.pascal()}\n\nlog = logging.getLogger(__name__)\n\n`;
    case "go":
      return `// Package ${pkg} ${g.sentence().toLowerCase()}\npackage ${pkg}\n\nimport (\n\t"context"\n\t"fmt"\n)\n\n`;
    case "rs":
      return `//! ${g.sentence()}\nuse std::collections::HashMap;\nuse crate::${g.word()}::${g.pascal()};\n\n`;
    case "md":
      return `# ${cap(g.word())} ${g.word()}\n\n${g.sentence()} ${g.sentence()}\n\n`;
    case "json":
      return "";
  }
}

function unit(g: Gen, lang: Lang): string {
  const T = g.pascal(), U = g.pascal(), f = g.camel(1), f2 = g.camel(1), n = g.int(2, 4096);
  const a = g.word(), b = g.word() + "s";
  switch (lang) {
    case "ts":
      if (g.r() < 0.35) {
        return `/** ${g.sentence()} */\nexport interface ${T} {\n  ${f}: string;\n  ${f2}Count: number;\n  ${g.word()}?: ${U};\n}\n\n`;
      }
      return `/**\n * ${g.sentence()}\n * ${g.sentence()}\n */\nexport function ${g.camel()}(${a}: ${T}, limit = ${n}): ${U}[] {\n  const out: ${U}[] = [];\n  for (const item of ${a}.${b}) {\n    if (item.${f} > limit) continue;\n    out.push({ ...item, ${f}: item.${f} + 1 });\n  }\n  return out;\n}\n\n`;
    case "py":
      if (g.r() < 0.3) {
        return `class ${T}:\n    """${g.sentence()}"""\n\n    def __init__(self, ${a}, ${f}=${n}):\n        self.${a} = ${a}\n        self.${f} = ${f}\n\n    def ${
          g.snake(2)
        }(self):\n        return [x for x in self.${a} if x.${f2} < self.${f}]\n\n\n`;
      }
      return `def ${g.snake()}(${a}, ${b}=None):\n    """${g.sentence()}"""\n    result = []\n    for item in ${b} or []:\n        if item.${f} > ${n}:\n            log.debug("skip %s", item)\n            continue\n        result.append(item)\n    return result\n\n\n`;
    case "go":
      if (g.r() < 0.3) {
        return `// ${T} ${g.sentence().toLowerCase()}\ntype ${T} struct {\n\t${cap(f)} string\n\t${
          cap(f2)
        } int\n\t${U} *${U}\n}\n\n`;
      }
      return `// ${cap(g.camel())} ${g.sentence().toLowerCase()}\nfunc ${
        cap(g.camel())
      }(ctx context.Context, ${a} *${T}, ${f} int) (${U}, error) {\n\tif ${a} == nil {\n\t\treturn ${U}{}, fmt.Errorf("${g.word()} ${g.word()}: %d", ${f})\n\t}\n\tif ${f} > ${n} {\n\t\treturn ${U}{}, ctx.Err()\n\t}\n\treturn ${U}{}, nil\n}\n\n`;
    case "rs":
      if (g.r() < 0.3) {
        return `/// ${g.sentence()}\n#[derive(Debug, Clone, Default)]\npub struct ${T} {\n    pub ${
          g.snake(1)
        }: String,\n    pub ${g.snake(1)}_count: usize,\n    pub ${
          g.snake(1)
        }: HashMap<String, ${U}>,\n}\n\n`;
      }
      return `/// ${g.sentence()}\npub fn ${g.snake()}(${a}: &${T}, ${f}: usize) -> Option<${U}> {\n    if ${f} > ${n} {\n        return None;\n    }\n    ${a}.${
        g.snake(1)
      }.get("${g.word()}").cloned()\n}\n\n`;
    case "md":
      return `## ${
        cap(g.word())
      } ${g.word()}\n\n${g.sentence()} ${g.sentence()} ${g.sentence()}\n\n- ${g.sentence()}\n- ${g.sentence()}\n\n\`\`\`sh\n${g.word()} --${g.word()} ${n}\n\`\`\`\n\n`;
    case "json":
      return "";
  }
}

function jsonContent(g: Gen, size: number, banner: string): string {
  const entries: string[] = banner === "" ? [] : [`  "_edit": ${JSON.stringify(banner.trim())}`];
  let length = 4;
  while (length < size - 40) {
    const key = `${g.word()}_${g.word()}_${entries.length}`;
    const r = g.r();
    const value = r < 0.3
      ? String(g.int(0, 100000))
      : r < 0.6
      ? JSON.stringify(g.sentence())
      : r < 0.8
      ? `[${g.int(0, 9)}, ${g.int(0, 99)}, ${g.int(0, 999)}]`
      : `{ "${g.word()}": ${g.r() < 0.5}, "${g.word()}": "${g.word()}" }`;
    const entry = `  "${key}": ${value}`;
    entries.push(entry);
    length += entry.length + 2;
  }
  return `{\n${entries.join(",\n")}\n}\n`;
}

const EXT: Record<Lang, string> = {
  ts: ".ts",
  py: ".py",
  go: ".go",
  rs: ".rs",
  md: ".md",
  json: ".json",
};

/** The file name stem convention of each language. */
function fileStem(g: Gen, lang: Lang): string {
  switch (lang) {
    case "ts":
      return `${g.word()}-${g.word()}`;
    case "md":
      return `${g.word().toUpperCase()}_${g.word().toUpperCase()}`;
    case "json":
      return `${g.word()}.${g.word()}`;
    default:
      return g.snake(2);
  }
}

interface Folder {
  rel: string;
  depth: number;
  lang: CodeLang;
  names: Set<string>;
}

/**
 * Writes a deterministic tree of `files` indexable files under `root`: a
 * handful of "repositories" (one dominant language each), nested folders of
 * 10–40 files grown by random attachment (so depth varies), mixed .ts .py .go
 * .rs .md .json files of 200 B – 16 KiB, two .gitignore files, and content
 * both git and Heimdall must skip (node_modules, an ignored `generated/`
 * folder, `*.log` files).
 */
function generateTree(root: string, files: number, seed: number): TreeInfo {
  const g = new Gen(seededRandom(seed));
  const info: TreeInfo = {
    editable: [],
    tracked: 0,
    ignored: 0,
    bytes: 0,
    folders: 0,
    maxDepth: 0,
  };
  const write = (rel: string, text: string, kind: "tracked" | "ignored") => {
    Deno.writeTextFileSync(join(root, rel), text);
    info.bytes += text.length;
    info[kind]++;
  };
  const mkdir = (rel: string) => {
    Deno.mkdirSync(join(root, rel), { recursive: true });
    info.folders++;
  };

  write(".gitignore", "# dependencies and noise\nnode_modules/\n*.log\n.cache/\n", "tracked");
  const repoCount = Math.max(1, Math.min(REPOS.length, Math.round(files / 4000)));
  const folders: Folder[] = [];
  const newFolder = (parent: Folder | undefined, name: string, lang: CodeLang): Folder => {
    const siblings = parent?.names ?? new Set<string>();
    let unique = name;
    for (let i = 2; siblings.has(unique); i++) unique = `${name}${i}`;
    siblings.add(unique);
    const rel = parent ? `${parent.rel}/${unique}` : unique;
    const folder = { rel, depth: (parent?.depth ?? 0) + 1, lang, names: new Set<string>() };
    mkdir(rel);
    info.maxDepth = Math.max(info.maxDepth, folder.depth);
    folders.push(folder);
    return folder;
  };
  const topNames = new Set<string>();
  for (let i = 0; i < repoCount; i++) {
    const [name, lang] = REPOS[i]!;
    const repo = newFolder(undefined, name, lang);
    topNames.add(repo.rel);
  }

  let remaining = files;
  const fill = (folder: Folder, count: number) => {
    for (let i = 0; i < count; i++) {
      const r = g.r();
      const lang: Lang = r < 0.72
        ? folder.lang
        : r < 0.82
        ? "json"
        : r < 0.9
        ? "md"
        : g.pick(CODE_LANGS);
      let name = lang === "md" && !folder.names.has("README.md")
        ? "README.md"
        : fileStem(g, lang) + EXT[lang];
      for (let k = 2; folder.names.has(name); k++) name = `${fileStem(g, lang)}${k}${EXT[lang]}`;
      folder.names.add(name);
      const rel = `${folder.rel}/${name}`;
      const pkg = folder.rel.slice(folder.rel.lastIndexOf("/") + 1).replace(/[^a-z]/g, "") ||
        "main";
      write(rel, content(g, lang, g.size(), pkg), "tracked");
      info.editable.push({ rel, lang });
    }
    remaining -= count;
  };
  for (const repo of [...folders]) fill(repo, Math.min(remaining, g.int(10, 40)));
  while (remaining > 0) {
    // Uniform attachment: a random existing folder gets a child, so depth grows like log(n)
    // and varies; a folder switches language now and then, like a polyglot repository.
    let parent = g.pick(folders);
    for (let tries = 0; parent.depth >= 12 && tries < 20; tries++) parent = g.pick(folders);
    const lang = g.r() < 0.15 ? g.pick(CODE_LANGS) : parent.lang;
    const folder = newFolder(parent, g.pick(FOLDER_NAMES), lang);
    fill(folder, Math.min(remaining, g.int(10, 40)));
  }

  // What must be skipped: node_modules (Heimdall's default and the root .gitignore),
  // a generated/ folder ignored by a nested .gitignore, and stray *.log files.
  const first = folders[0]!;
  write(`${first.rel}/.gitignore`, "generated/\n*.tmp\n", "tracked");
  const skipped = Math.max(30, Math.round(files * 0.03));
  const packages = ["left-pad", "lodash", "react", "typescript", "esbuild", "zod", "chalk"];
  for (let i = 0; i < skipped; i++) {
    const inRepo = i % 3 === 0;
    const pkgDir = `${inRepo ? first.rel + "/" : ""}node_modules/${g.pick(packages)}/${
      g.pick(["lib", "dist", "src", "esm"])
    }`;
    Deno.mkdirSync(join(root, pkgDir), { recursive: true });
    write(`${pkgDir}/${g.word()}_${i}.js`, content(g, "ts", g.size(), "x"), "ignored");
  }
  const generated = `${first.rel}/generated`;
  Deno.mkdirSync(join(root, generated), { recursive: true });
  for (let i = 0; i < Math.max(5, Math.round(files * 0.002)); i++) {
    write(`${generated}/${g.word()}_${i}.ts`, content(g, "ts", g.size(), "x"), "ignored");
  }
  for (let i = 0; i < 5; i++) {
    const f = g.pick(folders);
    write(`${f.rel}/${g.word()}-${i}.log`, `${g.sentence()}\n`.repeat(g.int(5, 50)), "ignored");
    write(`${first.rel}/${g.word()}-${i}.tmp`, `${g.sentence()}\n`, "ignored");
  }
  return info;
}

// ─── Heimdall subprocesses ───────────────────────────────────────────────────

/** One `heimdall index --json` run: wall time, in-process time, files indexed. */
interface IndexRun extends Timed {
  home: string;
  inProcessMs: number;
  indexed: number;
  changed: number;
}

function heimdall(home: string, args: string[], denoFlags: string[] = []): Promise<Timed> {
  return timeCommand(DENO, [
    "run",
    "-A",
    "--v8-flags=--expose-gc,--max-semi-space-size=4",
    ...denoFlags,
    MAIN,
    ...args,
  ], {
    env: { ...ENV_BASE, HEIMDALL_HOME: home },
  });
}

async function indexRun(home: string, tree: string, denoFlags: string[] = []): Promise<IndexRun> {
  const t = await heimdall(home, ["index", tree, "--depth", "L1", "--json"], denoFlags);
  if (t.code !== 0) {
    throw new Error(
      `heimdall index "${tree}" exited ${t.code} with HEIMDALL_HOME="${home}": ${
        (t.stderr || t.stdout).trim().slice(-2000)
      }`,
    );
  }
  let out: {
    ms: number;
    stats: { changed: number };
    counts: { paths: Record<string, number> };
  };
  try {
    out = JSON.parse(t.stdout.trim().split("\n").pop() ?? "");
  } catch {
    throw new Error(`heimdall index --json printed no JSON line; stdout was: ${t.stdout.trim()}`);
  }
  const indexed = Object.values(out.counts.paths).reduce((a, b) => a + b, 0);
  return { ...t, home, inProcessMs: out.ms, indexed, changed: out.stats.changed };
}

/** A running daemon, stopped by SIGTERM (SIGKILL after 10 s) at most once. */
interface Daemon {
  pid: number;
  readyMs: number;
  auditMs: number | undefined;
  stop(): Promise<{ code: number | null; ms: number }>;
}

async function startDaemon(home: string, cleanup: Cleanup): Promise<Daemon> {
  const child = new Deno.Command(DENO, {
    args: ["run", "-A", "--v8-flags=--expose-gc,--max-semi-space-size=4", MAIN, "daemon"],
    env: { ...ENV_BASE, HEIMDALL_HOME: home },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const t0 = performance.now();
  let exited: Deno.CommandStatus | undefined;
  const status = child.status.then((s) => (exited = s));
  let stopped: Promise<{ code: number | null; ms: number }> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      const s0 = performance.now();
      if (exited) return { code: exited.code, ms: 0 };
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
      }, 10_000);
      const s = await status;
      clearTimeout(timer);
      return { code: s.signal === null ? s.code : null, ms: performance.now() - s0 };
    })();
    return stopped;
  };
  cleanup.add(`stop the daemon (pid ${child.pid})`, async () => void (await stop()));

  const logFile = join(home, "logs", "daemon.log");
  const marker = `daemon pid ${child.pid} watching`;
  const ours = () => {
    try {
      const text = Deno.readTextFileSync(logFile);
      const at = text.indexOf(marker);
      return at < 0 ? "" : text.slice(at);
    } catch {
      return "";
    }
  };
  await waitFor(
    () => {
      if (exited) {
        throw new Error(
          `the daemon exited with code ${exited.code} before it was ready; its log "${logFile}" ends with:\n${
            ours().slice(-1500) || "(nothing)"
          }`,
        );
      }
      return /\binfo ready$/m.test(ours());
    },
    300_000,
    `"ready" in "${logFile}" from daemon pid ${child.pid}`,
  );
  const readyMs = performance.now() - t0;
  const audit = ours().match(/audit: \d+ seen, \d+ changed, \d+ retracted in (\d+) ms/);
  const name = procMemory(child.pid).name;
  if (name !== "deno") {
    throw new Error(`pid ${child.pid} is "${name}", not the deno daemon; cannot measure it`);
  }
  return {
    pid: child.pid,
    readyMs,
    auditMs: audit ? Number(audit[1]) : undefined,
    stop,
  };
}

/** The idle baseline: a bare Deno process holding a recursive watch of the tree. */
async function startWatchBaseline(
  work: string,
  tree: string,
  cleanup: Cleanup,
): Promise<{ pid: number }> {
  const script = join(work, "watch_idle.ts");
  Deno.writeTextFileSync(
    script,
    `const w = Deno.watchFs(Deno.args[0]!, { recursive: true });\n` +
      `await Deno.stdout.write(new TextEncoder().encode("ready\\n"));\n` +
      `for await (const _ of w) { /* idle */ }\n`,
  );
  const child = new Deno.Command(DENO, {
    args: ["run", "--allow-read", script, tree],
    env: ENV_BASE,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.getReader();
  cleanup.add(`stop the watch baseline (pid ${child.pid})`, async () => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await reader.cancel().catch(() => {});
    await child.status;
  });
  let seen = "";
  const dec = new TextDecoder();
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the watch baseline process exited before it was watching");
    seen += dec.decode(value);
  }
  return { pid: child.pid };
}

/**
 * Warns when the OS inotify watch limit cannot hold the daemon's, this
 * script's and the baseline's watches of every folder: edits in unwatched
 * folders would wait for the daemon's periodic audit and time out here.
 */
function checkWatchLimit(folders: number): void {
  let limit: number;
  try {
    limit = Number(Deno.readTextFileSync("/proc/sys/fs/inotify/max_user_watches").trim());
  } catch {
    return;
  }
  if (limit < 3 * (folders + 10)) {
    progress(
      `warning: fs.inotify.max_user_watches is ${limit}, below the ~${
        3 * (folders + 10)
      } watches this run takes (${folders} folders, three watchers); raise it with sysctl or expect edit timeouts`,
    );
  }
}

// ─── The run ─────────────────────────────────────────────────────────────────

/** Everything measured, as printed with `--json`. */
interface Result {
  machine: { cores: number; deno: string };
  tree: {
    files: number;
    tracked: number;
    gitFiles: number;
    heimdallFiles: number;
    ignoredOnDisk: number;
    bytes: number;
    folders: number;
    maxDepth: number;
    generateMs: number;
    gitAddMs: number;
  };
  cold: {
    baselineMs: number[];
    heimdallMs: number[];
    inProcessMs: number[];
    denoStartupMs: number[];
    ratio: number;
    target: number;
    met: boolean;
  };
  warm: { heimdallMs: number[]; inProcessMs: number[]; ratio: number; changed: number };
  daemon: { pid: number; readyMs: number; startupAuditMs: number | null };
  edits: {
    count: number;
    timeouts: number;
    latencyMs: number[];
    p50: number;
    p95: number;
    max: number;
    watchP50: number;
    watchP95: number;
    watchMax: number;
    watchMissed: number;
    ratioP50: number;
    ratioP95: number;
    cpuMsDuring: number;
    target: number;
    met: boolean;
  };
  idle: {
    seconds: number;
    cpuPercent: number;
    baselineCpuPercent: number;
    rss: number;
    hwm: number;
    threads: number;
    baselineRss: number;
    baselineHwm: number;
    rssAfterReady: number;
    rssRatio: number;
    target: number;
    met: boolean;
  };
  stop: { code: number | null; ms: number };
  totalMs: number;
}

/** Phase 1: the stat baseline, Deno start-up, cold index runs, warm re-index runs. */
async function measureIndex(opts: Options, work: string, tree: string, gitFiles: number) {
  progress(`baseline: git ls-files -z | xargs -0 stat (best of ${opts.runs})`);
  const baseline = await bestOf(opts.runs, async () => {
    const r = await timeCommand("bash", ["-c", "git ls-files -z | xargs -0 stat > /dev/null"], {
      cwd: tree,
    });
    if (r.code !== 0) throw new Error(`the stat baseline failed in "${tree}": ${r.stderr}`);
    return r;
  });
  const startup = await bestOf(opts.runs, () => heimdall(join(work, "home-help"), ["help"]));
  const cold = await bestOf(opts.runs, async (i) => {
    const r = await indexRun(join(work, `home-${i}`), tree);
    progress(`cold index ${i + 1}/${opts.runs}: ${fmtMs(r.ms)} (${r.indexed} files)`);
    return r;
  });
  // The last run's home goes on to the warm runs and the daemon; the others are not needed.
  const home = cold.all[cold.all.length - 1]!.home;
  for (const r of cold.all) if (r.home !== home) Deno.removeSync(r.home, { recursive: true });
  if (cold.best.indexed !== gitFiles) {
    progress(
      `warning: heimdall indexed ${cold.best.indexed} files, git tracks ${gitFiles}: the two sides do not cover the same files`,
    );
  }
  if (opts.cpuProf !== undefined) {
    const dir = Deno.realPathSync(opts.cpuProf);
    const flags = ["--cpu-prof", `--cpu-prof-dir=${dir}`];
    const r = await indexRun(join(work, "home-prof"), tree, flags);
    Deno.removeSync(r.home, { recursive: true });
    progress(`profiled cold index (untimed): ${fmtMs(r.ms)}; .cpuprofile written to ${dir}`);
  }
  const warm = await bestOf(opts.runs, async (i) => {
    const r = await indexRun(home, tree);
    progress(`warm re-index ${i + 1}/${opts.runs}: ${fmtMs(r.ms)} (${r.changed} changed)`);
    return r;
  });
  const ratio = cold.best.ms / baseline.best.ms;
  return {
    home,
    heimdallFiles: cold.best.indexed,
    cold: {
      baselineMs: baseline.all.map((r) => r.ms),
      heimdallMs: cold.all.map((r) => r.ms),
      inProcessMs: cold.all.map((r) => r.inProcessMs),
      denoStartupMs: startup.all.map((r) => r.ms),
      ratio,
      target: TARGET_COLD_RATIO,
      met: ratio <= TARGET_COLD_RATIO,
    },
    warm: {
      heimdallMs: warm.all.map((r) => r.ms),
      inProcessMs: warm.all.map((r) => r.inProcessMs),
      ratio: warm.best.ms / baseline.best.ms,
      changed: warm.best.changed,
    },
  };
}

/**
 * Phase 2: rewrites random files while the daemon runs and polls the journal
 * (read-only, every 2 ms) until each file's row holds the sha1 of its new
 * bytes; this script's own watch of the tree times the OS notification.
 */
async function measureEdits(
  opts: Options,
  daemon: Daemon,
  home: string,
  tree: string,
  info: TreeInfo,
  cleanup: Cleanup,
): Promise<Result["edits"]> {
  const journalFile = join(home, "journal.db");
  const db = new DatabaseSync(journalFile, { readOnly: true, timeout: 1000 });
  cleanup.add("close the journal", () => db.close());
  const hashOf = db.prepare("SELECT hash FROM paths WHERE path = ?");
  const readHash = (path: string): string | undefined => {
    try {
      return (hashOf.get(path) as { hash: string | null } | undefined)?.hash ?? undefined;
    } catch {
      return undefined; // busy during a checkpoint: poll again
    }
  };
  const probe = join(tree, info.editable[0]!.rel);
  if (readHash(probe) === undefined) {
    throw new Error(
      `the journal "${journalFile}" has no hash for "${probe}": paths are not stored as this script expects`,
    );
  }
  const watcher = Deno.watchFs(tree, { recursive: true });
  cleanup.add("close the bench watcher", () => {
    try {
      watcher.close();
    } catch { /* closed */ }
  });
  let current: { path: string; eventAt?: number } | undefined;
  const watching = (async () => {
    for await (const ev of watcher) {
      const now = performance.now();
      if (current && current.eventAt === undefined && ev.paths.includes(current.path)) {
        current.eventAt = now;
      }
    }
  })();

  progress(`${opts.edits} edits, ${opts.gapMs} ms apart`);
  const g = new Gen(seededRandom(opts.seed + 1_000_003));
  const enc = new TextEncoder();
  const latency: number[] = [];
  const watchLatency: number[] = [];
  let timeouts = 0;
  const ticks = await clockTicks();
  const cpuBefore = cpuTicks(daemon.pid);
  for (let i = 0; i < opts.edits; i++) {
    const target = g.pick(info.editable);
    const path = join(tree, target.rel);
    const bytes = enc.encode(content(g, target.lang, g.size(), "edited", banner(target.lang, i)));
    const want = createHash("sha1").update(bytes).digest("hex");
    const edit: { path: string; eventAt?: number } = { path };
    current = edit;
    const t0 = performance.now();
    Deno.writeFileSync(path, bytes);
    let done = false;
    while (!done && performance.now() - t0 <= opts.editTimeoutMs) {
      if (readHash(path) === want) done = true;
      else await sleep(2);
    }
    const ms = performance.now() - t0;
    if (!done) {
      timeouts++;
      progress(`edit ${i}: "${path}" not in the journal after ${fmtMs(ms)}`);
    }
    latency.push(ms);
    if (edit.eventAt !== undefined) watchLatency.push(edit.eventAt - t0);
    current = undefined;
    await sleep(opts.gapMs);
  }
  const cpuMsDuring = ((cpuTicks(daemon.pid) - cpuBefore) / ticks) * 1000;
  watcher.close();
  await watching.catch(() => {});

  const p50 = percentile(latency, 50), p95 = percentile(latency, 95);
  const watchP50 = percentile(watchLatency, 50), watchP95 = percentile(watchLatency, 95);
  return {
    count: opts.edits,
    timeouts,
    latencyMs: latency.map((x) => Math.round(x * 10) / 10),
    p50,
    p95,
    max: Math.max(...latency),
    watchP50,
    watchP95,
    watchMax: watchLatency.length > 0 ? Math.max(...watchLatency) : NaN,
    watchMissed: opts.edits - watchLatency.length,
    ratioP50: p50 / watchP50,
    ratioP95: p95 / watchP95,
    cpuMsDuring,
    target: TARGET_EDIT_P95_MS,
    met: timeouts === 0 && p95 < TARGET_EDIT_P95_MS,
  };
}

/** A first line that marks an edit, as a comment of the file's language. */
function banner(lang: Lang, i: number): string {
  switch (lang) {
    case "py":
      return `# edit ${i}\n`;
    case "md":
      return `<!-- edit ${i} -->\n`;
    case "json":
      return `edit ${i}`;
    default:
      return `// edit ${i}\n`;
  }
}

/**
 * Phase 3: the daemon and the bare-watch baseline idle side by side for
 * `idleS` seconds; CPU from /proc/PID/stat, memory from /proc/PID/status.
 */
async function measureIdle(
  opts: Options,
  daemon: Daemon,
  work: string,
  tree: string,
  rssAfterReady: number,
  cleanup: Cleanup,
): Promise<Result["idle"]> {
  progress(`idle ${opts.idleS} s (daemon and a bare Deno watchFs of the tree side by side)`);
  const base = await startWatchBaseline(work, tree, cleanup);
  const ticks = await clockTicks();
  const d0 = cpuTicks(daemon.pid), b0 = cpuTicks(base.pid), w0 = performance.now();
  await sleep(opts.idleS * 1000);
  const d1 = cpuTicks(daemon.pid), b1 = cpuTicks(base.pid), w1 = performance.now();
  const seconds = (w1 - w0) / 1000;
  const mem = procMemory(daemon.pid);
  const baseMem = procMemory(base.pid);
  return {
    seconds,
    cpuPercent: ((d1 - d0) / ticks / seconds) * 100,
    baselineCpuPercent: ((b1 - b0) / ticks / seconds) * 100,
    rss: mem.rss,
    hwm: mem.hwm,
    threads: mem.threads,
    baselineRss: baseMem.rss,
    baselineHwm: baseMem.hwm,
    rssAfterReady,
    rssRatio: mem.rss / baseMem.rss,
    target: TARGET_RSS_BYTES,
    met: mem.rss < TARGET_RSS_BYTES,
  };
}

async function runBench(opts: Options, cleanup: Cleanup): Promise<Result> {
  const tStart = performance.now();
  const work = Deno.makeTempDirSync({ prefix: "heimdall-bench-" });
  if (opts.keep) progress(`keeping ${work}`);
  else cleanup.add(`remove "${work}"`, () => Deno.removeSync(work, { recursive: true }));
  Deno.mkdirSync(join(work, "tree"));
  const tree = Deno.realPathSync(join(work, "tree"));

  progress(`generating ${opts.files} files under ${tree}`);
  let t = performance.now();
  const info = generateTree(tree, opts.files, opts.seed);
  const generateMs = performance.now() - t;
  progress(
    `wrote ${info.tracked + info.ignored} files (${
      fmtMiB(info.bytes)
    }, ${info.folders} folders) in ${fmtMs(generateMs)}; git add -A`,
  );
  t = performance.now();
  for (const args of [["init", "-q"], ["add", "-A"]]) {
    const r = await timeCommand("git", args, { cwd: tree });
    if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed in "${tree}": ${r.stderr}`);
  }
  const gitAddMs = performance.now() - t;
  checkWatchLimit(info.folders);
  const ls = await timeCommand("git", ["ls-files", "-z"], { cwd: tree });
  const gitFiles = ls.stdout.split("\0").filter((s) => s !== "").length;

  const index = await measureIndex(opts, work, tree, gitFiles);
  progress("starting the daemon");
  const daemon = await startDaemon(index.home, cleanup);
  progress(`daemon pid ${daemon.pid} ready after ${fmtMs(daemon.readyMs)}`);
  const rssAfterReady = procMemory(daemon.pid).rss;
  const edits = await measureEdits(opts, daemon, index.home, tree, info, cleanup);
  const idle = await measureIdle(opts, daemon, work, tree, rssAfterReady, cleanup);
  const stop = await daemon.stop();
  progress(`daemon stopped with ${stop.code === null ? "a signal" : `code ${stop.code}`}`);

  return {
    machine: { cores: navigator.hardwareConcurrency, deno: Deno.version.deno },
    tree: {
      files: opts.files,
      tracked: info.tracked,
      gitFiles,
      heimdallFiles: index.heimdallFiles,
      ignoredOnDisk: info.ignored,
      bytes: info.bytes,
      folders: info.folders,
      maxDepth: info.maxDepth,
      generateMs,
      gitAddMs,
    },
    cold: index.cold,
    warm: index.warm,
    daemon: { pid: daemon.pid, readyMs: daemon.readyMs, startupAuditMs: daemon.auditMs ?? null },
    edits,
    idle,
    stop,
    totalMs: performance.now() - tStart,
  };
}

// ─── Output ──────────────────────────────────────────────────────────────────

/** The human-readable report: a title line, the table, a footer. */
function renderResult(r: Result, runs: number): string {
  const min = (xs: number[]) => Math.min(...xs);
  const verdict = (met: boolean) => (met ? "met" : "MISSED");
  const pct = (x: number) => `${x.toFixed(2)} %`;
  const row = (...cells: string[]) => cells;
  const statBase = `${fmtMs(min(r.cold.baselineMs))} git ls-files|stat`;
  const watchBase = (x: number) => `${fmtMs(x)} raw watchFs event`;
  const bare = (x: string) => `${x} deno+watchFs`;
  const { cold, warm, edits: e, idle: i, tree: t } = r;
  const coldMs = min(cold.heimdallMs), warmMs = min(warm.heimdallMs);
  const rows = [
    row(
      `1 cold index --depth L1 (wall, best of ${runs})`,
      fmtMs(coldMs),
      statBase,
      fmtRatio(coldMs, min(cold.baselineMs)),
      `≤ ${cold.target}×`,
      verdict(cold.met),
    ),
    row("  ↳ in-process (index --json ms)", fmtMs(min(cold.inProcessMs))),
    row("  ↳ deno start-up (heimdall help)", fmtMs(min(cold.denoStartupMs))),
    row(
      `  warm re-index, stat audit (best of ${runs})`,
      fmtMs(warmMs),
      statBase,
      fmtRatio(warmMs, min(cold.baselineMs)),
    ),
    row("  ↳ in-process (index --json ms)", fmtMs(min(warm.inProcessMs))),
    row(
      `2 edit → journal p50 (${e.count} edits)`,
      fmtMs(e.p50),
      watchBase(e.watchP50),
      fmtRatio(e.p50, e.watchP50),
    ),
    row(
      "  edit → journal p95",
      fmtMs(e.p95),
      watchBase(e.watchP95),
      fmtRatio(e.p95, e.watchP95),
      `< ${e.target} ms`,
      verdict(e.met),
    ),
    row("  edit → journal max", fmtMs(e.max), watchBase(e.watchMax)),
    row("  timed out / watch events missed", `${e.timeouts} / ${e.watchMissed}`),
    row("  daemon CPU during the edits", fmtMs(e.cpuMsDuring)),
    row(
      `3 daemon idle CPU (${i.seconds.toFixed(1)} s)`,
      pct(i.cpuPercent),
      bare(pct(i.baselineCpuPercent)),
      fmtRatio(i.cpuPercent, i.baselineCpuPercent),
    ),
    row(
      "  daemon VmRSS after idle",
      fmtMiB(i.rss),
      bare(fmtMiB(i.baselineRss)),
      fmtRatio(i.rss, i.baselineRss),
      `< ${fmtMiB(i.target)}`,
      verdict(i.met),
    ),
    row(
      "  daemon VmHWM (peak)",
      fmtMiB(i.hwm),
      bare(fmtMiB(i.baselineHwm)),
      fmtRatio(i.hwm, i.baselineHwm),
    ),
    row("  daemon VmRSS right after ready", fmtMiB(i.rssAfterReady)),
    row(
      "  daemon start → ready (startup audit)",
      `${fmtMs(r.daemon.readyMs)} (${
        r.daemon.startupAuditMs === null ? "?" : fmtMs(r.daemon.startupAuditMs)
      })`,
    ),
    row(
      "  SIGTERM → exit",
      `${fmtMs(r.stop.ms)}, ${r.stop.code === null ? "killed" : `code ${r.stop.code}`}`,
    ),
  ];
  const title = [
    `Heimdall reconciler bench: ${t.files} files requested, ${t.gitFiles} tracked by git, ` +
    `${t.heimdallFiles} indexed by heimdall, ${t.ignoredOnDisk} ignored on disk`,
    `${fmtMiB(t.bytes)} in ${t.folders} folders (depth ≤ ${t.maxDepth}); ` +
    `${r.machine.cores} cores, deno ${r.machine.deno}`,
  ].join("\n");
  const table = renderTable(
    ["figure", "heimdall", "baseline", "ratio", "target", "verdict"],
    rows,
    [1, 3],
  );
  const foot = `daemon pid ${r.daemon.pid} (${i.threads} threads); tree generated in ${
    fmtMs(t.generateMs)
  }, git add in ${fmtMs(t.gitAddMs)}; whole run ${fmtMs(r.totalMs)}`;
  return `${title}\n\n${table}\n\n${foot}`;
}

if (import.meta.main) {
  Deno.exit(
    await runBenchMain(
      "bench_index",
      parseOptions,
      runBench,
      (result, opts) => renderResult(result, opts.runs),
    ),
  );
}
