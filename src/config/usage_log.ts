/**
 * Heimdall's own usage, for the dashboard's Usage view: one JSON line per
 * search and per hook injection in `$HEIMDALL_HOME/logs/usage.log`. Counts
 * only — never a query, a prompt or a path — and never sent anywhere.
 */
import { join } from "../files/mod.ts";
import type { HomePaths } from "./home.ts";
import { ensurePrivateDir, LOG_ROTATE_BYTES, writePrivateFile } from "./private_files.ts";

/** What one line of `usage.log` says (besides its time, `at`). */
export type UsageRecord =
  | {
    event: "search";
    /** Who asked: `cli`, `mcp`, `hook` (the prompt hook) or `ui`. */
    via: string;
    hits: number;
    /** Hits by verdict (STRONG, WEAK, REBUILT). */
    verdicts: Record<string, number>;
  }
  | {
    event: "inject";
    /** The harness. */
    via: string;
    /** The hook event: `session_start`, `prompt`, `before_tool`, `after_tool`. */
    kind: string;
    tokens: number;
    /** How many of the injected items were search results (prior work). */
    results: number;
  }
  | {
    event: "inject_hit";
    via: string;
    /** An injected search result's file was then read or edited in the same session. */
    results: number;
  };

/** The file the records go to. */
export function usageLogPath(home: HomePaths): string {
  return join(home.logs, "usage.log");
}

/** Appends one record; never throws (a read-only home loses the line, nothing else). */
export function logUsage(home: HomePaths, record: UsageRecord, now = Date.now()): void {
  try {
    ensurePrivateDir(home.logs);
    writePrivateFile(
      usageLogPath(home),
      JSON.stringify({ at: new Date(now).toISOString(), ...record }) + "\n",
      { append: true, rotateAt: LOG_ROTATE_BYTES },
    );
  } catch {
    // usage is a nicety: never a reason to fail a search or a hook
  }
}
