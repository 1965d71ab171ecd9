/**
 * What Heimdall does for each normalised hook event, and what it tells the
 * agent. Never approves a tool call. The answer is context (or nothing), and
 * once per conflict a pause: an edit within reach of a teammate's claim is
 * denied one time (config `onConflict`, default `pause`; `warn` only warns),
 * the warning is acknowledged, and the same edit again goes ahead. Records
 * what happened in the session's state file and, where the services exist,
 * in memory (attempts, progress notes, personal statements) and the team
 * store (tasks, claims).
 *
 * - session start: constraints (must), current decisions, the project's
 *   knowledge page and the person's own preferences for the repo;
 * - prompt: the first substantial prompt becomes the session's task; prior
 *   work relevant to the prompt (searched with a bounded query, whatever
 *   its size), the open failed attempts on the functions it found and, on
 *   the first prompt, the repo's constraints and decisions are injected;
 * - before an edit: the symbols about to change are claimed; must-constraints
 *   for the file, open failed attempts on the edited symbols and their
 *   direct neighbours, current decisions, and teammates' claims within the
 *   conflict radius (each pair warned, or paused, once);
 * - after an edit: the paths are hinted to the writer, and the symbols whose
 *   structural hash moved since before the edit are recorded (and claimed)
 *   once the journal has caught up; an edit with no snapshot from before it
 *   records only what its own texts show it changed, never a guess;
 * - after a test command: an attempt with its outcome and failing tests;
 * - grep guard: the third grep-like look-up since the last Heimdall search
 *   gets one reminder;
 * - stop: the agent's own summary and the structured note become a progress
 *   note on the task; the agent's account of a final failing run joins that
 *   failure; the person's durable statements are queued for review; at the
 *   session's end, its claims are released.
 *
 * Every injection fits the token budget and never repeats an item already
 * injected into the same context window (a `clear` or `compact` start opens
 * a new window).
 */
import { type HomePaths, logUsage } from "../config/mod.ts";
import { type Journal, rootFor } from "../store/mod.ts";
import { callNeighbourIds } from "../search/mod.ts";
import { classifyFault } from "../reconcile/mod.ts";
import { writeHintFile } from "../hints/hints.ts";
import {
  basename,
  canonicalPath,
  dirname,
  exists,
  isAbsolute,
  isFile,
  join,
  readTextOrNull,
  relative,
} from "../files/mod.ts";
import { redactSecrets } from "../files/secrets.ts";
import { type ContextItem, fitContext } from "./budget.ts";
import type { AfterToolEvent, BeforeToolEvent, FileEdit, HookEvent, StopEvent } from "./event.ts";
import { capSummary, firstUnread, lastAssistantMessage, transcriptTurns } from "./transcript.ts";
import { FRESH_GUARD, GUARD_TEXT, stepGuard } from "./grep_guard.ts";
import {
  diffSymbols,
  fileSymbols,
  journalCaughtUp,
  type RegionSymbol,
  snapshotFromEdits,
  snapshotOf,
  symbolsById,
  symbolsInEdit,
} from "./region.ts";
import { asksForPriorWork, isTaskPrompt, promptQuery, taskTitle } from "./prompt.ts";
import { hookLog } from "./hook_log.ts";
import type { Services, SessionRef } from "./services.ts";
import {
  newSession,
  pruneSessions,
  sessionFile,
  sessionsDir,
  type SessionState,
  type SessionTestRun,
  type SymbolSnap,
  updateSession,
} from "./session.ts";
import { parseTestRun } from "./test_runs/mod.ts";
import { lookUpOf } from "./tools.ts";

