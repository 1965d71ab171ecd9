/**
 * A deadline for a hook process's waits, on the runtime's own timer.
 *
 * Why not `setTimeout`: in Deno the global `setTimeout` is Node's, and its
 * first use loads `node:timers` with Node's error and inspection modules,
 * about 10 ms of a hook process that is otherwise over in tens of ms
 * (`docs/performance.md`, Hooks and MCP). `AbortSignal.timeout` is part of
 * the web platform the runtime already has loaded.
 */

/**
 * Resolves to `value` once `ms` have passed. The timer does not keep the
 * process alive (a hook that is done exits without waiting for it) and
 * cannot be cancelled: whoever races it simply stops listening.
 *
 * @example
 * ```ts
 * import { after } from "./deadline.ts";
 * import assert from "node:assert/strict";
 * const quick = new Promise((r) => queueMicrotask(() => r("answer")));
 * assert.equal(await Promise.race([quick, after(1000, "late")]), "answer");
 * assert.equal(await Promise.race([new Promise(() => {}), after(5, "late")]), "late");
 * ```
 */
export function after<T>(ms: number, value: T): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  return new Promise((resolve) =>
    signal.addEventListener("abort", () => resolve(value), { once: true })
  );
}
