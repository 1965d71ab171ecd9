/**
 * Attempts: what was tried on which code, and how it went. A repeat of the
 * same failure counts instead of adding a row; a passing attempt resolves the
 * open failures on its code and links itself as their fix. Deterministic: no
 * model, only anchors, test names and a measured wording similarity.
 */
import type { Journal } from "../store/mod.ts";
import { anchorKey } from "./anchors.ts";
import { reanchorIfStale } from "./reanchor.ts";
import { anchorsOf, freshMemoryId, insertAnchors, insertMemory, loadMemories } from "./records.ts";
import {
  cleanAuthor,
  cleanTaskId,
  cleanText,
  currentOnSameAnchors,
  newRow,
  parseScope,
  recordTime,
  resolveAnchors,
  visibleTo,
} from "./remember.ts";
import { syncSearch } from "./searchable.ts";
import { SAME_FAILURE_THRESHOLD, trigramSimilarity } from "./similarity.ts";
import {
  type AnchorRow,
  MAX_TEXT,
  type Memory,
  MemoryInputError,
  type MemoryRow,
  type Scope,
} from "./types.ts";

/** What {@link recordAttempt} writes. */
export interface AttemptInput {
  /** What it was tried on: symbols (`path:name`, `Class.method`, `name`), files or folders. */
  about: readonly string[];
  /** Whether it failed or passed. */
  outcome: "failed" | "passed";
  /** What was tried and how it went. */
  text: string;
  /** Who tried it. */
  author: string;
  /** Failed: the tests that failed; passed: the tests that now pass (optional). */
  tests?: readonly string[];
  /** Passed: what fixed it (a commit, a URL). */
  fix?: string | null;
  /** `private`, `project` (the default) or `team`. */
  scope?: string;
  /** The task it belongs to. */
  taskId?: string | null;
  /** Where relative paths in `about` resolve (default: the current folder). */
  cwd?: string;
  /** The time to record it at (ms since the epoch; default: now). */
  now?: number;
}

/** What {@link recordAttempt} did. */
export interface AttemptResult {
  /** The attempt as stored (for a repeat, the failure it repeated). */
  memory: Memory;
  /** Failed: true when it counted as a repeat of an open failure (`memory` is that one). */
  repeated: boolean;
  /** How the repeat was recognised: the same failing tests, or near-identical wording. */
  matchedBy: "tests" | "wording" | null;
  /** Trigram similarity of the wording to the matched failure (wording matches only). */
  similarity: number | null;
  /** Passed: ids of the open failures it resolved. */
  resolved: string[];
  /**
   * A repeat whose failing tests, joined with the failure's, would not fit
   * in {@link MAX_TEXT} characters: how many of the failure's older test
   * names were left out (absent when none were).
   */
  testsLeftOut?: number;
}

/** Test names as stored: trimmed, non-empty, unique, sorted, redacted. */
export function normalizeTests(tests: readonly string[]): string[] {
  return [...new Set(tests.map((t) => cleanTest(t)).filter((t) => t !== ""))].sort();
}

/**
 * The failing tests a repeated failure stores: every one of `newer` (the
 * repeat's, already within {@link MAX_TEXT} characters as stored), then as
 * many of `older` (the failure's, in their order) as keep the list, as
 * stored, within {@link MAX_TEXT}; sorted. Returns them and how many of
 * `older` were left out. Pure.
 */
export function mergeTests(
  older: readonly string[],
  newer: readonly string[],
): { tests: string[]; leftOut: number } {
  const kept = new Set(newer);
  let size = JSON.stringify([...kept]).length;
  let leftOut = 0;
  for (const t of older) {
    if (kept.has(t)) continue;
    const more = JSON.stringify(t).length + (kept.size > 0 ? 1 : 0); // the name and a comma
    if (size + more > MAX_TEXT) {
      leftOut++;
      continue;
    }
    kept.add(t);
    size += more;
  }
  return { tests: [...kept].sort(), leftOut };
}

/**
 * What fixed it, as stored: trimmed, redacted. Throws {@link MemoryInputError}
 * naming --fix when it is blank (an unset shell variable: a fix nobody
 * named), holds a NUL character or is too long.
 */
function cleanFix(fix: string): string {
  if (fix.trim() === "") {
    throw new MemoryInputError(
      `Empty --fix ${
        JSON.stringify(fix)
      }: it names nothing (an unset shell variable?); give the commit or URL that fixed it, or leave --fix out`,
    );
  }
  return cleanText(fix, "--fix");
}

function cleanTest(t: string): string {
  const s = t.trim();
  return s === "" ? "" : cleanText(s);
}

