import assert from "node:assert/strict";
import { formatInstant, parseInstant, TIME_RANGE } from "./time.ts";
import { MemoryInputError } from "./types.ts";

Deno.test("parseInstant() reads dates (start or end of the UTC day), date-times and offsets", () => {
  const cases: [string, "start" | "end", string][] = [
    ["2025-01-31", "start", "2025-01-31T00:00:00.000Z"],
    ["2025-01-31", "end", "2025-01-31T23:59:59.999Z"],
    ["2024-02-29", "start", "2024-02-29T00:00:00.000Z"],
    ["2025-01-31T14:00", "start", "2025-01-31T14:00:00.000Z"],
    ["2025-01-31 14:00:05Z", "start", "2025-01-31T14:00:05.000Z"],
    ["2025-01-31T23:30:00-02:00", "start", "2025-02-01T01:30:00.000Z"],
    // As of a time as `why` prints it (to the second): what was recorded within that second too.
    ["2025-01-31 14:00:05Z", "end", "2025-01-31T14:00:05.999Z"],
    ["2025-01-31T14:00", "end", "2025-01-31T14:00:59.999Z"],
    ["2025-01-31T14:00:05.250Z", "end", "2025-01-31T14:00:05.250Z"],
    ["2025-01-31T23:30:00-02:00", "end", "2025-02-01T01:30:00.999Z"],
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

Deno.test("parseInstant() accepts 1970 to the end of 2099, as an import does, whatever the clock says", () => {
  const now = Date.UTC(2026, 0, 1);
  assert.equal(parseInstant("1970-01-01", "--valid-from", "start", now), 0);
  assert.equal(
    parseInstant("2099-12-31", "--valid-to", "end", now),
    Date.UTC(2100, 0, 1) - 1,
  );
  assert.equal(parseInstant("2099-12-31", "--valid-to", "end", now) + 1, TIME_RANGE[1]);
  for (const bad of ["2100-01-01", "2126-01-01", "1969-12-31", "5138-01-01"]) {
    assert.throws(
      () => parseInstant(bad, "--valid-to", "start", now),
      (e: unknown) =>
        e instanceof MemoryInputError &&
        e.message ===
          `Invalid --valid-to "${bad}": expected a date from 1970-01-01 to 2099-12-31; give a date in that range`,
      bad,
    );
  }
});
