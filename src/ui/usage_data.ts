/**
 * The Usage view's data, from Heimdall's own local logs only
 * (`$HEIMDALL_HOME/logs/usage.log`: searches and injections, counts only;
 * `search.log`, `hooks.log`); nothing is ever sent anywhere. Reads whatever
 * lines exist; a missing log is an empty one.
 */
import { type HomePaths, usageLogPath } from "../config/mod.ts";
import { readTail } from "../files/mod.ts";

/** One day of use. */
export interface UsageDay {
  day: string;
  /** usage.log: searches (CLI, MCP, hook, UI), their hits by verdict. */
  searches: number;
  verdicts: Record<string, number>;
  /** usage.log: search results injected by hooks, and those the agent then opened or edited. */
  injectedResults: number;
  usedResults: number;
  /** search.log lines: results pruned as stale or re-anchored by a search. */
  pruned: number;
  rebuilt: number;
  /** hooks.log: events handled, injections (with their token sizes), hooks that gave up or failed. */
  hookEvents: number;
  injections: number;
  injectedTokens: number;
  late: number;
  errors: number;
}

/** What the Usage view shows. */
export interface Usage {
  days: UsageDay[];
  /** Which logs were read, and their sizes in bytes (0: absent). */
  logs: Record<string, number>;
}

/** Most bytes read from the end of each log. */
const TAIL_BYTES = 4 * 1024 * 1024;

/** The end of one file; a missing or unreadable one is empty. */
function fileTail(path: string, bytes: number): string {
  try {
    return readTail(path, bytes);
  } catch {
    return "";
  }
}

/**
 * The newest {@link TAIL_BYTES} of a log: when it was moved aside to
 * `FILE.1` lately (at 8 MiB) and holds less, the end of that one too, so
 * the view does not lose its past days at each move.
 */
function tail(path: string): string {
  const own = fileTail(path, TAIL_BYTES);
  const more = TAIL_BYTES - new TextEncoder().encode(own).length;
  if (more <= 0) return own;
  const before = fileTail(`${path}.1`, more);
  // A line cut at the start of the older part is skipped by the readers below.
  return before === "" ? own : `${before}${before.endsWith("\n") ? "" : "\n"}${own}`;
}

/** Counts per day from the local logs (the newest 4 MiB of each). */
export function usage(home: HomePaths): Usage {
  const days = new Map<string, UsageDay>();
  const dayOf = (line: string): UsageDay | undefined => {
    const m = /^(\d{4}-\d{2}-\d{2})T/.exec(line);
    if (!m) return undefined;
    let d = days.get(m[1]!);
    if (!d) {
      days.set(
        m[1]!,
        d = {
          day: m[1]!,
          searches: 0,
          verdicts: {},
          injectedResults: 0,
          usedResults: 0,
          pruned: 0,
          rebuilt: 0,
          hookEvents: 0,
          injections: 0,
          injectedTokens: 0,
          late: 0,
          errors: 0,
        },
      );
    }
    return d;
  };
  const logs: Record<string, number> = {};
  const own = tail(usageLogPath(home));
  logs["usage.log"] = own.length;
  for (const line of own.split("\n")) {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line);
    } catch {
      continue; // a line cut by the tail read
    }
    // A line of the log damaged into other JSON (null, a number): not a count.
    if (typeof r !== "object" || r === null) continue;
    const d = dayOf(String(r.at ?? ""));
    if (!d) continue;
    const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
    if (r.event === "search") {
      d.searches++;
      for (const [v, c] of Object.entries(r.verdicts ?? {})) {
        d.verdicts[v] = (d.verdicts[v] ?? 0) + n(c);
      }
    } else if (r.event === "inject") {
      d.injections++;
      d.injectedTokens += n(r.tokens);
      d.injectedResults += n(r.results);
    } else if (r.event === "inject_hit") d.usedResults += n(r.results);
  }
  for (const name of ["search.log", "hooks.log"]) {
    const text = tail(`${home.logs}/${name}`);
    logs[name] = text.length;
    for (const line of text.split("\n")) {
      const d = dayOf(line);
      if (!d) continue;
      if (name === "search.log") {
        if (/\bprun/i.test(line) || /\bstale\b/i.test(line)) d.pruned++;
        else d.rebuilt++;
        continue;
      }
      if (/ → /.test(line)) d.hookEvents++;
      if (/gave up after/.test(line)) d.late++;
      if (/\berror\b/i.test(line)) d.errors++;
    }
  }
  return { days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)), logs };
}
