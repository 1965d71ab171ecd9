/**
 * Memory in search: one loose chunk per memory (no path owns it, so
 * re-indexing never removes it). Superseded, resolved and orphaned memories
 * stay searchable as history, flagged in their title; forgotten ones leave.
 */
import { isAbsolute } from "../files/mod.ts";
import { deleteLooseChunk, upsertLooseChunk } from "../search/mod.ts";
import type { Journal } from "../store/mod.ts";
import { anchorLabel } from "./anchors.ts";
import { loadMemories } from "./records.ts";
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
  return flags;
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
