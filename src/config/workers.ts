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