/** What handling an event needs from outside. */
export interface HookDeps {
  home: HomePaths;
  /** Token budget of one injection. */
  budget: number;
  /** The journal, opened read-only on first use; null when there is none. */
  journal(): Journal | null;
  /** The services, loaded on first use. */
  services(): Promise<Services>;
  /** The configured roots (hints outside them are dropped). */
  roots(): { path: string }[];
  /**
   * True when nobody will see this answer: the harness shows nothing for
   * this event (Cursor's prompt hook, Kiro's before a tool), or the hook has
   * stopped waiting for it. Nothing is then recorded as told (injected, a
   * conflict warned of or acknowledged, a reminder given), so it is told
   * where it can be.
   */
  unseen?(): boolean;
}

/** Sessions untouched this long are pruned at the next session start. */
const SESSION_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
/** At most this many files of one tool call get before-edit context. */
const MAX_EDIT_FILES = 5;
/**
 * At most this many edits of one file in one tool call are located in it
 * (each costs a search of the whole file): a call with thousands (a hostile
 * or runaway `edits[]`) would otherwise hold the warm server, and every
 * session's hooks with it, for seconds. What an edit past them changed is
 * still found after it, from the snapshot of the whole file.
 */
export const MAX_EDITS_PER_FILE = 64;
/**
 * The test runs a session's file keeps, the latest (the summary shows 5):
 * each carries the symbols and files changed before it, so keeping every
 * run made a long session's file grow by the square (1,500 runs: 14 MB,
 * read and written by each hook call, 0.7 s, over the warm server's wait).
 */
export const MAX_TEST_RUNS = 20;

export { sessionsDir } from "./session.ts";

/** What a hook answers: context for the agent, and before a tool call, a reason to pause it once. */
export interface HookAnswer {
  context: string | null;
  /** Set only before an edit within reach of a teammate's claim, in `pause` mode, once per conflict. */
  deny: string | null;
}

const NOTHING: HookAnswer = { context: null, deny: null };

/**
 * Handles one event; returns what to show the agent (never an approval).
 * Throws when a step fails (a write meeting a held lock; the hook logs it
 * and answers nothing): the session's state is left as it was, except for
 * what the event saw of the files an edit changes (their symbols before the
 * edit, and that they were edited), which no later event could see again.
 */
export async function handleEvent(event: HookEvent, deps: HookDeps): Promise<HookAnswer> {
  if (event.kind === "ignored") return NOTHING;
  const ev = onDiskPaths(event);
  const dir = sessionsDir(deps.home);
  const file = sessionFile(dir, ev.harness, ev.sessionId);
  // At a session's start, or its first event where the harness has no start (Windsurf).
  if (ev.kind === "session_start" || !exists(file)) pruneSessions(dir, SESSION_MAX_AGE_MS);
  const who: SessionRef = { harness: ev.harness, sessionId: ev.sessionId, cwd: ev.cwd };
  const create = () => newSession(ev.harness, ev.sessionId, ev.cwd);
  const seen: Seen = { before: {}, edited: [] };
  try {
    return await updateSession(file, create, (state) => onEvent(state, ev, who, seen, deps));
  } catch (e) {
    // A failed event leaves the session as it was, but what it saw of files before
    // their edit cannot be seen again: that is kept (a claim that met a held lock
    // must not turn the edit's changes into guesses).
    if (seen.edited.length > 0 || Object.keys(seen.before).length > 0) {
      await updateSession(file, create, (state) => keepSeen(state, seen)).catch((k) =>
        hookLog(
          deps.home.home,
          `${ev.harness}: keeping the edit's snapshot: ${(k as Error).message}`,
        )
      );
    }
    throw e;
  }
}

/**
 * `ev` with its folder and the files its tool names as the journal records
 * paths: the links among their folders resolved ({@link canonicalPath}). An
 * agent working through a linked folder (`~/work` → `/data/work`, macOS's
 * `/tmp` → `/private/tmp`) otherwise had no symbols found before an edit
 * (nothing claimed, no decision or failed attempt told) and its own
 * repository's hits dropped from prior work as another repository's. One
 * `realpath` per distinct folder; a relative folder is left as sent.
 */
