/**
 * Memory in search: one loose chunk per memory (no path owns it, so
 * re-indexing never removes it). Superseded, resolved and orphaned memories
 * stay searchable as history, flagged in their title, as does a valid time
 * that ends or begins later; forgotten ones leave.
 */
import { isAbsolute } from "../files/mod.ts";
import {
  deleteLooseChunk,
  LOOSE_TEXT_VERSION,
  reindexNotes,
  upsertLooseChunk,
} from "../search/mod.ts";
import { getMeta, type Journal, setMeta } from "../store/mod.ts";
import { anchorLabel } from "./anchors.ts";
import { loadMemories } from "./records.ts";
import { formatInstant } from "./time.ts";
import type { Memory } from "./types.ts";

/** The flags a memory's search title carries, in order. */
export function memoryFlags(m: Memory): string[] {
  const flags: string[] = [];
  if (m.superseded_at !== null) flags.push(`superseded by ${m.superseded_by}`);
  if (m.outcome === "failed") {
    flags.push(m.status === "resolved" ? `resolved by ${m.resolved_by}` : "open failure");
  }
  if (m.outcome === "passed") flags.push("passed");
  if (m.count > 1) flags.push(`seen ${m.count} times`);
  if (m.anchors.length > 0 && m.anchors.every((a) => a.state === "orphaned")) {
    flags.push("code gone");
  }
  // Its valid time, when it is not "from when it was recorded, still": a search years later
  // must not offer what stopped being true (or starts later) as if it held.
  if (m.valid_from > m.recorded_at) flags.push(`valid from ${day(m.valid_from)}`);
  if (m.valid_to !== null) flags.push(`valid until ${day(m.valid_to)}`);
  return flags;
}

/** `2021-01-01`, or `2021-01-01 14:00:00Z` for an instant within the day. */
function day(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : formatInstant(ms);
}

/** Title of a memory's chunk: kind, what it is about, flags. */
export function memoryTitle(m: Memory): string {
  const about = m.anchors.map((a) => a.symbol ?? a.name).join(", ");
  const flags = memoryFlags(m);
  return `${m.kind} on ${about}${flags.length > 0 ? ` [${flags.join("; ")}]` : ""}`;
}

/**
 * Brings the search chunks of `ids` in line with their rows: upserts each
 * (text, anchors as keywords, the first live file or symbol anchor as its
 * place), or deletes the chunk of a forgotten memory. Runs inside the
 * caller's transaction when there is one.
 */
export function syncSearch(j: Journal, ids: readonly string[]): void {
  for (const m of loadMemories(j, [...new Set(ids)])) {
    if (m.forgotten_at !== null) {
      deleteLooseChunk(j, "memory", m.id);
      continue;
    }
    // A team memory about code this machine does not have keeps a relative
    // `repo/path` until it does (src/team): no place to verify against yet.
    const place = m.anchors.find((a) =>
      a.target !== "folder" && a.state !== "orphaned" && isAbsolute(a.path)
    );
    const tests = JSON.parse(m.tests) as string[];
    upsertLooseChunk(j, {
      source: "memory",
      refId: m.id,
      title: memoryTitle(m),
      text: m.text,
      keywords: [
        m.kind,
        m.author,
        ...m.anchors.map(anchorLabel),
        ...tests,
        ...(m.fix ? [m.fix] : []),
      ].join(" "),
      ...(place ? { path: place.path } : {}),
      ...(place?.start_line != null ? { startLine: place.start_line } : {}),
      ...(place?.end_line != null ? { endLine: place.end_line } : {}),
    });
  }
}

/**
 * Makes every memory's search chunk again (a salvaged journal has the
 * memories but not their chunks); see {@link syncSearch}.
 */
export function syncAllSearch(j: Journal): void {
  syncSearch(j, j.all<{ id: string }>("SELECT id FROM memories").map((m) => m.id));
}

/** The `meta` key holding the {@link LOOSE_TEXT_VERSION} the loose chunks were derived by. */
const LOOSE_TEXT_KEY = "loose_text_version";
/** Memories made searchable again per transaction: a writer's transactions stay short. */
const REFRESH_BATCH = 500;

/**
 * Makes every note's and memory's search chunk again when an older build
 * derived them (`LOOSE_TEXT_VERSION` differs from the journal's): the code
 * index is derived again by the next audit, and this brings the rest along,
 * once. Notes in one transaction, memories in batches. Returns how many
 * chunks were made again (0 when they were current).
 */
export function refreshLooseText(j: Journal): number {
  const want = String(LOOSE_TEXT_VERSION);
  if (getMeta(j, LOOSE_TEXT_KEY) === want) return 0;
  const notes = j.tx(() => reindexNotes(j));
  const ids = j.all<{ id: string }>("SELECT id FROM memories ORDER BY id").map((m) => m.id);
  for (let i = 0; i < ids.length; i += REFRESH_BATCH) {
    j.tx(() => syncSearch(j, ids.slice(i, i + REFRESH_BATCH)));
  }
  j.tx(() => setMeta(j, LOOSE_TEXT_KEY, want));
  return notes + ids.length;
}
