/**
 * Memory with a team: where each write goes and when copies are pulled.
 * Without a team store every call is memory's own (local journal, as
 * ever). With a shared PostgreSQL connected, memories of scope project and
 * team are decided and stored there (supersession, repeated failures and
 * resolutions under row locks, on the server's clock) and copied here at
 * once; private memories stay in this journal and never touch the team's.
 */
import {
  type AttemptInput,
  type AttemptResult,
  cleanAuthor,
  currentOnSameAnchors,
  describeFailure,
  forget,
  freshMemoryId,
  loadMemories,
  markSuperseded,
  type Memory,
  memoryById,
  MemoryInputError,
  type MemoryRow,
  mirrorMemories,
  parseScope,
  prepareAttempt,
  type PreparedAttempt,
  prepareRemember,
  recordAttempt,
  remember,
  type RememberInput,
  type RememberResult,
  resolveFailures,
  sharedIn,
  validSince,
} from "../memory/mod.ts";
import type { Journal } from "../store/mod.ts";
import type { TeamContext } from "./mod.ts";
import { portableOf } from "./memory_anchor.ts";
import { pullMemories, type PullReport } from "./memory_sync.ts";
import { storeAttempt, storeDescribe, storeForget, storeRemember } from "./pg_memory.ts";
import { openPgTeamStore, PgTeamStore } from "./pg_store.ts";
import { RepoResolver } from "./symbol_key.ts";
import { TeamStoreError } from "./team_url.ts";
import type { TeamStore } from "./types.ts";

const STALE_COPIES = "showing this machine's copy of the team's memories as of its last sync";

/**
 * Memory for one command or server: this journal, and the team store when
 * `teamUrl` is set. Open with {@link SharedMemory.open}; close when done.
 */
export class SharedMemory {
  private constructor(
    /** The shared store, or null (none configured, or unreachable). */
    readonly store: PgTeamStore | null,
    /** Why a configured store could not be used, or null. */
    readonly lost: TeamStoreError | null,
    /** Whether {@link close} closes the store (it opened it). */
    private readonly owned = true,
  ) {}

  /**
   * Memory over a team store already open (a `Team`'s): shared writes go
   * to it when it is the shared PostgreSQL. Closing this leaves the store open.
   */
  static over(store: TeamStore): SharedMemory {
    return new SharedMemory(store instanceof PgTeamStore ? store : null, null, false);
  }

  /**
   * Connects to the team store when one is configured. An unreachable store
   * is not an error here: reads go on from this journal's copies (see
   * {@link warning}), and a shared write fails with the reason. Cost without
   * a store: nothing; with one, loading `pg` and connecting (see
   * `openPgTeamStore`).
   */
  static async open(ctx: TeamContext): Promise<SharedMemory> {
    const url = ctx.config().teamUrl;
    if (!url) return new SharedMemory(null, null);
    try {
      return new SharedMemory(await openPgTeamStore(url), null);
    } catch (e) {
      if (e instanceof TeamStoreError) return new SharedMemory(null, e);
      throw e;
    }
  }

  /** What a reader should be told when the team's memories may be behind, or null. */
  warning(): string | null {
    return this.lost === null ? null : `${this.lost.message}; ${STALE_COPIES}`;
  }

  /**
   * Pulls the team's memories written since the last pull into `j` (see
   * `pullMemories`). Null without a store. Throws TeamStoreError when the
   * connection is lost.
   */
  async sync(j: Journal): Promise<PullReport | null> {
    return this.store ? await pullMemories(j, this.store) : null;
  }

  /**
   * {@link sync} before a read: a connection lost on the way is reported
   * through `warn` (as {@link warning} words it) and the read goes on with
   * this journal's copies as of the last pull. Returns null then.
   */
  async syncForRead(j: Journal, warn: (message: string) => void): Promise<PullReport | null> {
    try {
      return await this.sync(j);
    } catch (e) {
      if (!(e instanceof TeamStoreError)) throw e;
      warn(`${e.message}; ${STALE_COPIES}`);
      return null;
    }
  }