export function onDiskPaths<E extends Exclude<HookEvent, { kind: "ignored" }>>(ev: E): E {
  const dirs = new Map<string, string>();
  const onDisk = (p: string) => {
    const dir = dirname(p);
    let real = dirs.get(dir);
    if (real === undefined) dirs.set(dir, real = canonicalPath(dir));
    return join(real, basename(p));
  };
  const cwd = isAbsolute(ev.cwd) ? canonicalPath(ev.cwd) : ev.cwd;
  if (!("tool" in ev)) return { ...ev, cwd };
  const edits = ev.tool.edits.map((e) => isAbsolute(e.path) ? { ...e, path: onDisk(e.path) } : e);
  return { ...ev, cwd, tool: { ...ev.tool, edits } };
}

/**
 * What an event learned about edited files that no later event can learn:
 * how a file's symbols were before its edit, and which files an edit changed.
 */
interface Seen {
  /** path → the file's symbols before the session's first edit of it. */
  before: Record<string, Record<string, SymbolSnap>>;
  /** Files an edit changed, to be settled once the journal has caught up. */
  edited: string[];
}

/** Records what was seen in the session's state (a snapshot already there is kept). */
function keepSeen(state: SessionState, seen: Seen): void {
  for (const [path, snap] of Object.entries(seen.before)) {
    if (!(path in state.before)) state.before[path] = snap;
  }
  for (const p of seen.edited) {
    state.edited = [...state.edited.filter((e) => e !== p), p];
    if (!state.pending.includes(p)) state.pending.push(p);
  }
}

async function onEvent(
  state: SessionState,
  ev: Exclude<HookEvent, { kind: "ignored" }>,
  who: SessionRef,
  seen: Seen,
  deps: HookDeps,
): Promise<HookAnswer> {
  // The task first: the runs recorded next, and what this event records, belong to it.
  if (state.task?.unstarted) await startSessionTask(state, state.task.title, who, deps);
  await recordWaitingRuns(state, who, deps);
  switch (ev.kind) {
    case "session_start":
      // A start the harness says begins a new session, under an id that may have been seen
      // before (Kiro's is its folder), starts afresh: a new context window, told everything
      // again, with a task of its own.
      if (ev.source === "new") startAfresh(state, newSession(ev.harness, ev.sessionId, ev.cwd));
      if (ev.source === "clear" || ev.source === "compact") state.injected = [];
      return contextOnly(inject(
        state,
        deps,
        "session_start",
        `Heimdall memory for ${basename(ev.cwd)}`,
        await repoItems(ev.cwd, deps),
      ));
    case "prompt": {
      const items = await onPrompt(state, who, ev.prompt, deps);
      // Only search hits are about the prompt; a first prompt's constraints are the repository's.
      const title = items.some((i) => i.key.startsWith("hit:"))
        ? "Heimdall: prior work related to this prompt"
        : `Heimdall memory for ${basename(ev.cwd)}`;
      return contextOnly(inject(state, deps, "prompt", title, items));
    }
    case "before_tool":
      return await beforeTool(state, who, ev, seen, deps);
    case "after_tool":
      return contextOnly(await afterTool(state, who, ev, seen, deps));
    case "stop":
      await onStop(state, who, ev, deps);
      if (ev.final) await endSession(state, who, deps);
      return NOTHING;
  }
}

const contextOnly = (context: string | null): HookAnswer => ({ context, deny: null });

/** Makes `state` the `fresh` one, optional fields gone too (it is written back in place). */
function startAfresh(state: SessionState, fresh: SessionState): void {
  for (const k of Object.keys(state)) delete (state as unknown as Record<string, unknown>)[k];
  Object.assign(state, fresh);
}

