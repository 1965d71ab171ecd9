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
 *   work relevant to the prompt (and, on the first prompt, the repo's
 *   constraints and decisions) is injected;
 * - before an edit: the symbols about to change are claimed; must-constraints
 *   for the file, open failed attempts on the edited symbols and their
 *   direct neighbours, current decisions, and teammates' claims within the
 *   conflict radius (each pair warned, or paused, once);
 * - after an edit: the paths are hinted to the writer, and the symbols whose
 *   structural hash moved are recorded once the journal has caught up;
 * - after a test command: an attempt with its outcome and failing tests;
 * - grep guard: the third grep-like look-up since the last Heimdall search
 *   gets one reminder;
 * - stop: the agent's own summary and the structured note become a progress
 *   note on the task; the agent's account of a final failing run joins that
 *   failure; the person's durable statements are queued for review.
 *
 * Every injection fits the token budget and never repeats an item already
 * injected into the same context window (a `clear` or `compact` start opens
 * a new window).
 */
import { type HomePaths, logUsage } from "../config/mod.ts";
import { type Journal, rootFor } from "../store/mod.ts";
import { callNeighbourIds } from "../search/mod.ts";
import { writeHintFile } from "../hints/hints.ts";
import { basename, join, readTextOrNull, relative } from "../files/mod.ts";
import { redactSecrets } from "../files/secrets.ts";
import { type ContextItem, fitContext } from "./budget.ts";
import type { AfterToolEvent, BeforeToolEvent, FileEdit, HookEvent, StopEvent } from "./event.ts";
import { capSummary, lastAssistantMessage, transcriptTurns } from "./transcript.ts";
import { FRESH_GUARD, GUARD_TEXT, stepGuard } from "./grep_guard.ts";
import {
  diffSymbols,
  fileSymbols,
  journalCaughtUp,
  type RegionSymbol,
  snapshotOf,
  symbolsById,
  symbolsInEdit,
} from "./region.ts";
import type { Services, SessionRef } from "./services.ts";
import {
  newSession,
  pruneSessions,
  sessionFile,
  type SessionState,
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
   * True once the hook has stopped waiting for this answer (it will never be
   * shown): nothing is then recorded as told, so it is told next time.
   */
  late?(): boolean;
}

/** Sessions untouched this long are pruned at the next session start. */
const SESSION_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
/** At most this many files of one tool call get before-edit context. */
const MAX_EDIT_FILES = 5;

/** The folder holding session state files. */
export function sessionsDir(home: HomePaths): string {
  return join(home.home, "sessions");
}

/** What a hook answers: context for the agent, and before a tool call, a reason to pause it once. */
export interface HookAnswer {
  context: string | null;
  /** Set only before an edit within reach of a teammate's claim, in `pause` mode, once per conflict. */
  deny: string | null;
}

const NOTHING: HookAnswer = { context: null, deny: null };

/** Handles one event; returns what to show the agent (never an approval). */
export async function handleEvent(ev: HookEvent, deps: HookDeps): Promise<HookAnswer> {
  if (ev.kind === "ignored") return NOTHING;
  const dir = sessionsDir(deps.home);
  if (ev.kind === "session_start") pruneSessions(dir, SESSION_MAX_AGE_MS);
  const who: SessionRef = { harness: ev.harness, sessionId: ev.sessionId, cwd: ev.cwd };
  const file = sessionFile(dir, ev.harness, ev.sessionId);
  return await updateSession(
    file,
    () => newSession(ev.harness, ev.sessionId, ev.cwd),
    async (state) => {
      switch (ev.kind) {
        case "session_start":
          if (ev.source === "clear" || ev.source === "compact") state.injected = [];
          return contextOnly(inject(
            state,
            deps,
            "session_start",
            `Heimdall memory for ${basename(ev.cwd)}`,
            await repoItems(ev.cwd, deps),
          ));
        case "prompt":
          return contextOnly(inject(
            state,
            deps,
            "prompt",
            "Heimdall: prior work related to this prompt",
            await onPrompt(state, who, ev.prompt, deps),
          ));
        case "before_tool":
          return await beforeTool(state, who, ev, deps);
        case "after_tool":
          return contextOnly(await afterTool(state, who, ev, deps));
        case "stop":
          await onStop(state, who, ev, deps);
          return NOTHING;
      }
    },
  );
}

const contextOnly = (context: string | null): HookAnswer => ({ context, deny: null });

