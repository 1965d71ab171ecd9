/**
 * Reads V8 `.cpuprofile` files (as `deno run --cpu-prof` writes them, one per
 * thread: the main one and each Worker's) and says where the time went: self
 * and inclusive time per function, and self time per source file.
 *
 *     deno run -A scripts/cpuprof_summary.ts FILE_OR_DIR… [--top 25] [--json]
 *
 * Inclusive time counts a sample once per distinct function on its stack, so
 * recursion is not counted twice. `(program)` and `(garbage collector)` are
 * V8's own pseudo-frames; idle frames (see IDLE) are left out of the busy
 * time. Benchmarks only.
 */
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { fmtMs, renderTable } from "./bench_util.ts";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The parts of a V8 CPU profile this reads. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One function's share of a profile, in ms. */
export interface FunctionTime {
  name: string;
  /** `file:line` (1-based), shortened to the path after the last `/src/`, `/scripts/` or `npm/`. */
  where: string;
  selfMs: number;
  totalMs: number;
  /**
   * For native frames (no source file, such as a SQLite statement's `all`):
   * the functions that called them (past wrappers of the same name), by time.
   */
  callers?: { name: string; where: string; ms: number }[];
}

/** What one thread's profile says. */
export interface ProfileSummary {
  file: string;
  /** Wall span of the profile and the sampled time outside `(idle)`. */
  wallMs: number;
  busyMs: number;
  gcMs: number;
  functions: FunctionTime[];
  /** Self time per source file, largest first. */
  files: { file: string; selfMs: number }[];
}

/**
 * Frames that are waiting, not working: V8's `(idle)`, and a Worker blocked
 * on its next message (under `--cpu-prof` the inspector turns that wait into
 * `op_worker_maybe_wait_for_debugger`).
 */
const IDLE = new Set(["(idle)", "op_worker_maybe_wait_for_debugger"]);

function shortUrl(url: string): string {
  if (url === "") return "";
  const m = url.match(/\/(src|scripts|tests)\/(.*)$/) ?? url.match(/npm\/[^/]+\/(.*)$/);
  if (m) return m[2] ? `${m[1]}/${m[2]}` : m[1]!;
  return url.replace(/^file:\/\//, "").replace(/^ext:/, "ext:");
}

/** Summarises one parsed profile; `file` only labels it. Costs O(samples × stack depth). */
export function summarizeProfile(profile: CpuProfile, file = ""): ProfileSummary {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const keyOf = (n: ProfileNode) => {
    const f = n.callFrame;
    const where = f.url === "" ? "" : `${shortUrl(f.url)}:${f.lineNumber + 1}`;
    return `${f.functionName || "(anonymous)"}\t${where}`;
  };
  const self = new Map<string, number>();
  const nativeCallers = new Map<string, Map<string, number>>();
  const total = new Map<string, number>();
  const fileSelf = new Map<string, number>();
  let busy = 0, gc = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]!);
    if (node === undefined) continue;
    const name = node.callFrame.functionName;
    if (IDLE.has(name)) continue;
    busy += ms;
    if (name === "(garbage collector)") gc += ms;
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + ms);
    if (node.callFrame.url === "" && !name.startsWith("(")) {
      // Walk down past native frames and thin wrappers of the same name (a
      // `journal.all()` around SQLite's `all`): the next frame ran this call.
      const skip = (f: CallFrame) => f.url === "" || f.functionName === name;
      let id = parent.get(node.id);
      while (id !== undefined && skip(byId.get(id)!.callFrame)) id = parent.get(id);
      const by = id === undefined ? "(root)" : keyOf(byId.get(id)!);
      let m = nativeCallers.get(key);
      if (m === undefined) nativeCallers.set(key, m = new Map());
      m.set(by, (m.get(by) ?? 0) + ms);
    }
    const url = shortUrl(node.callFrame.url) || name;
    fileSelf.set(url, (fileSelf.get(url) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const k = keyOf(byId.get(id)!);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + ms);
    }
  }
  const functions = [...total.entries()].map(([k, t]): FunctionTime => {
    const [name, where] = k.split("\t") as [string, string];
    const by = nativeCallers.get(k);
    const callers = by === undefined ? undefined : [...by.entries()]
      .map(([c, ms]) => {
        const [cn, cw] = c.split("\t") as [string, string | undefined];
        return { name: cn, where: cw ?? "", ms };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5);
    return { name, where, selfMs: self.get(k) ?? 0, totalMs: t, ...(callers ? { callers } : {}) };
  });
  return {
    file,
    wallMs: (profile.endTime - profile.startTime) / 1000,
    busyMs: busy,
    gcMs: gc,
    functions,
    files: [...fileSelf.entries()].map(([f, ms]) => ({ file: f, selfMs: ms }))
      .sort((a, b) => b.selfMs - a.selfMs),
  };
}