/** Fits items under the budget, skipping what this window already has; records what went in. */
function inject(
  state: SessionState,
  deps: HookDeps,
  kind: string,
  title: string,
  items: ContextItem[],
): string | null {
  const fitted = fitContext(`${title}:`, items, deps.budget, new Set(state.injected));
  if (fitted.text === null || deps.unseen?.()) return null;
  state.injected.push(...fitted.keys);
  state.injectedTokens += fitted.tokens;
  state.injectedPaths = [...new Set([...(state.injectedPaths ?? []), ...fitted.paths])].slice(-200);
  logUsage(deps.home, {
    event: "inject",
    via: state.harness,
    kind,
    tokens: fitted.tokens,
    results: fitted.paths.length,
  });
  // Everything injected comes from stores that redact on write; this is the last gate.
  return redactSecrets(fitted.text);
}

async function repoItems(cwd: string, deps: HookDeps): Promise<ContextItem[]> {
  const svc = await deps.services();
  return [
    ...(await svc.constraints?.([cwd], true) ?? []),
    ...(await svc.decisions?.([], [cwd]) ?? []),
  ];
}

async function onPrompt(
  state: SessionState,
  who: SessionRef,
  prompt: string,
  deps: HookDeps,
): Promise<ContextItem[]> {
  state.prompts++;
  const svc = await deps.services();
  if (state.task === null && isTaskPrompt(prompt)) {
    await startSessionTask(state, taskTitle(prompt), who, deps);
  }
  // Prior work nobody would see is not searched for, nor counted as a search the agent saw.
  if (deps.unseen?.()) return [];
  // Searched with a bounded query: a pasted megabyte costs what a paragraph does.
  const query = asksForPriorWork(prompt) ? promptQuery(prompt) : "";
  const items = query.trim() === "" ? [] : await svc.priorWork?.(query, 8, who.cwd, prompt) ?? [];
  // Results put in front of the agent are a Heimdall search it did not have to make.
  if (items.length > 0) state.guard = FRESH_GUARD;
  // What was already tried on the functions found, and failed: before the agent plans the
  // same fix, not only when it starts the edit.
  items.push(...await svc.failures?.(foundSymbols(items, deps.journal())) ?? []);
  if (state.prompts === 1) items.push(...await repoItems(who.cwd, deps));
  return items;
}

/** The symbols that prior-work items name, as the journal holds them now. */
function foundSymbols(items: readonly ContextItem[], j: Journal | null): RegionSymbol[] {
  if (j === null) return [];
  return items.flatMap((i) =>
    i.path === undefined || i.symbol === undefined
      ? []
      : fileSymbols(j, i.path).filter((s) => s.qualname === i.symbol)
  );
}

/**
 * The edits of a call grouped by file: at most {@link MAX_EDIT_FILES} files
 * (or every file, given `files`), and the first {@link MAX_EDITS_PER_FILE}
 * edits of each (pure).
 */
export function editsByFile(edits: FileEdit[], files = MAX_EDIT_FILES): Map<string, FileEdit[]> {
  const out = new Map<string, FileEdit[]>();
  for (const e of edits) {
    const mine = out.get(e.path);
    if (mine === undefined) {
      if (out.size < files) out.set(e.path, [e]);
    } else if (mine.length < MAX_EDITS_PER_FILE) mine.push(e);
  }
  return out;
}

