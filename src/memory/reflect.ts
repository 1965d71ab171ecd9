/**
 * `heimdall reflect`: one knowledge page per project, written from its shared
 * memories — current decisions and conventions, open failures and those
 * resolved lately, and the hot files with who works on them — and stored as
 * a memory of kind `page` on the project's folder, superseding the last one,
 * so search and session start can give the whole picture in one item.
 * Deterministic: no model, only the journal's rows.
 */
import { basename, relative } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import { remember } from "./remember.ts";
import { MAX_TEXT, type MemoryRow } from "./types.ts";

/** Who works on a file: active claims on it, from the team store (outside memory). */
export interface FileClaim {
  /** Absolute path of the claimed file. */
  path: string;
  /** Who holds the claim. */
  developer: string;
}

/** At most this many lines per section of a page. */
const SECTION_LINES = 15;
/** At most this many characters of one decision or convention on a page. */
const ITEM_CHARS = 1_000;

type Row = MemoryRow & { anchor_path: string; anchor_name: string };

/**
 * The knowledge page of `project` (an absolute folder) as of `now`, looking
 * `sinceMs` back for resolved failures and hot files (pure apart from reading
 * the journal). Private memories, earlier pages and memories outside their
 * valid time at `now` are left out of its sections (hot files count them);
 * `claims` adds who holds files now. Each decision and convention is cut at
 * 1,000 characters, and the page at {@link MAX_TEXT}, so it can be stored.
 */
export function knowledgePage(
  j: Journal,
  project: string,
  options: { sinceMs: number; now?: number; claims?: readonly FileClaim[] },
): string {
  const now = options.now ?? Date.now();
  const since = now - options.sinceMs;
  const prefix = project.replace(/\/+$/, "") + "/";
  const rows = j.all<Row>(
    `SELECT m.*, a.path AS anchor_path, a.name AS anchor_name
     FROM memories m JOIN memory_anchors a ON a.memory_id = m.id AND a.ord = 0
     WHERE m.scope != 'private' AND m.kind NOT IN ('page', 'preference')
       AND m.forgotten_at IS NULL AND (a.path = ?1 OR substr(a.path, 1, length(?2)) = ?2)
     ORDER BY m.recorded_at DESC, m.id`,
    project.replace(/\/+$/, ""),
    prefix,
  );
  const where = (r: Row) => relative(project, r.anchor_path) || ".";
  const on = (r: Row) => `${r.anchor_name} in ${where(r)}`;
  // What holds now: not superseded, and within its valid time (not expired, not yet to come).
  const current = rows.filter((r) =>
    r.superseded_at === null && r.valid_from <= now && (r.valid_to === null || r.valid_to > now)
  );
  const sections: [string, string[]][] = [
    [
      "Current decisions",
      current.filter((r) => r.kind === "decision").map((r) =>
        `- ${clip(r.text)} (${r.author}, on ${on(r)})`
      ),
    ],
    [
      "Conventions",
      current.filter((r) => r.kind === "convention").map((r) =>
        `- ${clip(r.text)} (${r.author}, on ${on(r)})`
      ),
    ],
    [
      "Open failures",
      current.filter((r) => r.kind === "attempt" && r.status === "open").map((r) =>
        `- ${firstLine(r.text)}${r.count > 1 ? ` ×${r.count}` : ""} (${r.author}, on ${on(r)})`
      ),
    ],
    [
      "Resolved lately",
      current
        .filter((r) => r.status === "resolved" && (r.resolved_at ?? 0) >= since)
        .map((r) => `- ${firstLine(r.text)} → resolved by ${r.resolved_by} (on ${on(r)})`),
    ],
    [
      "Hot files",
      hotFiles(rows.filter((r) => r.recorded_at >= since), options.claims ?? [], project),
    ],
  ];
  const head = `Knowledge page of ${basename(project)}: as of ${
    new Date(now).toISOString().slice(0, 10)
  }, activity of the last ${lookBack(options.sinceMs)}`;
  const body = sections
    .filter(([, lines]) => lines.length > 0)
    .map(([title, lines]) =>
      `${title}:\n${lines.slice(0, SECTION_LINES).join("\n")}${
        lines.length > SECTION_LINES ? `\n- … ${lines.length - SECTION_LINES} more` : ""
      }`
    );
  if (body.length === 0) return `${head}\nNothing shared has been recorded on this project yet.`;
  const page = [head, ...body].join("\n\n");
  // A page is a memory: past the longest text one keeps, it could not be stored (or imported).
  return page.length <= MAX_TEXT ? page : page.slice(0, MAX_TEXT - 2) + "\n…";
}

/** Files by how much was recorded on them (and who holds them now), with the people. */
function hotFiles(rows: readonly Row[], claims: readonly FileClaim[], project: string): string[] {
  const files = new Map<string, Map<string, number>>();
  const add = (path: string, who: string) => {
    const people = files.get(path) ?? new Map<string, number>();
    people.set(who, (people.get(who) ?? 0) + 1);
    files.set(path, people);
  };
  for (const r of rows) add(r.anchor_path, r.author);
  for (const c of claims) {
    if (c.path.startsWith(project.replace(/\/+$/, "") + "/")) add(c.path, c.developer);
  }
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return [...files.entries()]
    .sort((a, b) => total(b[1]) - total(a[1]) || (a[0] < b[0] ? -1 : 1))
    .map(([path, people]) =>
      `- ${relative(project, path) || "."}: ${
        [...people.entries()].sort((a, b) => b[1] - a[1]).map(([p, n]) => `${p} (${n})`).join(
          ", ",
        )
      }`
    );
}

/** At most {@link ITEM_CHARS} characters of `text` (a decision, a convention), the rest cut. */
function clip(text: string): string {
  return text.length > ITEM_CHARS ? text.slice(0, ITEM_CHARS - 1) + "…" : text;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0]!;
  return line.length > 160 ? line.slice(0, 159) + "…" : line;
}

/**
 * Writes the knowledge page of `project` as a `page` memory of `author` on
 * the project's folder (scope project), superseding the previous page there.
 * Returns its id and text. Throws what `remember` throws (a folder no root
 * holds).
 */
export function reflect(
  j: Journal,
  project: string,
  options: { author: string; sinceMs: number; now?: number; claims?: readonly FileClaim[] },
): { id: string; text: string } {
  const text = knowledgePage(j, project, options);
  const r = remember(j, {
    kind: "page",
    text,
    about: [project],
    author: options.author,
    scope: "project",
    cwd: project,
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  return { id: r.memory.id, text };
}

/**
 * A look-back window in the largest unit that says it whole: `7 days`,
 * `7 hours`, `90 minutes` (a window under a day is not "0 days"). Pure.
 */
function lookBack(ms: number): string {
  const units: [number, string][] = [[86_400_000, "day"], [3_600_000, "hour"], [60_000, "minute"]];
  const [size, unit] = units.find(([size]) => ms % size === 0 && ms >= size) ??
    units[units.length - 1]!;
  const n = Math.round(ms / size);
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}
