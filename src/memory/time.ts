/** Dates on the command line and in output. Pure. */
import { clipped } from "../errors/mod.ts";
import { MemoryInputError } from "./types.ts";

/**
 * Times (ms) a memory may hold, typed or imported: from 1970-01-01 up to,
 * excluding, 2100-01-01. Nothing was recorded before 1970, and a date
 * centuries ahead is a typo (5138 for 2025) that would keep a memory "valid"
 * for ever.
 */
export const TIME_RANGE = [0, Date.UTC(2100, 0, 1)] as const;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses `text` as an instant in milliseconds: `2025-01-31` (UTC; `edge`
 * says whether a bare date means its first or its last millisecond),
 * `2025-01-31T14:00`, `2025-01-31T14:00:00Z` or with an offset (a date-time
 * without a zone is UTC; with `edge` "end", one without milliseconds means
 * the last millisecond of its minute or second, so that `--as-of` a time as
 * output prints it, to the second, includes what was recorded in that
 * second), or `now`. Throws {@link MemoryInputError} naming
 * `option` and the value for anything else, including impossible dates and
 * instants outside {@link TIME_RANGE} (what an import accepts).
 */
export function parseInstant(
  text: string,
  option: string,
  edge: "start" | "end" = "start",
  now = Date.now(),
): number {
  const t = text.trim();
  if (t === "now") return now;
  let ms = NaN;
  if (DATE_ONLY.test(t)) {
    ms = Date.parse(`${t}T00:00:00Z`);
    // Date.parse rolls 2025-02-30 over to March: reject what does not round-trip.
    if (Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) !== t) ms = NaN;
    if (Number.isFinite(ms) && edge === "end") ms += 86_400_000 - 1;
  } else if (DATE_TIME.test(t)) {
    const iso = t.replace(" ", "T");
    ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`);
    if (edge === "end" && !iso.includes(".")) {
      ms += /T\d{2}:\d{2}:\d{2}/.test(iso) ? 999 : 59_999;
    }
    if (Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) !== iso.slice(0, 10)) {
      // A valid offset may move the UTC day; only reject impossible calendar dates.
      const [y, m, d] = iso.slice(0, 10).split("-").map(Number) as [number, number, number];
      const check = new Date(Date.UTC(y, m - 1, d));
      if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) ms = NaN;
    }
  }
  if (!Number.isFinite(ms)) {
    throw new MemoryInputError(
      `Invalid ${option} "${
        clipped(text)
      }": expected a date like 2025-01-31, a time like 2025-01-31T14:00:00Z, or now`,
    );
  }
  if (ms < TIME_RANGE[0] || ms >= TIME_RANGE[1]) {
    throw new MemoryInputError(
      `Invalid ${option} "${clipped(text)}": expected a date from 1970-01-01 to ${
        new Date(TIME_RANGE[1] - 1).toISOString().slice(0, 10)
      }; give a date in that range`,
    );
  }
  return ms;
}

/** An instant for people: `2025-01-31 14:00:05Z`. */
export function formatInstant(ms: number | null): string {
  if (ms === null) return "—";
  return new Date(ms).toISOString().replace("T", " ").replace(/\.\d{3}Z$/, "Z");
}
