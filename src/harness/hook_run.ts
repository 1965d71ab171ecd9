/**
 * One hook request answered: payload in, the harness's answer out. Used in
 * the hook process itself (the fallback) and in the warm hook server.
 * Never throws: any error is logged and the answer is null (fail open).
 */
import { type HomePaths, loadConfig } from "../config/mod.ts";
import { Journal, setBusyTimeout } from "../store/mod.ts";
import { answered, parseEvent, renderAnswer } from "./engine.ts";
import { HARNESSES, harnessSpec, isHarness } from "./harnesses/mod.ts";
import { handleEvent, type HookDeps } from "./handler.ts";
import { after } from "./deadline.ts";
import { hookLog } from "./hook_log.ts";
import type { HeldReader, ReaderLease } from "./held_reader.ts";
import type { Services } from "./services.ts";

/** What a hook invocation brings: its arguments, working directory, environment and stdin. */
export interface HookRequest {
  harness: string;
  /** `--budget`, if given. */
  budget: string | null;
  /** `--event`, if given. */
  event: string | null;
  cwd: string;
  /** The environment variables the payload readers and the budget read. */
  env: Record<string, string>;
  stdin: string;
}

/** Default token budget of one injection. */
export const DEFAULT_BUDGET = 1500;
/**
 * An in-process hook (no warm server) that has not answered by then gives
 * up quietly, before a harness's own 10 s timeout. Room for loading the
 * modules cold on a busy machine and for a 1.5 s wait on an unreachable
 * team store; journal waits no longer eat into it ({@link HOOK_BUSY_MS}).
 */
export const IN_PROCESS_DEADLINE_MS = 8000;
/**
 * The most one journal statement of a hook waits for another process's
 * lock. SQLite waits synchronously, holding up the deadline (and, in the
 * server, every other request): past this a write fails, is logged, and the
 * hook carries on without it.
 */
export const HOOK_BUSY_MS = 50;

/**
 * Makes every journal this process opens from now on wait at most
 * {@link HOOK_BUSY_MS} for a lock. For a process that only answers hooks
 * (the hook itself, the warm server): it applies process-wide.
 */
export function boundJournalWaits(): void {
  setBusyTimeout(HOOK_BUSY_MS);
}

/** The token budget: `--budget`, else `HEIMDALL_HOOK_BUDGET`, else the default. */
export function budgetFrom(flag: string | null | undefined, env: string | undefined): number {
  for (const v of [flag, env]) {
    if (v === null || v === undefined || v.trim() === "") continue;
    const n = Number(v);
    if (Number.isInteger(n) && n > 0) return n;
  }
  return DEFAULT_BUDGET;
}

/** How {@link answerHook} is asked beyond its request. */
export interface AnswerOptions {
  /**
   * The event is recorded, but whatever it answers reaches no one (a spooled
   * event replayed after its hook returned): handled as an event the harness
   * shows nobody.
   */
  unseen?: boolean;
  /**
   * Called once all of the request's work has finished and its journals are
   * closed: before the answer is returned, or later when the answer was
   * given up at the deadline and the work went on.
   */
  settled?: () => void;
}

/**
 * Answers one hook request: the text to print on stdout, or null for
 * nothing. `via` names who answers, for the debug log (`HEIMDALL_HOOK_DEBUG`).
 * Past `deadlineMs` it answers null (fails open: nothing injected, no tool
 * call approved or denied) and lets the work finish in the background.
 * A hook process calls {@link boundJournalWaits} first, so the deadline
 * holds while another process holds the journal's lock.
 */