function testsOf(m: Pick<MemoryRow, "tests">): string[] {
  return JSON.parse(m.tests) as string[];
}

/** A checked {@link AttemptInput}, before anything is written. */
export interface PreparedAttempt {
  /** Whether it failed or passed. */
  outcome: "failed" | "passed";
  /** Who may see it. */
  scope: Scope;
  /** What was tried, trimmed and redacted. */
  text: string;
  /** The test names, as stored. */
  tests: string[];
  /** What fixed it (passed only), trimmed and redacted. */
  fix: string | null;
  /** Who tried it, redacted. */
  author: string;
  /** The task it belongs to, if any, redacted. */
  taskId: string | null;
  /** What it was tried on, resolved. */
  anchors: AnchorRow[];
  /** When it is recorded (ms since the epoch). */
  now: number;
  /** Whether the caller gave {@link now} (else the write reads the clock again: see `recordTime`). */
  fixedTime: boolean;
}

/**
 * Checks an {@link AttemptInput} and resolves its anchors, writing nothing
 * but the lazy re-anchoring of memories already on that code. Throws
 * {@link MemoryInputError} for bad input (unknown outcome or scope, empty
 * text or author, too many test names, an author or task too long, a fix on
 * a failure) and SymbolLookupError for an unknown or ambiguous symbol.
 */
export function prepareAttempt(j: Journal, input: AttemptInput): PreparedAttempt {
  const now = input.now ?? Date.now();
  if (input.outcome !== "failed" && input.outcome !== "passed") {
    throw new MemoryInputError(
      `Unknown outcome "${input.outcome}": pass --failed or --passed`,
    );
  }
  const scope = parseScope(input.scope ?? "project");
  const text = cleanText(input.text);
  const author = cleanAuthor(input.author);
  const taskId = input.taskId == null ? null : cleanTaskId(input.taskId);
  const tests = normalizeTests(input.tests ?? []);
  if (JSON.stringify(tests).length > MAX_TEXT) {
    throw new MemoryInputError(
      `Too many test names: ${tests.length} (${
        JSON.stringify(tests).length
      } characters as stored, at most ${MAX_TEXT}); name the tests that failed, not the suite`,
    );
  }
  if (input.fix !== undefined && input.fix !== null && input.outcome === "failed") {
    throw new MemoryInputError("--fix names what fixed it: give it with --passed, not --failed");
  }
  const anchors = resolveAnchors(j, input.about, input.cwd ?? Deno.cwd(), now);
  // Memories already on this code must be where the index says before they are compared.
  for (const path of new Set(anchors.map((a) => a.path))) reanchorIfStale(j, now, path);
  return {
    outcome: input.outcome,
    scope,
    text,
    tests,
    fix: input.fix == null ? null : cleanFix(input.fix),
    author,
    taskId,
    anchors,
    now,
    fixedTime: input.now !== undefined,
  };
}

/** An open failure that a new failure repeats, and how that was recognised. */
export interface Repeat {
  /** The open failure repeated. */
  row: MemoryRow;
  /** Whether the failing tests or the wording matched. */
  matchedBy: "tests" | "wording";
  /** Trigram similarity of the wording (wording matches only); null otherwise. */
  similarity: number | null;
  /** The failing tests of both, as the repeated row now stores them (see {@link mergeTests}). */
  tests: string[];
  /** How many of the failure's older test names were left out to stay within {@link MAX_TEXT}. */
  testsLeftOut?: number;
}

/**
 * The open failure (of `open`, on exactly the new failure's anchors, newest
 * first) that a new failure with `tests` and `text` repeats: the first with
 * the same non-empty set of failing tests, or wording at least
 * {@link SAME_FAILURE_THRESHOLD} alike; its tests become the union of both,
 * bounded by {@link mergeTests}. Pure.
 */
export function findRepeat(
  open: readonly MemoryRow[],
  tests: readonly string[],
  text: string,
): Repeat | undefined {
  for (const m of open) {
    const same = tests.length > 0 && JSON.stringify(testsOf(m)) === JSON.stringify(tests);
    const similarity = same ? null : trigramSimilarity(m.text, text);
    if (!same && similarity! < SAME_FAILURE_THRESHOLD) continue;
    const merged = mergeTests(testsOf(m), tests);
    return {
      row: m,
      matchedBy: same ? "tests" : "wording",
      similarity,
      tests: merged.tests,
      testsLeftOut: merged.leftOut,
    };
  }
  return undefined;
}

