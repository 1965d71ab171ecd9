/** `record_attempt`: records what was tried on some code and whether it worked. */
import { z } from "zod";
import { memoryTool, RECORD_INPUT } from "./team_memory.ts";

export const recordAttemptTool = memoryTool({
  name: "record_attempt",
  title: "Record an attempt",
  description:
    "Records an approach tried on some code and its outcome, so nobody repeats a failure blindly: the " +
    "same failure again counts up instead of duplicating; a pass resolves the open failures it fixes. " +
    "With a team store connected, the count and the resolutions are the team's.",
  input: {
    about: z.array(z.string().min(1)).min(1).describe("Symbols or paths the attempt changed"),
    outcome: z.enum(["failed", "passed"]),
    text: z.string().min(1).describe("What was tried, and what happened"),
    tests: z.array(z.string()).optional().describe("Failing (or fixed) test names"),
    fix: z.string().optional().describe("For a pass: what fixed it"),
    ...RECORD_INPUT,
  },
  write: (memory, j, by, a) =>
    memory.attempt(j, {
      ...by,
      about: a.about,
      outcome: a.outcome,
      text: a.text,
      ...(a.tests ? { tests: a.tests } : {}),
      ...(a.fix ? { fix: a.fix } : {}),
    }),
  answer(r, a) {
    const m = r.memory;
    return {
      text:
        `${
          r.repeated ? `Same failure again (${m.count}×)` : `Recorded ${a.outcome} attempt`
        } ${m.id}` +
        (r.resolved.length > 0 ? `; resolves ${r.resolved.join(", ")}` : ""),
      structured: {
        id: m.id,
        outcome: a.outcome,
        scope: m.scope,
        repeated: r.repeated,
        count: m.count,
        resolved: r.resolved,
      },
    };
  },
});