export async function answerHook(
  req: HookRequest,
  home: HomePaths,
  via = "in-process",
  deadlineMs = IN_PROCESS_DEADLINE_MS,
  reader?: HeldReader,
  options: AnswerOptions = {},
): Promise<string | null> {
  const finished = () => options.settled?.();
  const started = performance.now();
  let journal: Journal | null | undefined;
  let lease: ReaderLease | undefined;
  let closing: Promise<Services> | undefined;
  let settled: Promise<void> = Promise.resolve();
  let late = false;
  const harness = req.harness;
  try {
    if (!isHarness(harness)) {
      const said = harness === "" ? "no --harness given" : `unknown --harness "${harness}"`;
      hookLog(
        home.home,
        `error: ${said}; expected one of ${HARNESSES.join(", ")}: ` +
          "`heimdall init --harness NAME` writes the hook command again",
      );
      return null;
    }
    const spec = harnessSpec(harness);
    let payload: unknown;
    try {
      payload = JSON.parse(req.stdin);
    } catch {
      hookLog(home.home, `${harness}: stdin is not JSON (${req.stdin.length} bytes); ignored`);
      return null;
    }
    const event = parseEvent(spec, payload, {
      cwd: req.cwd,
      env: (n) => req.env[n],
      event: req.event,
    });
    // The config as the hook's own process reads it: its HEIMDALL_* variables, not a warm
    // server's (HEIMDALL_ON_CONFLICT=warn on one session's hooks counts for that session).
    const env = { get: (name: string) => req.env[name] };
    const silent = options.unseen === true || !answered(spec, event);
    let services: Promise<Services> | undefined;
    let gaveUp = false;
    const deps: HookDeps = {
      home,
      budget: budgetFrom(req.budget, req.env.HEIMDALL_HOOK_BUDGET),
      journal: () => {
        if (journal === undefined) {
          try {
            if (reader) {
              lease = reader.acquire();
              journal = lease.journal;
            } else journal = Journal.open(home.journal, { readOnly: true });
          } catch (e) {
            hookLog(home.home, `${harness} ${event.native}: no journal: ${(e as Error).message}`);
            journal = null;
          }
        }
        return journal;
      },
      services: () =>
        closing = services ??= import("./services_impl.ts").then((m) =>
          m.createServices(
            home,
            deps.journal,
            { harness, sessionId: event.sessionId, cwd: event.cwd },
            env,
          )
        ),
      roots: () => loadConfig(home.config, env).roots,
      // Unseen when the harness shows nothing for this event; late once the deadline has
      // passed, even if its timer has not fired yet (work that never yields to the event
      // loop), and late for good.
      unseen: () => silent || (gaveUp ||= performance.now() - started >= deadlineMs),
    };
    const work = handleEvent(event, deps);
    const context = await Promise.race([work, after(deadlineMs, "late" as const)]);
    if (context === "late") gaveUp = true;
    if (context === "late" || gaveUp) {
      hookLog(
        home.home,
        `${harness} ${event.native}: gave up after ${deadlineMs} ms (${via}); answered nothing`,
      );
      // Let the work finish (or fail) before its journals are closed.
      late = true;
      settled = work.then(
        () => {},
        (e) => hookLog(home.home, `${harness}: late error: ${(e as Error)?.stack}`),
      );
      return null;
    }
    if (req.env.HEIMDALL_HOOK_DEBUG) {
      hookLog(
        home.home,
        `${harness} ${event.native} → ${event.kind} in ${
          (performance.now() - started).toFixed(1)
        } ms (${via})`,
      );
    }
    const answer = renderAnswer(spec, event, context.context, context.deny);
    return answer === null || answer === "" ? null : answer;
  } catch (e) {
    hookLog(home.home, `${harness}: error: ${(e as Error)?.stack ?? String(e)}`);
    return null;
  } finally {
    const release = async () => {
      try {
        if (lease) lease.release();
        else journal?.close();
      } catch { /* already closed */ }
      await closing?.then((s) => s.close?.()).catch((e) =>
        hookLog(home.home, `${harness}: closing: ${(e as Error).message}`)
      );
    };
    if (late) void settled.then(release).finally(finished);
    else {
      await release();
      finished();
    }
  }
}