/** Reads and summarises every `.cpuprofile` in `paths` (files, or folders holding them). */
export function summarizeProfiles(paths: readonly string[]): ProfileSummary[] {
  const files: string[] = [];
  for (const p of paths) {
    if (Deno.statSync(p).isDirectory) {
      for (const e of Deno.readDirSync(p)) {
        if (e.isFile && e.name.endsWith(".cpuprofile")) files.push(join(p, e.name));
      }
    } else files.push(p);
  }
  return files.sort().map((f) =>
    summarizeProfile(JSON.parse(Deno.readTextFileSync(f)) as CpuProfile, f)
  );
}

/** Top `n` functions by self and by inclusive time, and top files, for one thread. */
export function renderSummary(s: ProfileSummary, n: number): string {
  const pct = (ms: number) => `${((ms / Math.max(s.busyMs, 1e-9)) * 100).toFixed(1)} %`;
  const bySelf = [...s.functions].sort((a, b) => b.selfMs - a.selfMs).slice(0, n);
  const byTotal = [...s.functions]
    .filter((f) => !f.name.startsWith("(") && f.where !== "")
    .sort((a, b) => b.totalMs - a.totalMs)
    .slice(0, n);
  return [
    `${basename(s.file)}: wall ${fmtMs(s.wallMs)}, busy ${fmtMs(s.busyMs)}, GC ${fmtMs(s.gcMs)}`,
    "",
    renderTable(
      ["self", "%", "function", "where"],
      bySelf.flatMap((f) => [
        [fmtMs(f.selfMs), pct(f.selfMs), f.name, f.where],
        // Native frames (SQLite's all/get/run): who called them.
        ...(f.selfMs / Math.max(s.busyMs, 1e-9) >= 0.05 ? f.callers ?? [] : []).map((c) => [
          fmtMs(c.ms),
          pct(c.ms),
          `  ↳ from ${c.name}`,
          c.where,
        ]),
      ]),
      [0, 1],
    ),
    "",
    renderTable(
      ["inclusive", "%", "function", "where"],
      byTotal.map((f) => [fmtMs(f.totalMs), pct(f.totalMs), f.name, f.where]),
      [0, 1],
    ),
    "",
    renderTable(
      ["self", "%", "file"],
      s.files.slice(0, Math.min(n, 12)).map((f) => [fmtMs(f.selfMs), pct(f.selfMs), f.file]),
      [0, 1],
    ),
  ].join("\n");
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { top: { type: "string", default: "25" }, json: { type: "boolean", default: false } },
    allowPositionals: true,
  });
  if (positionals.length === 0) {
    console.error(
      "usage: deno run -A scripts/cpuprof_summary.ts FILE_OR_DIR… [--top 25] [--json]",
    );
    Deno.exit(2);
  }
  const summaries = summarizeProfiles(positionals);
  const top = Number(values.top);
  if (values.json) {
    console.log(JSON.stringify(
      summaries.map((s) => ({
        ...s,
        functions: [...s.functions].sort((a, b) => b.selfMs - a.selfMs).slice(0, top),
      })),
      null,
      2,
    ));
  } else console.log(summaries.map((s) => renderSummary(s, top)).join("\n\n"));
}