async function beforeTool(
  state: SessionState,
  who: SessionRef,
  ev: BeforeToolEvent,
  seen: Seen,
  deps: HookDeps,
): Promise<HookAnswer> {
  const kind = ev.tool.kind;
  if (kind !== "edit" && kind !== "write" && kind !== "patch") return NOTHING;
  const files = editsByFile(ev.tool.edits);
  if (files.size === 0) return NOTHING;
  const j = deps.journal();
  const region: RegionSymbol[] = [];
  for (const [path, edits] of files) {
    if (!j) continue;
    const symbols = fileSymbols(j, path);
    const content = editedText(path);
    // The file before the edit, as the journal has it; a file not there yet has no symbols.
    if (!(path in state.before) && (symbols.length > 0 || content === null)) {
      seen.before[path] = snapshotOf(symbols);
    }
    const inRegion = new Set(region.map((r) => r.id));
    for (const e of edits) {
      for (const s of symbolsInEdit(symbols, e, content)) {
        if (!inRegion.has(s.id)) {
          inRegion.add(s.id);
          region.push(s);
        }
      }
    }
  }
  keepSeen(state, seen);
  const neighbours = j ? symbolsById(j, callNeighbourIds(j, region.map((r) => r.id))) : [];
  const paths = [...files.keys()];
  const svc = await deps.services();
  // Claim before the edit: teammates are warned from the moment it is about to change.
  const claimable = region.filter((r) => !state.claimed?.includes(r.id));
  if (claimable.length > 0 && svc.claim) {
    await svc.claim(
      who,
      state.task?.id ?? null,
      state.task?.title ?? null,
      claimable.map((r) => ({ id: r.id, qualname: r.qualname, path: r.path, change: "modified" })),
    );
    state.claimed = [...(state.claimed ?? []), ...claimable.map((r) => r.id)].slice(-200);
  }
  const items: ContextItem[] = [
    ...(await svc.constraints?.(paths, true) ?? []),
    ...(await svc.failures?.([...region, ...neighbours]) ?? []),
    ...(await svc.decisions?.(region, paths) ?? []),
  ];
  const fresh = (await svc.conflicts?.(who, region) ?? [])
    .filter((w) => !state.warnedPairs.includes(w.pair));
  for (const w of fresh) items.push(w.item);
  const names = region.slice(0, 4).map((r) => r.qualname || r.name);
  const shown = paths.map((p) => relative(ev.cwd, p) || p).join(", ");
  const context = inject(
    state,
    deps,
    "before_tool",
    `Heimdall: before you edit ${shown}${names.length > 0 ? ` (${names.join(", ")})` : ""}`,
    items,
  );
  // An answer nobody will see warns of nothing: the next one does.
  if (deps.unseen?.()) return { context: null, deny: null };
  for (const w of fresh) state.warnedPairs.push(w.pair);
  if (fresh.length === 0 || (svc.onConflict?.() ?? "warn") !== "pause") {
    return { context, deny: null };
  }
  // Pause once: the warning is acknowledged, so the same edit again goes ahead.
  await svc.acknowledge?.(who, fresh.map((w) => w.pair));
  return { context, deny: pauseReason(fresh.map((w) => w.item.text)) };
}

/** Why an edit is paused, for the agent: who is changing what, how near, and what to do. */
export function pauseReason(conflicts: readonly string[]): string {
  return [
    "Heimdall paused this edit once: a teammate is changing code within reach of it.",
    ...conflicts.map((c) => `- ${c}`),
    "Check the call path above (or ask them); trying the same edit again goes ahead — this pause is not repeated.",
  ].join("\n");
}

/** Writes hints for the edited paths that lie under a root. */
function hintPaths(paths: string[], deps: HookDeps): void {
  const roots = deps.roots();
  const good = paths.filter((p) => rootFor(roots, p) !== undefined);
  if (good.length > 0) writeHintFile(deps.home.hints, good);
}

/**
 * A file's symbols before an edit no snapshot was taken for (no before-edit
 * event, or it failed): the journal's while it still shows the file as it
 * was; once it has taken the edit in, what the edit's own texts tell
 * ({@link snapshotFromEdits}: the symbols its new text occupies changed,
 * nothing else is known to have).
 */
function beforeAfterTheFact(
  j: Journal,
  path: string,
  edits: FileEdit[],
): Record<string, SymbolSnap> {
  // Checked first: a reconcile landing in between then costs changes seen, never invents any.
  const caughtUp = journalCaughtUp(j, path);
  const symbols = fileSymbols(j, path);
  return caughtUp ? snapshotFromEdits(symbols, edits, editedText(path)) : snapshotOf(symbols);
}

