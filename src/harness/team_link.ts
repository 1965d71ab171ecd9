/**
 * The team store as one hook request uses it: opened at most once, for the
 * session's person, agent and session, and never waited on for long.
 *
 * A hook runs on every tool call an agent makes, so a shared PostgreSQL that
 * is down or slow must not hold the agent up: opening it and every call on
 * it (pulling the team's memories, a claim check, a shared write) each get
 * {@link TEAM_WAIT_MS}. Past that, or when the store cannot be reached, the
 * hook logs why and answers without it (memory reads answer from this
 * machine's copies as of their last pull), and this process leaves the
 * store alone for {@link RESTING_MS}, so a warm hook server does not pay the
 * wait on every request. A call that was late goes on in the background and
 * the store is closed after it. With no shared store configured the team
 * store is this machine's journal: no bound, nothing to pull, errors as
 * they come.
 */
import { type Config, type ConfigEnv, type HomePaths, loadConfig } from "../config/mod.ts";
import type { Team } from "../team/mod.ts";

/** The longest a hook waits on the shared store, per step. */
export const TEAM_WAIT_MS = 1500;
/** After the shared store failed or was late, how long this process leaves it alone. */
export const RESTING_MS = 30_000;

/** Until when (epoch ms) this process leaves the shared store alone, and why. */
let resting: { until: number; why: string } | null = null;

const LATE = Symbol("late");

/** `p`'s outcome, or {@link LATE} when it takes longer than `ms` (`p` goes on regardless). */
async function within<T>(p: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((r) => (timer = setTimeout(() => r(LATE), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The acting session, as the team store records it. */
export interface LinkActor {
  /** The harness (the actor's agent). */
  agent: string;
  session: string;
  /**
   * The session's folder: the developer is git's `user.name` there, whichever
   * process answers (a warm server runs in the home folder, where a
   * repository's own name is not set).
   */
  cwd: string;
}

/** One hook request's way to the team store; see the module comment. */
export class TeamLink {
  #config: Config | null | undefined;
  #team: Promise<Team | null> | undefined;
  #pulled: Promise<void> | undefined;
  /** Calls that outlived their bound: the store closes once they settle. */
  readonly #late = new Set<Promise<unknown>>();

  constructor(
    private readonly home: HomePaths,
    private readonly actor: LinkActor,
    private readonly log: (message: string) => void,
    /** The `HEIMDALL_*` variables the config is read with (the hook's, not a warm server's). */
    private readonly env: ConfigEnv = Deno.env,
    private readonly waitMs = TEAM_WAIT_MS,
  ) {}

  /** Whether the team store is a shared PostgreSQL (`heimdall team connect`). */
  get shared(): boolean {
    return (this.#loadConfig()?.teamUrl ?? null) !== null;
  }

  /**
   * The team store, opened on first use. Null when the config cannot be
   * read, or a shared store is configured but could not be opened within
   * the bound (or failed lately in this process); logged.
   */
  team(): Promise<Team | null> {
    return this.#team ??= this.#open();
  }

  /**
   * Runs `fn` on the team store. With the shared store: at most the bound,
   * and undefined (logged) when the store is unavailable, fails to answer
   * (TeamStoreError) or is late; other errors are thrown. With the local
   * store: `fn` as it is.
   */
  async call<T>(what: string, fn: (team: Team) => Promise<T>): Promise<T | undefined> {
    const team = await this.team();
    if (team === null) return undefined;
    if (!this.shared) return await fn(team);
    if (this.#resting(what)) return undefined;
    const { TeamStoreError } = await import("../team/mod.ts");
    const running = fn(team);
    try {
      const r = await within(running, this.waitMs);
      if (r !== LATE) return r;
    } catch (e) {
      if (!(e instanceof TeamStoreError)) throw e;
      this.#rest(`${what} failed: ${e.message}`);
      return undefined;
    }
    this.#late.add(running);
    running.catch(() => {}).finally(() => this.#late.delete(running));
    this.#rest(`${what} took longer than ${this.waitMs} ms (it goes on in the background)`);
    return undefined;
  }

  /**
   * Before reading memory: pulls the team's memories into this machine's
   * journal, once per request. Nothing without a shared store; when the
   * store is unavailable or late, the read answers from the copies (logged).
   */
  sync(): Promise<void> {
    return this.#pulled ??= this.shared
      ? this.call("pulling the team's memories", (t) => t.syncMemories()).then(() => {})
      : Promise.resolve();
  }

  /**
   * Closes the store: now, or, when a call outlived its bound, once it
   * settles (without waiting for it here: the hook's answer is not held up).
   */
  async close(): Promise<void> {
    const team = await this.#team?.catch(() => null);
    if (!team) return;
    if (this.#late.size === 0) return await team.close();
    void Promise.allSettled([...this.#late]).then(() => team.close()).catch((e) =>
      this.log(`team: closing the store: ${(e as Error).message}`)
    );
  }

  #loadConfig(): Config | null {
    if (this.#config === undefined) {
      try {
        this.#config = loadConfig(this.home.config, this.env);
      } catch (e) {
        this.log(`team: cannot read the config, so no team store: ${(e as Error).message}`);
        this.#config = null;
      }
    }
    return this.#config;
  }

  async #open(): Promise<Team | null> {
    const config = this.#loadConfig();
    if (config === null) return null;
    const mod = await import("../team/mod.ts");
    const ctx = { home: this.home, config: () => config };
    const who = mod.currentActor({
      agent: this.actor.agent,
      session: this.actor.session,
      cwd: this.actor.cwd,
    });
    if (!config.teamUrl) return await mod.openTeam(ctx, who);
    if (this.#resting("opening the team store")) return null;
    const opening = mod.openTeam(ctx, who);
    try {
      const r = await within(opening, this.waitMs);
      if (r !== LATE) return r;
    } catch (e) {
      if (!(e instanceof mod.TeamStoreError)) throw e;
      this.#rest(e.message);
      return null;
    }
    // Closed whenever it does open: nothing in this request will use it.
    opening.then((t) => t.close()).catch(() => {});
    this.#rest(`the team store did not answer within ${this.waitMs} ms`);
    return null;
  }

  /** True (logged) while this process leaves the shared store alone. */
  #resting(what: string): boolean {
    if (resting === null || Date.now() >= resting.until) return false;
    this.log(
      `team: skipped ${what}: ${resting.why}; answering from this machine's copies until ${
        new Date(resting.until).toISOString()
      }`,
    );
    return true;
  }

  #rest(why: string): void {
    resting = { until: Date.now() + RESTING_MS, why };
    this.log(
      `team: ${why}; answering from this machine's copies of the team's memories, ` +
        `without the store for ${RESTING_MS / 1000} s`,
    );
  }
}
