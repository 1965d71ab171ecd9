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