/**
 * The text of a file a tool call edits, or null when it is no regular file
 * (not there yet, a folder, a named pipe, a device): reading a pipe waits
 * for a writer forever, synchronously, so no deadline could end the hook,
 * and `/dev/zero` never ends.
 */
function editedText(path: string): string | null {
  return isFile(path) ? readTextOrNull(path) : null;
}

/** Turns pending edited files the journal has caught up with into changed symbols. */
async function settle(state: SessionState, who: SessionRef, deps: HookDeps): Promise<void> {
  if (state.pending.length === 0) return;
  const j = deps.journal();
  if (!j) return;
  const fresh: SessionState["changed"] = [];
  for (const path of [...state.pending]) {
    if (!journalCaughtUp(j, path)) continue;
    state.pending = state.pending.filter((p) => p !== path);
    const now = fileSymbols(j, path);
    const before = state.before[path];
    if (before === undefined) {
      // Nothing known of the file before its edit: no change is reported (an empty
      // "before" would make every symbol look added), and later edits compare with now.
      state.before[path] = snapshotOf(now);
      continue;
    }
    const diff = diffSymbols(path, before, now);
    const known = new Set(
      state.changed.filter((c) => c.path === path).map((c) => `${c.id}:${c.change}`),
    );
    state.changed = [...state.changed.filter((c) => c.path !== path), ...diff];
    fresh.push(...diff.filter((d) => !known.has(`${d.id}:${d.change}`)));
  }
  const claimable = fresh.filter((c) => c.change !== "removed");
  if (claimable.length > 0) {
    const svc = await deps.services();
    await svc.claim?.(who, state.task?.id ?? null, state.task?.title ?? null, claimable);
  }
}

async function afterTool(
  state: SessionState,
  who: SessionRef,
  ev: AfterToolEvent,
  seen: Seen,
  deps: HookDeps,
): Promise<string | null> {
  const tool = ev.tool;
  if (tool.kind === "edit" || tool.kind === "write" || tool.kind === "patch") {
    const files = editsByFile(tool.edits, Infinity);
    const paths = [...files.keys()];
    if (ev.outcome.ok !== false && paths.length > 0) {
      hintPaths(paths, deps);
      const j = deps.journal();
      for (const [p, edits] of files) {
        seen.edited.push(p);
        if (!(p in state.before) && j) seen.before[p] = beforeAfterTheFact(j, p, edits);
      }
      keepSeen(state, seen);
    }
  }
  await settle(state, who, deps);
  // An injected search result the agent then opens or edits: the result was used.
  const used = tool.edits.map((e) => e.path).filter((p) =>
    state.injectedPaths?.includes(p) && !state.usedPaths?.includes(p)
  );
  if (used.length > 0) {
    state.usedPaths = [...(state.usedPaths ?? []), ...new Set(used)].slice(-200);
    logUsage(deps.home, { event: "inject_hit", via: state.harness, results: new Set(used).size });
  }
  // A run started in the background has not run yet: its "success" is its start's.
  if (tool.kind === "shell" && tool.command && !tool.background) {
    const run = parseTestRun(tool.command, ev.outcome.output, ev.outcome.exitCode, ev.outcome.ok);
    if (run && run.outcome !== "unknown") {
      state.testRuns = (state.testRuns ?? state.tests.length) + 1;
      // Runs are recorded in order: one after a run still waiting waits behind it.
      const behind = state.tests.some((r) => r.unrecorded);
      const entry: SessionTestRun = {
        // Redacted before it is cut: a secret cut in two is no longer recognised.
        command: redactSecrets(tool.command).slice(0, 500),
        runner: run.runner,
        outcome: run.outcome,
        failed: run.failed.slice(0, 50),
        atMs: Date.now(),
        about: { symbols: state.changed, paths: state.edited },
        ...(behind ? { unrecorded: true as const } : {}),
      };
      state.tests.push(entry);
      // The last few: each carries the session's changes, and the file is read on every call.
      state.tests = state.tests.slice(-MAX_TEST_RUNS);
      if (!behind) await recordRun(state, who, entry, deps);
    }
  }
  const step = stepGuard(state.guard, lookUpOf(tool));
  // A reminder nobody sees is not given: the next look-up that can speak gives it.
  if (step.remind && deps.unseen?.()) {
    state.guard = { ...step.state, reminded: false };
    return null;
  }
  state.guard = step.state;
  return step.remind ? GUARD_TEXT : null;
}

