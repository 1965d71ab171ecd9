import type { Journal } from "../store/mod.ts";
import type { Resolver } from "./resolve.ts";
import { resolveOnWorkers } from "./resolve_pool.ts";

/** How {@link resolveRoot} runs: its Workers, its transactions, when it stops. */
export interface ResolveRootOptions {
  /** Every root as [id, folder]: a resolving Worker reads each root's tsconfig paths. */
  roots: [number, string][];
  /** Resolving Workers for the last phase (below 2: none, all of it here). */
  workers: number;
  /** The last phase goes to the Workers only with at least this many files left. */
  parallelMin: number;
  /** How long one transaction may hold the journal's lock (see `Journal.txChunked`). */
  maxMs: number;
  /**
   * Wraps each phase's steps: the reconciler's stops the steps at the next
   * consistent point once it is told to stop. Identity by default.
   */
  steps?: <T>(steps: Iterable<T>) => Iterable<T>;
  /** Thrown from between phases when aborted (the Workers' writes check it too). */
  signal?: AbortSignal;
  /** Runs inside the last transaction, with the last reference written (a flag cleared). */
  finish?: () => void;
  /** Runs before the resolving Workers start, when they do: frees what they will need. */
  beforeWorkers?: () => void;
}

/**
 * Resolves a root's cross-file references as a first index does (see
 * `Resolver.resolveSteps`): the first phases here, in short transactions;
 * the last and largest one, which only reads, on `workers` resolving
 * Workers reading the committed journal while this thread writes what they
 * find; what they leave (a Worker that failed) is resolved here. Shared by
 * the reconciler's whole-root resolution and verify's fresh resolution of a
 * scratch copy, so that the two cannot come to differ.
 */
export async function resolveRoot(
  journal: Journal,
  resolver: Resolver,
  rootId: number,
  options: ResolveRootOptions,
): Promise<void> {
  const wrap = options.steps ?? (<T>(steps: Iterable<T>) => steps);
  const tx = { maxMs: options.maxMs };
  let owners: number[] = [];
  await journal.txChunked(
    wrap((function* () {
      owners = yield* resolver.resolveHeadSteps(rootId);
    })()),
    tx,
  );
  const signal = options.signal;
  signal?.throwIfAborted();
  if (options.workers >= 2 && owners.length >= options.parallelMin) {
    options.beforeWorkers?.();
    // What this thread's resolver cached for the first phases is of no use
    // to the Workers, and was most of this thread's heap (264 MiB of a
    // 20,000-file index's; 12 once forgotten and collected).
    resolver.forgetAll();
    owners = await resolveOnWorkers(
      { journal: journal.file, roots: options.roots },
      owners,
      options.workers,
      (found) => {
        // Stopped: the Workers are ended, and the error ends the call.
        signal?.throwIfAborted();
        return journal.txChunked(
          (function* () {
            for (const f of found) {
              resolver.applyResolved(f);
              yield `writing a resolved reference of path ${f.owner_id}`;
            }
          })(),
          tx,
        );
      },
    );
  }
  await journal.txChunked(
    wrap((function* () {
      yield* resolver.resolveReferenceSteps(owners);
      options.finish?.();
    })()),
    tx,
  );
  signal?.throwIfAborted();
}
