/**
 * How many Worker threads a pool starts (the preparing pool of the writer,
 * the vector scan pool): `HEIMDALL_WORKERS` when set to a whole number ≥ 1,
 * else one per core, at most 4. Read from the environment on every call.
 *
 * @example
 * ```ts
 * import { defaultWorkerCount } from "./workers.ts";
 * console.assert(defaultWorkerCount() >= 1);
 * ```
 */
export function defaultWorkerCount(): number {
  const env = Number(Deno.env.get("HEIMDALL_WORKERS"));
  if (Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency ?? 2));
}

/**
 * Resolving Workers for the last phase of a whole root's resolution, given
 * a pool of `workers`: 1 (the writer's own thread reads it) for a pool of
 * one or two, the pool's size past that. On two cores, two resolving
 * Workers took as long as the writer's thread alone, with 5–22% more of
 * the index's CPU and 60–140 MiB more peak memory (docs/performance.md,
 * 2026-12-06): two threads reading SQLite in one process each read at
 * 65–70% of the speed of one, and a Worker's resolver starts with its
 * caches cold where the writer's are warm from the phases before.
 *
 * @example
 * ```ts
 * import { resolvingWorkers } from "./workers.ts";
 * console.assert(resolvingWorkers(2) === 1 && resolvingWorkers(4) === 4);
 * ```
 */
export function resolvingWorkers(workers: number): number {
  return workers > 2 ? workers : 1;
}

/** The name a Worker doing bulk work is started with: it calls {@link yieldToForeground}. */
export const BULK_WORKER = "heimdall-bulk";

/** The nice value of a thread doing bulk work (see {@link yieldToForeground}). */
export const BULK_NICE = 10;

/**
 * Lowers the calling thread's scheduling priority to {@link BULK_NICE}, for a
 * Worker that does bulk work beside the writer (parsing, resolving). On Linux
 * the nice value belongs to the thread, so on a busy machine the CPU goes
 * first to the thread that holds the journal's write lock, to the other
 * processes waiting for that lock, and to the user's own programs; the Worker
 * takes what is left, which on an idle machine is a whole core. Linux only
 * (elsewhere the whole process would be lowered, the writer with it), and
 * best effort: where the permissions refuse, nothing changes.
 */
export function yieldToForeground(): void {
  if (Deno.build.os !== "linux") return;
  try {
    // Loaded here, in the Worker that lowers itself: `node:os` costs a command ~15 ms of its start.
    process.getBuiltinModule("node:os").setPriority(BULK_NICE);
  } catch {
    // Not permitted (no --allow-sys): the Worker keeps the writer's priority.
  }
}