/**
 * Records a test run as an attempt on what the session changed before it.
 * False when the journal's lock is held by another process past the hook's
 * short wait: the run is then marked and recorded at the session's next
 * event ({@link recordWaitingRuns}), instead of lost with the event. Throws
 * any other error.
 */
async function recordRun(
  state: SessionState,
  who: SessionRef,
  run: SessionTestRun,
  deps: HookDeps,
): Promise<boolean> {
  const svc = await deps.services();
  try {
    await svc.recordAttempt?.(who, {
      taskId: state.task?.id ?? null,
      task: state.task?.title ?? null,
      symbols: run.about?.symbols ?? [],
      paths: run.about?.paths ?? [],
      command: run.command,
      runner: run.runner,
      outcome: run.outcome,
      failed: run.failed,
    });
  } catch (e) {
    if (classifyFault(e).kind !== "busy") throw e;
    run.unrecorded = true;
    hookLog(
      deps.home.home,
      `${state.harness}: test run \`${
        run.command.slice(0, 80)
      }\` not recorded yet: the journal is locked by another process; it is recorded at the session's next event`,
    );
    return false;
  }
  delete run.unrecorded;
  return true;
}

/**
 * Makes `title` the session's task and starts its team task. A held journal
 * lock (another process writing) keeps the title and marks the task
 * `unstarted`, started at the session's next event, instead of losing the
 * prompt's task with the event. Throws any other error.
 */
async function startSessionTask(
  state: SessionState,
  title: string,
  who: SessionRef,
  deps: HookDeps,
): Promise<void> {
  const svc = await deps.services();
  try {
    state.task = { title, id: await svc.startTask?.(who, title) ?? null };
  } catch (e) {
    if (classifyFault(e).kind !== "busy") throw e;
    if (!state.task?.unstarted) {
      hookLog(
        deps.home.home,
        `${state.harness}: the session's task "${
          title.slice(0, 80)
        }" not started yet: the journal is locked by another process; it is started at the session's next event`,
      );
    }
    state.task = { title, id: null, unstarted: true };
  }
}

/**
 * Records the session's test runs a held journal lock kept out, oldest
 * first (a pass after a failure must still resolve it), until the lock
 * holds one back again. A run that fails for another reason is logged and
 * left: retried on every event, it would fail every one.
 */
async function recordWaitingRuns(
  state: SessionState,
  who: SessionRef,
  deps: HookDeps,
): Promise<void> {
  for (const run of state.tests) {
    if (!run.unrecorded) continue;
    try {
      if (!await recordRun(state, who, run, deps)) return;
    } catch (e) {
      delete run.unrecorded;
      hookLog(
        deps.home.home,
        `${state.harness}: test run \`${run.command.slice(0, 80)}\` left unrecorded: ${
          (e as Error)?.message ?? String(e)
        }`,
      );
    }
  }
}

/** Queues the person's durable statements from the transcript turns not scanned yet. */
async function capturePersonal(
  state: SessionState,
  who: SessionRef,
  transcript: string,
  deps: HookDeps,
): Promise<void> {
  const svc = await deps.services();
  if (!svc.capturePersonal) return;
  const turns = transcriptTurns(transcript);
  // The turns after the last one scanned (a shorter transcript is a new one: all of it).
  const from = firstUnread(turns, state.personalAt, state.personalTurns);
  state.personalTurns = turns.length;
  const lastAt = turns.at(-1)?.at;
  if (lastAt !== undefined) state.personalAt = lastAt;
  else delete state.personalAt;
  // The turn before the first new one comes along, emptied: a correction knows what it answers.
  const before = from > 0 ? [{ ...turns[from - 1]!, text: "" }] : [];
  await svc.capturePersonal(who, transcript, [...before, ...turns.slice(from)]);
}

