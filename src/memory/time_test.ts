import assert from "node:assert/strict";
import { formatInstant, parseInstant } from "./time.ts";
import { MemoryInputError } from "./types.ts";

Deno.test("parseInstant() reads dates (start or end of the UTC day), date-times and offsets", () => {
  const cases: [string, "start" | "end", string][] = [
    ["2025-01-31", "start", "2025-01-31T00:00:00.000Z"],
    ["2025-01-31", "end", "2025-01-31T23:59:59.999Z"],
    ["2024-02-29", "start", "2024-02-29T00:00:00.000Z"],
    ["2025-01-31T14:00", "start", "2025-01-31T14:00:00.000Z"],
    ["2025-01-31 14:00:05Z", "start", "2025-01-31T14:00:05.000Z"],
    ["2025-01-31T23:30:00-02:00", "start", "2025-02-01T01:30:00.000Z"],
  ];
  for (const [text, edge, iso] of cases) {
    assert.equal(new Date(parseInstant(text, "--as-of", edge)).toISOString(), iso, text);
  }
  assert.equal(parseInstant("now", "--as-of", "start", 42), 42);
});

Deno.test("parseInstant() refuses impossible dates and other words, naming the option", () => {
  for (const bad of ["2025-02-30", "2025-13-01", "2023-02-29", "yesterday", "31/01/2025", ""]) {
    assert.throws(
      () => parseInstant(bad, "--as-of"),
      (e: unknown) => e instanceof MemoryInputError && e.message.includes(`--as-of "${bad}"`),
      bad,
    );
  }
});

Deno.test("formatInstant() prints UTC to the second", () => {
  assert.equal(formatInstant(Date.parse("2025-01-31T14:00:05.123Z")), "2025-01-31 14:00:05Z");
  assert.equal(formatInstant(null), "—");
});