/**
 * Whether a passing attempt naming `passTests` resolves an open failure:
 * always when it names none, else when every test the failure saw fail is
 * among them. Pure.
 */
export function passResolves(
  failure: Pick<MemoryRow, "tests">,
  passTests: readonly string[],
): boolean {
  return passTests.length === 0 || testsOf(failure).every((t) => passTests.includes(t));
}

/**
 * Records an attempt on the code `about` names.
 *
 * Failed: when an open failure on exactly the same anchors has the same
 * non-empty set of failing tests, or wording at least
 * {@link SAME_FAILURE_THRESHOLD} alike (character trigrams), that one's count
 * goes up (its tests become the union of both, its oldest left out past
 * {@link MAX_TEXT} characters: see {@link mergeTests}) and no row is added; the
 * newest such failure wins when several match. Otherwise a new open failure.
 *
 * Passed: a new row; every open failure sharing an anchor with it is marked
 * resolved by it, unless it names tests and the failure's failing tests are
 * not all among them.
 *
 * With `touchable`, only the memories it accepts are counted or resolved (a
 * team store's orchestration keeps its shared rows out of a private write).
 * Throws {@link MemoryInputError} for bad input and SymbolLookupError for an
 * unknown or ambiguous symbol; nothing is written then.
 */
export function recordAttempt(
  j: Journal,
  input: AttemptInput,
  touchable: (m: MemoryRow) => boolean = () => true,
): AttemptResult {
  const p = prepareAttempt(j, input);
  const id = freshMemoryId(j);
  let row: MemoryRow | undefined;
  // The open failures are read in the write's transaction: the same failure recorded by
  // several processes at once is counted on one row, not split over several.
  const written = j.tx(() => {
    const now = recordTime(p);
    row = newRow({
      id,
      kind: "attempt",
      text: p.text,
      author: p.author,
      scope: p.scope,
      task_id: p.taskId,
      outcome: p.outcome,
      status: p.outcome === "failed" ? "open" : null,
      tests: JSON.stringify(p.tests),
      fix: p.fix,
    }, now);
    if (p.outcome === "failed") {
      const open = currentOnSameAnchors(
        j,
        p.anchors,
        (m) => m.kind === "attempt" && m.status === "open" && touchable(m),
        p.author,
      );
      const repeat = findRepeat(open, p.tests, p.text);
      if (repeat) {
        j.run(
          "UPDATE memories SET count = count + 1, last_seen_at = ?, tests = ?, updated_at = ? WHERE id = ?",
          now,
          JSON.stringify(repeat.tests),
          now,
          repeat.row.id,
        );
        syncSearch(j, [repeat.row.id]);
        return { repeat, resolved: [] };
      }
    }
    insertMemory(j, row);
    insertAnchors(j, row.id, p.anchors);
    const resolved = p.outcome === "passed"
      ? resolveFailures(j, row, p.anchors, p.tests, p.author, touchable)
      : [];
    syncSearch(j, [row.id]);
    return { repeat: undefined, resolved };
  });
  const repeat = written.repeat;
  if (repeat) {
    return {
      memory: loadMemories(j, [repeat.row.id])[0]!,
      repeated: true,
      matchedBy: repeat.matchedBy,
      similarity: repeat.similarity,
      resolved: [],
      ...(repeat.testsLeftOut ? { testsLeftOut: repeat.testsLeftOut } : {}),
    };
  }
  return {
    memory: { ...row!, anchors: p.anchors },
    repeated: false,
    matchedBy: null,
    similarity: null,
    resolved: written.resolved,
  };
}

/** How an agent's account of a failure is set apart in the attempt's text. */
export const ACCOUNT_PREFIX = "Agent's account: ";

/**
 * `text` with the agent's `account` of the failure added as its last
 * paragraph; undefined when the text already holds it (pure).
 */
export function withAccount(text: string, account: string): string | undefined {
  const paragraph = ACCOUNT_PREFIX + account;
  return text.includes(paragraph) ? undefined : `${text}\n\n${paragraph}`;
}

/**
 * Joins an agent's own description of a failure (`input.text`) to the open
 * failure it describes: the one on exactly `input.about`'s anchors that a
 * failure with `input.tests` would repeat ({@link findRepeat}). Its text gains
 * the account as a paragraph; its count does not change (it is the same
 * failure, told). Returns the failure's id, or null when no open failure
 * matches (nothing is written then), or the failure's id unchanged when the
 * account is already there or would take its text past {@link MAX_TEXT}.
 * With `touchable`, as {@link recordAttempt}.
 */