/** The session's summary (pure): task, files edited, symbols changed, test runs. */
export function sessionSummary(state: SessionState): string {
  const lines: string[] = [];
  lines.push(`Session ${state.sessionId} (${state.harness}) in ${state.cwd}`);
  if (state.task) lines.push(`Task: ${state.task.title}`);
  if (state.edited.length > 0) {
    lines.push(
      `Edited ${state.edited.length} file(s): ${
        state.edited.slice(-20).map((p) => relative(state.cwd, p) || p).join(", ")
      }`,
    );
  }
  const changed = state.changed.filter((c) => c.change !== "removed");
  if (changed.length > 0) {
    lines.push(
      `Changed symbols: ${
        changed.slice(0, 30).map((c) => `${c.qualname} (${c.change})`).join(", ")
      }`,
    );
  }
  const removed = state.changed.filter((c) => c.change === "removed");
  if (removed.length > 0) {
    lines.push(`Removed symbols: ${removed.slice(0, 20).map((c) => c.qualname).join(", ")}`);
  }
  for (const t of state.tests.slice(-5)) {
    lines.push(
      `Test run \`${t.command.slice(0, 120)}\` (${t.runner}): ${t.outcome}` +
        (t.failed.length > 0 ? `; failing: ${t.failed.slice(0, 10).join(", ")}` : ""),
    );
  }
  return lines.join("\n");
}

/**
 * The session is over: its claims are released, so the person's next
 * session (or a teammate) is not paused by code nobody is changing any
 * more. Its task stays open, to be resumed; a session that goes on under
 * the same id claims again at its next edit.
 */
async function endSession(state: SessionState, who: SessionRef, deps: HookDeps): Promise<void> {
  if ((state.claimed ?? []).length === 0 && state.changed.length === 0) return;
  const svc = await deps.services();
  await svc.releaseClaims?.(who);
  state.claimed = [];
}

async function onStop(
  state: SessionState,
  who: SessionRef,
  ev: StopEvent,
  deps: HookDeps,
): Promise<void> {
  await settle(state, who, deps);
  if (ev.transcript) await capturePersonal(state, who, ev.transcript, deps);
  if (state.edited.length === 0 && state.tests.length === 0) return;
  const key = JSON.stringify([
    state.edited,
    state.changed.map((c) => `${c.id}:${c.change}`),
    state.testRuns ?? state.tests.length,
  ]);
  if (key === state.summarized) return;
  const svc = await deps.services();
  if (!svc.storeSummary) return;
  const title = state.task ? `Progress: ${state.task.title}` : `Progress in ${basename(state.cwd)}`;
  // The agent's own account first, the structured note beside it (both redacted on write).
  const said = (ev.said ? capSummary(ev.said) : null) ??
    (ev.transcript ? lastAssistantMessage(ev.transcript) : null);
  const note = said === null
    ? sessionSummary(state)
    : `${redactSecrets(said)}\n\n${sessionSummary(state)}`;
  await svc.storeSummary(who, state.task?.id ?? null, title, note, state.edited);
  // The session ends on a failing run: the agent's account is of that failure.
  const last = state.tests.at(-1);
  if (said !== null && last?.outcome === "fail" && last.about && svc.describeFailure) {
    await svc.describeFailure(who, {
      taskId: state.task?.id ?? null,
      symbols: last.about.symbols,
      paths: last.about.paths,
      failed: last.failed,
    }, said);
  }
  state.summarized = key;
}