/** Fits items under the budget, skipping what this window already has; records what went in. */
function inject(
  state: SessionState,
  deps: HookDeps,
  kind: string,
  title: string,
  items: ContextItem[],
): string | null {
  const fitted = fitContext(`${title}:`, items, deps.budget, new Set(state.injected));
  if (fitted.text === null || deps.late?.()) return null;
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

/** A prompt worth making a task of: a few words, not a slash command. */
export function isTaskPrompt(prompt: string): boolean {
  const p = prompt.trim();
  return !p.startsWith("/") && p.split(/\s+/).filter((w) => w !== "").length >= 3;
}

/** A task title from a prompt: its first line, at most 200 characters, secrets redacted. */
export function taskTitle(prompt: string): string {
  const first = prompt.trim().split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  // It goes to the session file, the team store and teammates' conflict warnings.
  const line = redactSecrets(first);
  return line.length > 200 ? line.slice(0, 199) + "…" : line;
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
    const title = taskTitle(prompt);
    state.task = { title, id: await svc.startTask?.(who, title) ?? null };
  }
  const items = prompt.trim() === "" ? [] : await svc.priorWork?.(prompt, 8, who.cwd) ?? [];
  // Results put in front of the agent are a Heimdall search it did not have to make.
  if (items.length > 0) state.guard = FRESH_GUARD;
  if (state.prompts === 1) items.push(...await repoItems(who.cwd, deps));
  return items;
}

/** The edits of a call grouped by file (at most {@link MAX_EDIT_FILES} files). */
function editsByFile(edits: FileEdit[]): Map<string, FileEdit[]> {
  const out = new Map<string, FileEdit[]>();
  for (const e of edits) {
    if (!out.has(e.path) && out.size >= MAX_EDIT_FILES) continue;
    out.set(e.path, [...(out.get(e.path) ?? []), e]);
  }
  return out;
}

async function beforeTool(
  state: SessionState,
  who: SessionRef,
  ev: BeforeToolEvent,
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
    if (symbols.length > 0 && !(path in state.before)) state.before[path] = snapshotOf(symbols);
    const content = readTextOrNull(path);
    const seen = new Set(region.map((r) => r.id));
    for (const e of edits) {
      for (const s of symbolsInEdit(symbols, e, content)) {
        if (!seen.has(s.id)) {
          seen.add(s.id);
          region.push(s);
        }
      }
    }
  }
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
  if (deps.late?.()) return { context: null, deny: null };
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

/** Turns pending edited files the journal has caught up with into changed symbols. */
async function settle(state: SessionState, who: SessionRef, deps: HookDeps): Promise<void> {
  if (state.pending.length === 0) return;
  const j = deps.journal();
  if (!j) return;
  const fresh: SessionState["changed"] = [];
  for (const path of [...state.pending]) {
    if (!journalCaughtUp(j, path)) continue;
    state.pending = state.pending.filter((p) => p !== path);
    const diff = diffSymbols(path, state.before[path] ?? {}, fileSymbols(j, path));
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
  deps: HookDeps,
): Promise<string | null> {
  const tool = ev.tool;
  if (tool.kind === "edit" || tool.kind === "write" || tool.kind === "patch") {
    const paths = [...new Set(tool.edits.map((e) => e.path))];
    if (ev.outcome.ok !== false && paths.length > 0) {
      hintPaths(paths, deps);
      const j = deps.journal();
      for (const p of paths) {
        state.edited = [...state.edited.filter((e) => e !== p), p];
        if (!state.pending.includes(p)) state.pending.push(p);
        // No before-edit event for this file: the journal still shows it as it was.
        if (!(p in state.before) && j && !journalCaughtUp(j, p)) {
          state.before[p] = snapshotOf(fileSymbols(j, p));
        }
      }
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
  if (tool.kind === "shell" && tool.command) {
    const run = parseTestRun(tool.command, ev.outcome.output, ev.outcome.exitCode, ev.outcome.ok);
    if (run && run.outcome !== "unknown") {
      state.tests.push({
        command: tool.command.slice(0, 500),
        runner: run.runner,
        outcome: run.outcome,
        failed: run.failed.slice(0, 50),
        atMs: Date.now(),
        about: { symbols: state.changed, paths: state.edited },
      });
      const svc = await deps.services();
      await svc.recordAttempt?.(who, {
        taskId: state.task?.id ?? null,
        task: state.task?.title ?? null,
        symbols: state.changed,
        paths: state.edited,
        command: tool.command,
        runner: run.runner,
        outcome: run.outcome,
        failed: run.failed,
      });
    }
  }
  const step = stepGuard(state.guard, lookUpOf(tool));
  state.guard = step.state;
  return step.remind ? GUARD_TEXT : null;
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
  // A shorter transcript is a new one (cleared, compacted): scan it whole.
  const from = (state.personalTurns ?? 0) <= turns.length ? state.personalTurns ?? 0 : 0;
  state.personalTurns = turns.length;
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
    state.tests.length,
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