export function describeFailure(
  j: Journal,
  input: Omit<AttemptInput, "outcome" | "fix">,
  touchable: (m: MemoryRow) => boolean = () => true,
): string | null {
  const p = prepareAttempt(j, { ...input, outcome: "failed" });
  // The failure is read in the write's transaction: accounts told by several processes at
  // once each join its text, none written over by another's copy of the text before it.
  return j.tx(() => {
    const open = currentOnSameAnchors(
      j,
      p.anchors,
      (m) => m.kind === "attempt" && m.status === "open" && touchable(m),
      p.author,
    );
    const repeat = findRepeat(open, p.tests, p.text);
    if (!repeat) return null;
    const text = withAccount(repeat.row.text, p.text);
    // Past the longest text a memory keeps (an import would refuse it), the failure keeps what it says.
    if (text === undefined || text.length > MAX_TEXT) return repeat.row.id;
    j.run(
      "UPDATE memories SET text = ?, updated_at = ? WHERE id = ?",
      text,
      recordTime(p),
      repeat.row.id,
    );
    syncSearch(j, [repeat.row.id]);
    return repeat.row.id;
  });
}

/**
 * Marks resolved by `pass` (at its record time) every open failure that
 * shares an anchor with `anchors`, is visible to `viewer`, passes `touchable`
 * and whose failing tests `tests` covers (see {@link passResolves}); brings
 * their search entries in line. Runs in the caller's transaction when there
 * is one. Returns their ids.
 */
export function resolveFailures(
  j: Journal,
  pass: Pick<MemoryRow, "id" | "recorded_at">,
  anchors: readonly AnchorRow[],
  tests: readonly string[],
  viewer: string,
  touchable: (m: MemoryRow) => boolean = () => true,
): string[] {
  const keys = new Set(anchors.map(anchorKey));
  const failures = openFailuresOn(j, anchors).filter((m) =>
    m.id !== pass.id && visibleTo(m, viewer) && touchable(m) &&
    anchorsOf(j, m.id).some((a) => keys.has(anchorKey(a))) && passResolves(m, tests)
  );
  if (failures.length === 0) return [];
  const run = () => {
    for (const m of failures) {
      j.run(
        "UPDATE memories SET status = 'resolved', resolved_by = ?, resolved_at = ?, updated_at = ? WHERE id = ?",
        pass.id,
        pass.recorded_at,
        pass.recorded_at,
        m.id,
      );
    }
    syncSearch(j, failures.map((m) => m.id));
  };
  if (j.db.isTransaction) run();
  else j.tx(run);
  return failures.map((m) => m.id);
}

/** Open failed attempts, neither forgotten nor superseded, with an anchor on one of `anchors`' nodes or paths. */
function openFailuresOn(j: Journal, anchors: readonly AnchorRow[]): MemoryRow[] {
  const nodeIds = anchors.filter((a) => a.target === "symbol" && a.node_id).map((a) => a.node_id!);
  const paths = anchors.filter((a) => a.target !== "symbol").map((a) => a.path);
  const rows = new Map<string, MemoryRow>();
  for (const m of openFailureRows(j, "a.node_id", nodeIds)) rows.set(m.id, m);
  for (const m of openFailureRows(j, "a.path", paths)) rows.set(m.id, m);
  return [...rows.values()].sort((a, b) =>
    a.recorded_at - b.recorded_at || a.id.localeCompare(b.id)
  );
}

function openFailureRows(j: Journal, column: string, values: readonly string[]): MemoryRow[] {
  if (values.length === 0) return [];
  return j.all<MemoryRow>(
    `SELECT DISTINCT m.* FROM memory_anchors a JOIN memories m ON m.id = a.memory_id
     WHERE ${column} IN (${values.map(() => "?").join(", ")})
       AND m.status = 'open' AND m.forgotten_at IS NULL AND m.superseded_at IS NULL`,
    ...values,
  );
}

/**
 * The open failed attempts on any of `nodeIds` (symbols as the index names
 * them) that `viewer` may see, oldest first, with their anchors: what was
 * tried there and did not work yet. Forgotten and superseded ones, and
 * another author's private ones, are left out. For hooks that warn before
 * an edit. Does not re-anchor first (call `reanchorMemories` when the index
 * may have moved since).
 */
export function openFailures(j: Journal, nodeIds: readonly string[], viewer: string): Memory[] {
  const rows = openFailureRows(j, "a.node_id", nodeIds)
    .filter((m) => visibleTo(m, viewer))
    .sort((a, b) => a.recorded_at - b.recorded_at || a.id.localeCompare(b.id));
  return loadMemories(j, rows.map((r) => r.id));
}
