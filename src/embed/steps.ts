/**
 * What the `normalizer` and the `pre_tokenizer` of a `tokenizer.json` share:
 * each is one step, a `Sequence` of steps, or absent, and each step turns a
 * value into one of the same kind (text into text, words into words).
 */

/** One part of a tokenizer.json as it reads there: its `type` and its settings. */
export type Spec = Record<string, unknown>;

/**
 * Builds the step a tokenizer.json part describes: `null` or absent is the
 * identity; a `Sequence` runs the parts listed under its key `list` in order,
 * each built the same way (so sequences nest); any other type is `step`'s to
 * build, which throws for a type it does not know. Pure; the steps cost what
 * their own parts cost.
 */
export function buildSteps<T>(
  spec: unknown,
  list: string,
  step: (s: Spec) => (value: T) => T,
): (value: T) => T {
  if (spec === null || spec === undefined) return (v) => v;
  const s = spec as Spec;
  if (s.type !== "Sequence") return step(s);
  const steps = ((s[list] as unknown[]) ?? []).map((part) => buildSteps(part, list, step));
  return (v) => steps.reduce((acc, f) => f(acc), v);
}