  /**
   * Records a decision, convention, note or fact (memory's `remember`). Shared
   * scope with a store: the store supersedes the current one of its kind on
   * the same anchors in the same transaction that adds it, so of two
   * machines writing at once exactly one stays current; memories of this
   * journal alone (recorded before connecting) on the same code give way too.
   * Throws what `remember` throws, and TeamStoreError for a shared write
   * while the store cannot be reached.
   */
  async remember(j: Journal, input: RememberInput): Promise<RememberResult> {
    const scope = parseScope(input.scope ?? "project");
    const store = this.#storeFor(scope);
    if (!store) {
      for (const ref of input.supersedes ?? []) {
        const old = memoryById(j, ref);
        if (this.#isCopy(j, old)) {
          throw new MemoryInputError(
            `Memory ${old.id} is the team's: a private memory cannot supersede it; record this one with --scope project, or forget ${old.id}`,
          );
        }
      }
      return remember(j, input, (m) => !this.#isCopy(j, m));
    }
    const storeId = await store.storeId();
    await pullMemories(j, store);
    const p = prepareRemember(j, input);
    const shared = sharedIn(j, storeId, p.explicit.map((m) => m.id));
    const repos = new RepoResolver();
    const id = freshMemoryId(j);
    const { row, rev, superseded } = await storeRemember(store, {
      id,
      kind: p.kind as Exclude<typeof p.kind, "attempt">,
      text: p.text,
      author: p.author,
      scope: scope as Exclude<typeof scope, "private">,
      taskId: p.taskId,
      anchors: p.anchors.map((a) => portableOf(a, repos)),
      validFrom: p.validFrom,
      validTo: p.validTo,
      explicit: [...shared],
      supersede: p.supersedes,
    });
    // This machine's copy keeps the anchors exactly as they were resolved here.
    mirrorMemories(j, storeId, [{ row, rev }], () => p.anchors);
    const local = p.explicit.filter((m) => !shared.has(m.id)).map((m) => m.id);
    if (p.supersedes) {
      const same = currentOnSameAnchors(
        j,
        p.anchors,
        (m) => m.kind === p.kind && m.id !== id && validSince(m, row.valid_from),
        p.author,
      );
      const copies = sharedIn(j, null, same.map((m) => m.id));
      local.push(...same.filter((m) => !copies.has(m.id)).map((m) => m.id));
    }
    markSuperseded(j, local, id, row.recorded_at);
    await pullMemories(j, store);
    return { memory: loadMemories(j, [id])[0]!, superseded: [...superseded, ...local] };
  }

  /**
   * Records an attempt (memory's `recordAttempt`). Shared scope with a store:
   * a repeat of an open failure on the same anchors, from any machine, is
   * counted there; a pass resolves the open failures sharing an anchor, in
   * the store and those of this journal alone. Throws what `recordAttempt`
   * throws, and TeamStoreError as {@link remember} does.
   */
  async attempt(j: Journal, input: AttemptInput): Promise<AttemptResult> {
    const scope = parseScope(input.scope ?? "project");
    const store = this.#storeFor(scope);
    if (!store) return recordAttempt(j, input, (m) => !this.#isCopy(j, m));
    const storeId = await store.storeId();
    await pullMemories(j, store);
    const p = prepareAttempt(j, input);
    const r = await storeAttempt(store, {
      ...sharedAttempt(j, p, scope),
      outcome: p.outcome,
      fix: p.fix,
    });
    if (!r.repeat) mirrorMemories(j, storeId, [r], () => p.anchors);
    const local = p.outcome === "passed"
      ? resolveFailures(j, r.row, p.anchors, p.tests, p.author, (m) => !this.#isCopy(j, m))
      : [];
    await pullMemories(j, store);
    return {
      memory: loadMemories(j, [r.row.id])[0]!,
      repeated: r.repeat !== null,
      matchedBy: r.repeat?.matchedBy ?? null,
      similarity: r.repeat?.similarity ?? null,
      resolved: [...r.resolved, ...local],
    };
  }

  /**
   * Joins an agent's account to the open failure it describes (memory's
   * `describeFailure`): in the store for a shared failure, else in this
   * journal. Returns the failure's id, or null when none matches. Throws what
   * `describeFailure` throws, and TeamStoreError as {@link attempt} does.
   */
  async describe(
    j: Journal,
    input: Omit<AttemptInput, "outcome" | "fix">,
  ): Promise<string | null> {
    const scope = parseScope(input.scope ?? "project");
    const store = this.#storeFor(scope);
    if (!store) return describeFailure(j, input, (m) => !this.#isCopy(j, m));
    await pullMemories(j, store);
    const row = await storeDescribe(
      store,
      sharedAttempt(j, prepareAttempt(j, { ...input, outcome: "failed" }), scope),
    );
    // Not a shared failure: it may be this machine's own.
    if (!row) return describeFailure(j, input, (m) => !this.#isCopy(j, m));
    await pullMemories(j, store);
    return row.id;
  }

  /**
   * Forgets a memory (memory's `forget`): in the store when it is one of the
   * team's, else in this journal. Throws what `forget` throws, and
   * TeamStoreError for a team memory while the store cannot be reached.
   */
  async forget(j: Journal, idOrPrefix: string, by: { author: string }): Promise<Memory> {
    // As stored, secrets redacted, before it reaches the team store too.
    const options = { author: cleanAuthor(by.author) };
    const store = this.store;
    if (!store) {
      if (this.lost && this.#isCopy(j, memoryById(j, idOrPrefix))) throw this.lost;
      return forget(j, idOrPrefix, options);
    }
    const storeId = await store.storeId();
    await pullMemories(j, store);
    const m = memoryById(j, idOrPrefix);
    if (!sharedIn(j, storeId, [m.id]).has(m.id)) return forget(j, idOrPrefix, options);
    if (!await storeForget(store, m.id, options.author)) {
      throw new MemoryInputError(
        `Memory ${m.id} is no longer in the team store; nothing forgotten`,
      );
    }
    await pullMemories(j, store);
    return loadMemories(j, [m.id])[0]!;
  }

  /** Closes the store it opened (not one it was given). */
  async close(): Promise<void> {
    if (this.owned) await this.store?.close();
  }

  /** The store a write of `scope` goes to: none for private ones or without a store. */
  #storeFor(scope: string): PgTeamStore | null {
    if (scope === "private") return null;
    if (this.lost) throw this.lost;
    return this.store;
  }

  /** A copy of some team store's row: private and local writes leave those alone. */
  #isCopy(j: Journal, m: Pick<MemoryRow, "id">): boolean {
    return this.store !== null || this.lost !== null ? sharedIn(j, null, [m.id]).size > 0 : false;
  }
}

/** The store's form of a prepared attempt: a fresh id, portable anchors, its failing tests. */
function sharedAttempt(j: Journal, p: PreparedAttempt, scope: string) {
  const repos = new RepoResolver();
  return {
    id: freshMemoryId(j),
    text: p.text,
    author: p.author,
    scope: scope as "project" | "team",
    taskId: p.taskId,
    anchors: p.anchors.map((a) => portableOf(a, repos)),
    tests: p.tests,
  };
}
