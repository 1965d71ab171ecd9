/**
 * Moving memory between journals as JSON Lines, losslessly: every column of
 * every memory and anchor, and every note (`heimdall insert`) with the paths
 * it points at. Export is deterministic (same journal, same bytes), so
 * export → import into an empty journal → export is identical.
 */
import { basename, isAbsolute, join, redactSecrets, sniffSecret } from "../files/mod.ts";
import { type Journal, listRoots, rootFor } from "../store/mod.ts";
import {
  ANCHOR_COLUMNS,
  anchorsOf,
  FREE_TEXT_COLUMNS,
  getMemoryRow,
  insertAnchors,
  insertMemory,
  MEMORY_COLUMNS,
  redactRow,
  replaceAnchors,
  replaceMemory,
} from "./records.ts";
import { importNote, type NoteRecord, noteRecords } from "../search/mod.ts";
import { reanchorMemories, rebaseAnchor } from "./reanchor.ts";
import { syncSearch } from "./searchable.ts";
import { TIME_RANGE } from "./time.ts";
import { plural } from "../present/fmt.ts";
import {
  type AnchorRow,
  KINDS,
  MAX_ANCHORS,
  MAX_FIELD,
  MAX_TEXT,
  type Memory,
  MemoryInputError,
  type MemoryRow,
  SCOPES,
} from "./types.ts";

/**
 * The first line of an export. Version 2 added notes; version 3 the end
 * record ({@link exportEnd}) that tells a complete file from one cut short.
 * Version 1 and 2 files import as before, unchecked.
 */
export const EXPORT_HEADER = { type: "heimdall-memory", version: 3 } as const;
/** Export format versions this build reads. */
const READABLE_VERSIONS: readonly unknown[] = [1, 2, 3];
/** The `type` of an export's last line, which counts what came before it. */
export const END_TYPE = "heimdall-memory-end";

/**
 * The last line of an export (version 3 on): how many memories and notes it
 * holds. A file cut at a line boundary (a partial copy or download) parses
 * line by line as well as a whole one; without this line, or with other
 * counts, an import refuses it instead of losing its tail silently.
 */
export function exportEnd(memories: number, notes: number): string {
  return JSON.stringify({ type: END_TYPE, memories, notes });
}

/**
 * The journal's memories as JSON Lines: a header line, then one line per
 * memory (its columns in table order, then `anchors`), oldest first, then
 * one line per note (`"type": "note"`), oldest first, then the end record
 * ({@link exportEnd}) counting both: the journal as it stood when the first
 * line was taken, whatever other processes write meanwhile (one read
 * transaction, ended when the generator is). Free text is redacted again on
 * the way out: a secret an earlier build stored before its screen knew that
 * kind (an `Authorization: Bearer …` in an attempt's command) leaves as
 * `[REDACTED:<kind>]`. Streams memories; holds one at a time.
 */
export function* exportMemories(j: Journal): Generator<string> {
  // One read transaction: the journal as it stood at one instant. Read row by row,
  // a decision superseded meanwhile by another process would be written marked
  // by an id the file lacks, and import with no current decision in its place.
  const own = !j.db.isTransaction;
  if (own) j.stmt("BEGIN").run();
  try {
    yield* exportLines(j);
  } finally {
    if (own && j.db.isTransaction) j.stmt("COMMIT").run();
  }
}

function* exportLines(j: Journal): Generator<string> {
  yield JSON.stringify(EXPORT_HEADER);
  const ids = j.all<{ id: string }>("SELECT id FROM memories ORDER BY recorded_at, id");
  let notes = 0;
  for (const { id } of ids) {
    const row = redactRow(getMemoryRow(j, id)!);
    const out: Record<string, unknown> = {};
    for (const c of MEMORY_COLUMNS) out[c] = row[c];
    out.anchors = anchorsOf(j, id).map((a) => {
      const o: Record<string, unknown> = {};
      for (const c of ANCHOR_COLUMNS) o[c] = a[c];
      return o;
    });
    yield JSON.stringify(out);
  }
  for (const note of noteRecords(j)) {
    notes++;
    const { title, body, keywords } = note;
    yield JSON.stringify({
      type: NOTE_TYPE,
      ...note,
      title: redactSecrets(title),
      body: redactSecrets(body),
      keywords: redactSecrets(keywords),
    });
  }
  yield exportEnd(ids.length, notes);
}

/** The `type` of a note's line in an export. */
export const NOTE_TYPE = "note";

/** What {@link importMemories} did. */
export interface ImportReport {
  /** New ids. */
  added: number;
  /**
   * Ids already here whose imported copy was newer (`updated_at`), replaced;
   * or older, but marked (forgotten, superseded, resolved) where the copy
   * here is not: the mark was added.
   */
  updated: number;
  /**
   * Ids already here as the same version: every column equal as stored (its
   * secrets redacted), whatever this machine did to its anchors (rebased,
   * re-anchored).
   */
  unchanged: number;
  /** Ids already here whose local copy is as new or newer, kept. */
  kept: number;
  /** Anchors and note paths written onto a root of this machine with the same folder name. */
  rebased: number;
  /** Memories and notes written with secrets in their free text replaced by `[REDACTED:<kind>]`. */
  redacted: number;
  /** Notes added (a note here with the same time, title and body is not added twice). */
  notesAdded: number;
  /** Notes already here. */
  notesUnchanged: number;
  /**
   * Parts of the file (one per header: exports joined end to end) written
   * by a Heimdall before export format version 3, with no end record: whether
   * they are complete could not be checked.
   */
  unchecked: number;
}

/** How far past this machine's clock a recording time may lie (another machine's skew). */
const CLOCK_SKEW_MS = 24 * 3600 * 1000;
/** Columns that say when something happened here, so never after now. */
const RECORDED_TIMES = new Set([
  "recorded_at",
  "superseded_at",
  "forgotten_at",
  "last_seen_at",
  "resolved_at",
  "updated_at",
  "state_at",
  "created_ms",
]);
/** Fields up to {@link MAX_TEXT} characters; any other string is up to {@link MAX_FIELD}. */
const LONG_FIELDS = new Set(["text", "fix", "tests", "body"]);
/**
 * Fields whose secrets are redacted before they are stored (a memory's
 * free text and tests, a note's title, body and keywords): their limit
 * applies to what is stored, checked by {@link checkStored}, since a
 * `[REDACTED:<kind>]` mark may be longer than what it replaces.
 */
const REDACTED_FIELDS = new Set([...FREE_TEXT_COLUMNS, "tests", "title", "body", "keywords"]);
/** Fields with a closed set of values (the journal's CHECK constraints), memory's and anchors'. */
const CHOICES: Record<string, readonly string[]> = {
  outcome: ["failed", "passed"],
  status: ["open", "resolved"],
  target: ["symbol", "file", "folder"],
  state: ["active", "moved", "orphaned"],
};

/**
 * A field's JSON type; an "integer" is a number the journal's STRICT
 * INTEGER columns take: a whole number within the safe range.
 */
type Field = "string" | "number" | "integer" | "string?" | "number?" | "integer?";

const MEMORY_FIELDS: Record<keyof MemoryRow, Field> = {
  id: "string",
  kind: "string",
  text: "string",
  author: "string",
  scope: "string",
  valid_from: "number",
  valid_to: "number?",
  recorded_at: "number",
  superseded_at: "number?",
  superseded_by: "string?",
  forgotten_at: "number?",
  forgotten_by: "string?",
  task_id: "string?",
  outcome: "string?",
  status: "string?",
  count: "integer",
  last_seen_at: "number",
  tests: "string",
  fix: "string?",
  resolved_by: "string?",
  resolved_at: "number?",
  updated_at: "number",
};

const ANCHOR_FIELDS: Record<keyof AnchorRow, Field> = {
  ord: "integer",
  target: "string",
  original: "string",
  path: "string",
  root: "string?",
  symbol: "string?",
  symbol_kind: "string?",
  name: "string",
  node_id: "string?",
  struct_hash: "string?",
  shape: "string?",
  start_line: "integer?",
  end_line: "integer?",
  state: "string",
  moved_from: "string?",
  state_at: "number",
  checked: "string?",
};

function checkFields(
  value: Record<string, unknown>,
  fields: Record<string, Field>,
  where: string,
  now: number,
): void {
  for (const [name, type] of Object.entries(fields)) {
    const v = value[name];
    const optional = type.endsWith("?");
    if ((v === null || v === undefined) && optional) continue;
    const base = type.replace("?", "");
    const fits = base === "integer"
      ? Number.isSafeInteger(v)
      : typeof v === base && (base !== "number" || Number.isFinite(v));
    if (!fits) {
      throw new MemoryInputError(
        `${where}: field "${name}" is ${shown(v)}, expected ${
          base === "integer" ? "a whole number" : `a ${base}`
        }${optional ? " or null" : ""}; was the file written by \`heimdall export\`?`,
      );
    }
    if (typeof v === "string" && v.includes("\0")) {
      throw new MemoryInputError(
        `${where}: field "${name}" holds a NUL character (\\u0000) at character ${
          v.indexOf("\0") + 1
        }, which the journal cannot keep (it reads text only up to it, losing the rest); remove it from that record in the file`,
      );
    }
    if (typeof v === "string" && !REDACTED_FIELDS.has(name)) {
      checkLength(name, v, where, false);
      checkNoSecret(name, v, where);
    }
    if (typeof v === "number" && isTimeField(name)) checkTime(name, v, where, now);
    const choices = CHOICES[name];
    if (choices && typeof v === "string" && !choices.includes(v)) {
      throw new MemoryInputError(
        `${where}: field "${name}" is ${shown(v)}, expected one of ${choices.join(", ")}`,
      );
    }
  }
}

/**
 * A field that is not free text (an id, a path, a symbol, a link to another
 * memory) holding a secret is refused, not redacted: its value is what
 * links records and places, and an export never writes a secret there.
 */
function checkNoSecret(name: string, v: string, where: string): void {
  const found = sniffSecret(v);
  if (found === undefined) return;
  throw new MemoryInputError(
    `${where}: field "${name}" holds a secret (${
      found.replace(/^content: /, "")
    }), which an export never writes there; remove it from that record in the file`,
  );
}

/**
 * A string an import accepts, or a {@link MemoryInputError} naming the
 * record, field, length (`redacted`: as stored, once its secrets are
 * redacted) and limit.
 */
function checkLength(name: string, v: string, where: string, redacted: boolean): void {
  const max = LONG_FIELDS.has(name) ? MAX_TEXT : MAX_FIELD;
  if (v.length <= max) return;
  throw new MemoryInputError(
    `${where}: field "${name}" is ${v.length} characters long${
      redacted ? " once its secrets are redacted" : ""
    }, at most ${max} are accepted; shorten it in the file`,
  );
}

/**
 * Checks the length of each of {@link REDACTED_FIELDS} in `stored` (the
 * record as it would be written, its secrets redacted) against its limit;
 * `original` is the record as read, to say when redaction made it longer.
 */
function checkStored(
  stored: Record<string, unknown>,
  original: Record<string, unknown>,
  where: string,
): void {
  for (const name of REDACTED_FIELDS) {
    const v = stored[name];
    if (typeof v === "string") checkLength(name, v, where, v !== original[name]);
  }
}

function isTimeField(name: string): boolean {
  return name.endsWith("_at") || name === "valid_from" || name === "valid_to" ||
    name === "created_ms";
}

/** A time an import accepts, or a {@link MemoryInputError} naming the record, field and value. */
function checkTime(name: string, v: number, where: string, now: number): void {
  const latest = RECORDED_TIMES.has(name)
    ? Math.min(TIME_RANGE[1], now + CLOCK_SKEW_MS)
    : TIME_RANGE[1];
  if (Number.isInteger(v) && v >= TIME_RANGE[0] && v < latest) return;
  const when = Number.isInteger(v) && Math.abs(v) <= 8.64e15
    ? ` (${new Date(v).toISOString()}, year ${new Date(v).getUTCFullYear()})`
    : "";
  throw new MemoryInputError(
    `${where}: field "${name}" is ${v}${when}, expected whole milliseconds since 1970 ${
      RECORDED_TIMES.has(name) ? "no later than now" : "before the year 2100"
    }; fix or drop that record in the file`,
  );
}

function shown(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/**
 * Parses and checks one memory line (pure but for `now`); `where` names the
 * file and line in errors. Refuses, naming the field and value: a missing or
 * mistyped field, an unknown kind or scope, a time outside 1970–2099 or a
 * recording time later than `now` (+1 day of clock skew), `valid_to` not
 * after `valid_from`, an empty id (or one with spaces), a count below 1,
 * text, fix or tests over {@link MAX_TEXT} characters and another string
 * over {@link MAX_FIELD} (free text as it would be stored: once its secrets
 * are redacted), more than 256 anchors, tests that are not a JSON list
 * of strings, and an outcome or status on anything but an attempt (a failed
 * one has a status, open or resolved, with a time once resolved; a passed one none).
 */
export function parseMemoryLine(line: string, where: string, now = Date.now()): Memory {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    throw new MemoryInputError(`${where}: not JSON (${(e as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new MemoryInputError(`${where}: expected one memory object per line`);
  }
  const v = value as Record<string, unknown>;
  checkFields(v, MEMORY_FIELDS, where, now);
  if ((v.id as string).trim() === "" || /\s/.test(v.id as string)) {
    throw new MemoryInputError(
      `${where}: field "id" is ${
        shown(v.id)
      }, expected an id such as "m0123456789"; fix or drop that record in the file`,
    );
  }
  if (!Number.isInteger(v.count) || (v.count as number) < 1) {
    throw new MemoryInputError(
      `${where}: field "count" is ${shown(v.count)}, expected a whole number of times, at least 1`,
    );
  }
  if (typeof v.valid_to === "number" && v.valid_to <= (v.valid_from as number)) {
    throw new MemoryInputError(
      `${where}: field "valid_to" (${v.valid_to}) is not after "valid_from" (${v.valid_from}); fix or drop that record in the file`,
    );
  }
  let tests: unknown;
  try {
    tests = JSON.parse(v.tests as string);
  } catch { /* reported below */ }
  if (!Array.isArray(tests) || tests.some((t) => typeof t !== "string")) {
    throw new MemoryInputError(
      `${where}: field "tests" is ${
        shown(v.tests)
      }, expected a JSON list of test names such as "[]"`,
    );
  }
  if (!(KINDS as readonly string[]).includes(v.kind as string)) {
    throw new MemoryInputError(`${where}: unknown kind "${v.kind}"`);
  }
  if (!(SCOPES as readonly string[]).includes(v.scope as string)) {
    throw new MemoryInputError(`${where}: unknown scope "${v.scope}"`);
  }
  // What `heimdall attempt` writes, and only it: read otherwise, a note marked "open"
  // would be warned of as a failure, an attempt with no outcome shown as neither.
  const outcome = v.outcome ?? null, status = v.status ?? null;
  const fits = v.kind !== "attempt"
    ? outcome === null && status === null
    : outcome === "failed"
    ? status !== null
    : outcome === "passed" && status === null;
  if (!fits) {
    throw new MemoryInputError(
      `${where}: ${v.kind === "attempt" ? "an" : "a"} ${v.kind} with outcome ${
        shown(outcome)
      } and status ${
        shown(status)
      }, expected an attempt to be failed (status open or resolved) or passed (no status), and anything else to have neither; fix or drop that record in the file`,
    );
  }
  if ((status === "resolved") !== ((v.resolved_at ?? null) !== null)) {
    throw new MemoryInputError(
      `${where}: field "resolved_at" is ${shown(v.resolved_at ?? null)} with status ${
        shown(status)
      }, expected a time on a resolved failure only; fix or drop that record in the file`,
    );
  }
  if (!Array.isArray(v.anchors)) throw new MemoryInputError(`${where}: "anchors" is not a list`);
  if (v.anchors.length > MAX_ANCHORS) {
    throw new MemoryInputError(
      `${where}: ${v.anchors.length} anchors, at most ${MAX_ANCHORS} are accepted; split the memory`,
    );
  }
  const anchors: AnchorRow[] = v.anchors.map((a: unknown, i: number) => {
    if (typeof a !== "object" || a === null) {
      throw new MemoryInputError(`${where}: anchor ${i} is not an object`);
    }
    checkFields(a as Record<string, unknown>, ANCHOR_FIELDS, `${where}, anchor ${i}`, now);
    return pick(a as Record<string, unknown>, ANCHOR_COLUMNS) as unknown as AnchorRow;
  });
  // An anchor is stored under (memory, ord): two with one ord cannot both be kept.
  const ords = new Set<number>();
  anchors.forEach((a, i) => {
    if (ords.has(a.ord)) {
      throw new MemoryInputError(
        `${where}, anchor ${i}: field "ord" is ${a.ord}, which an earlier anchor of that record has; give each anchor its own ord in the file`,
      );
    }
    ords.add(a.ord);
  });
  const row = pick(v, MEMORY_COLUMNS) as unknown as MemoryRow;
  checkStored({ ...redactRow(row) }, { ...row }, where);
  return { ...row, anchors };
}

function pick(v: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = v[k] ?? null;
  return out;
}

/**
 * Reads an export (all of `text`) into the journal in one transaction: new
 * ids are added; an id already here is replaced only when the imported copy
 * is newer (`updated_at`), keeping the marks made here that it lacks
 * (forgotten, superseded, resolved), else kept, with the marks only the
 * imported copy has added to it (counted as updated); a forget or
 * resolution the failure outlived (seen again after it, in either copy) is
 * not carried over (see {@link withMarksOf}). An anchor whose path lies under no root
 * here, but whose old root has the same folder name as a root here, is moved
 * onto that root (same relative path), then anchors are re-checked against
 * the index here. Secrets in free text (text, author, task, who forgot it,
 * fix), tests and notes are redacted as they are written (counted in
 * `redacted`). A leading byte-order mark is skipped, and
 * so is the header repeated further on (exports joined end to end). Throws
 * {@link MemoryInputError} naming the line for a file that is not an export
 * or a record that fails {@link parseMemoryLine}'s checks; nothing is
 * written then.
 */
export function importMemories(j: Journal, text: string, file = "input"): ImportReport {
  const now = Date.now();
  // A byte-order mark (an editor's, PowerShell's) is not part of the header.
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  const memories: Memory[] = [];
  const notes: NoteRecord[] = [];
  // The export being read (one per header: exports may be joined end to end).
  let part: Part | undefined;
  let unchecked = 0;
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `${file}:${i + 1}`;
    if (part === undefined) {
      part = openPart(line, where, i + 1);
      return;
    }
    // Exports joined end to end (`cat a.jsonl b.jsonl`) repeat the header: read on.
    if (isHeaderLine(line)) {
      checkEnded(part, file, i);
      if (part.end === undefined) unchecked++;
      part = openPart(line, where, i + 1);
      return;
    }
    if (part.end !== undefined) {
      throw new MemoryInputError(
        `${where}: a record after the end record of line ${part.end}, which closes the export; the file was changed since \`heimdall export\` wrote it: export it again`,
      );
    }
    // `heimdall export` ends every line, the last too: one without its end that is not
    // JSON is a record cut in the middle.
    if (i === lines.length - 1 && !isJson(line)) {
      throw new MemoryInputError(
        `${where}: the last line stops in the middle of a record (it is not JSON, and has no line end): the file was cut short (a partial copy or download); nothing was imported: export it again, or copy the whole file`,
      );
    }
    if (isEndLine(line)) {
      checkCounts(line, part, where);
      part.end = i + 1;
    } else if (isNoteLine(line)) {
      notes.push(parseNoteLine(line, where, now));
      part.notes++;
    } else {
      memories.push(parseMemoryLine(line, where, now));
      part.memories++;
    }
  });
  if (part === undefined) {
    throw new MemoryInputError(`${file}: empty; write one with \`heimdall export\``);
  }
  checkEnded(part, file, lines.length);
  if (part.end === undefined) unchecked++;
  const roots = listRoots(j);
  const report: ImportReport = {
    added: 0,
    updated: 0,
    unchanged: 0,
    kept: 0,
    rebased: 0,
    redacted: 0,
    notesAdded: 0,
    notesUnchanged: 0,
    unchecked,
  };
  j.tx(() => {
    const touched: string[] = [];
    for (const m of memories) {
      const { anchors, ...row } = m;
      const rebased = anchors.map((a) => rebaseAnchor(a, roots));
      const moved = rebased.filter((a, i) => a !== anchors[i]).length;
      const local = getMemoryRow(j, row.id);
      const stored = redactRow(row);
      const redacted = stored !== row;
      if (!local) {
        if (redacted) report.redacted++;
        insertMemory(j, row);
        insertAnchors(j, row.id, rebased);
        report.added++;
        report.rebased += moved;
        touched.push(row.id);
      } else if (sameRow(local, stored)) {
        // The same version as here: its anchors here are where this machine's
        // roots and index put them (rebased, re-anchored), not the file's.
        report.unchanged++;
      } else if (row.updated_at > local.updated_at) {
        replaceMemory(j, withMarksOf(row, local));
        replaceAnchors(j, row.id, rebased);
        report.updated++;
        report.rebased += moved;
        if (redacted) report.redacted++;
        touched.push(row.id);
      } else {
        // The copy here is as new or newer, but marks are never taken back: one made
        // only on the other machine (forgotten there) joins the copy here.
        const marked = withMarksOf(local, stored);
        if (sameRow(marked, local)) report.kept++;
        else {
          replaceMemory(j, marked);
          report.updated++;
          touched.push(row.id);
        }
      }
    }
    syncSearch(j, touched);
    for (const note of notes) {
      const paths = note.paths.map((p) => ({ ...p, path: rebasePath(p.path, roots) }));
      const r = importNote(j, { ...note, paths });
      if (r.added) {
        report.notesAdded++;
        report.rebased += paths.filter((p, i) => p.path !== note.paths[i]!.path).length;
      } else report.notesUnchanged++;
      if (r.redacted) report.redacted++;
    }
  });
  // Rebased anchors find their nodes here; others wait until their code is indexed.
  reanchorMemories(j);
  return report;
}

/** One export within the file being imported: its header's version and line, what it held. */
interface Part {
  version: number;
  /** The line of its header. */
  header: number;
  memories: number;
  notes: number;
  /** The line of its end record, once read. */
  end?: number;
}

/** The export a header line opens, or a {@link MemoryInputError} saying the file is none. */
function openPart(line: string, where: string, at: number): Part {
  let h: unknown;
  try {
    h = JSON.parse(line);
  } catch {
    h = undefined;
  }
  const hv = h as { type?: unknown; version?: unknown } | undefined;
  if (hv?.type !== EXPORT_HEADER.type) {
    throw new MemoryInputError(
      `${where}: not a Heimdall memory export (the first line must be ${
        JSON.stringify(EXPORT_HEADER)
      }); write one with \`heimdall export\``,
    );
  }
  if (!READABLE_VERSIONS.includes(hv.version)) {
    throw new MemoryInputError(
      `${where}: export format version ${hv.version}, this build reads ${
        READABLE_VERSIONS.join(", ")
      }; upgrade heimdall`,
    );
  }
  return { version: hv.version as number, header: at, memories: 0, notes: 0 };
}

/**
 * Refuses an export of version 3 on that ends (before line `next`, the
 * next header's or past the last) without its end record: it was cut short.
 */
function checkEnded(part: Part, file: string, next: number): void {
  if (part.version < 3 || part.end !== undefined) return;
  throw new MemoryInputError(
    `${file}: the export that starts at line ${part.header} stops at line ${next} without the end record \`heimdall export\` writes last (after ${
      plural(part.memories, "memory", "memories")
    } and ${
      plural(part.notes, "note")
    }): the file was cut short (a partial copy or download), and what followed is missing; nothing was imported: export it again, or copy the whole file`,
  );
}

/** Refuses an end record whose counts are not what its export held: lines were lost or added. */
function checkCounts(line: string, part: Part, where: string): void {
  const v = JSON.parse(line) as { memories?: unknown; notes?: unknown };
  if (v.memories === part.memories && v.notes === part.notes) return;
  throw new MemoryInputError(
    `${where}: the end record counts ${shown(v.memories)} memories and ${
      shown(v.notes)
    } notes, but the export before it (from line ${part.header}) holds ${
      plural(part.memories, "memory", "memories")
    } and ${
      plural(part.notes, "note")
    }: lines were lost or added since \`heimdall export\` wrote it; nothing was imported: export it again`,
  );
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function isEndLine(line: string): boolean {
  if (!line.includes(END_TYPE)) return false;
  try {
    return (JSON.parse(line) as { type?: unknown } | null)?.type === END_TYPE;
  } catch {
    return false;
  }
}

function isHeaderLine(line: string): boolean {
  if (!line.includes(EXPORT_HEADER.type) || line.length > 100) return false;
  try {
    const v = JSON.parse(line) as { type?: unknown; version?: unknown } | null;
    return v?.type === EXPORT_HEADER.type && READABLE_VERSIONS.includes(v.version);
  } catch {
    return false;
  }
}

/**
 * `incoming` (a newer copy of `local`) with the marks only `local` has kept:
 * forgotten, superseded, resolved. Marks are made once and never taken back,
 * so a copy exported before one was made here must not erase it (pure).
 */
export function keepMarks(local: MemoryRow, incoming: MemoryRow): MemoryRow {
  const row = { ...incoming };
  if (row.forgotten_at === null && local.forgotten_at !== null) {
    row.forgotten_at = local.forgotten_at;
    row.forgotten_by = local.forgotten_by;
  }
  if (row.superseded_at === null && local.superseded_at !== null) {
    row.superseded_at = local.superseded_at;
    row.superseded_by = local.superseded_by;
  }
  if (row.status === "open" && local.status === "resolved") {
    row.status = local.status;
    row.resolved_at = local.resolved_at;
    row.resolved_by = local.resolved_by;
  }
  return row;
}

/**
 * `base` (one copy of a memory) with the marks only `other` (another copy)
 * has, as {@link keepMarks} adds them, but for a forget or a resolution
 * that the failure outlived: seen again, in either copy, after it was made
 * (its `last_seen_at` is later). A failure that came back after its fix is
 * news on every machine, as it is when a team store's copy is pulled (pure).
 */
export function withMarksOf(base: MemoryRow, other: MemoryRow): MemoryRow {
  const row = keepMarks(other, base);
  const seen = Math.max(base.last_seen_at, other.last_seen_at);
  if (base.forgotten_at === null && other.forgotten_at !== null && seen > other.forgotten_at) {
    row.forgotten_at = null;
    row.forgotten_by = null;
  }
  if (base.status === "open" && other.resolved_at !== null && seen > other.resolved_at) {
    row.status = "open";
    row.resolved_at = null;
    row.resolved_by = null;
  }
  return row;
}

/** Whether two rows of one memory hold the same values in every column. */
function sameRow(a: MemoryRow, b: MemoryRow): boolean {
  return MEMORY_COLUMNS.every((c) => a[c] === b[c]);
}

const NOTE_FIELDS: Record<Exclude<keyof NoteRecord, "paths">, Field> = {
  title: "string",
  body: "string",
  keywords: "string",
  created_ms: "number",
};
const NOTE_PATH_FIELDS: Record<string, Field> = {
  path: "string",
  hash: "string?",
  size: "integer?",
};

function isNoteLine(line: string): boolean {
  if (!line.includes(`"${NOTE_TYPE}"`)) return false;
  try {
    return (JSON.parse(line) as { type?: unknown } | null)?.type === NOTE_TYPE;
  } catch {
    return false;
  }
}

/**
 * Parses and checks one note line (pure but for `now`), refusing, with the
 * field and value named: a missing or mistyped field, a body over
 * {@link MAX_TEXT} characters or another string over {@link MAX_FIELD}
 * (title, body and keywords as they would be stored: once their secrets are
 * redacted), a time outside 1970 to now (+1 day of clock skew), more than
 * 256 paths, a relative path.
 */
export function parseNoteLine(line: string, where: string, now = Date.now()): NoteRecord {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(line);
  } catch (e) {
    throw new MemoryInputError(`${where}: not JSON (${(e as Error).message})`);
  }
  checkFields(v, NOTE_FIELDS, where, now);
  checkStored(
    {
      title: redactSecrets(v.title as string),
      body: redactSecrets(v.body as string),
      keywords: redactSecrets(v.keywords as string),
    },
    v,
    where,
  );
  if (!Array.isArray(v.paths)) throw new MemoryInputError(`${where}: "paths" is not a list`);
  if (v.paths.length > MAX_ANCHORS) {
    throw new MemoryInputError(
      `${where}: ${v.paths.length} paths, at most ${MAX_ANCHORS} are accepted; split the note`,
    );
  }
  const paths = v.paths.map((p: unknown, i: number) => {
    if (typeof p !== "object" || p === null) {
      throw new MemoryInputError(`${where}: path ${i} is not an object`);
    }
    const o = p as Record<string, unknown>;
    checkFields(o, NOTE_PATH_FIELDS, `${where}, path ${i}`, now);
    if (!isAbsolute(o.path as string)) {
      throw new MemoryInputError(
        `${where}, path ${i}: field "path" is ${
          shown(o.path)
        }, expected an absolute path; was the file written by \`heimdall export\`?`,
      );
    }
    return {
      path: o.path as string,
      hash: (o.hash ?? null) as string | null,
      size: (o.size ?? null) as number | null,
    };
  });
  return {
    title: v.title as string,
    body: v.body as string,
    keywords: v.keywords as string,
    created_ms: v.created_ms as number,
    paths,
  };
}

/**
 * A note's path from another machine, moved onto the one root here whose
 * folder name is one of its folders (`/home/a/proj/src/x.ts` onto
 * `/Users/b/code/proj`), as anchors are; as it is when it lies under a root
 * here or no single root matches.
 */
function rebasePath(path: string, roots: readonly { path: string }[]): string {
  if (rootFor(roots, path)) return path;
  const parts = path.split("/");
  const spots = roots.flatMap((r) =>
    parts.flatMap((
      part,
      i,
    ) => (i < parts.length - 1 && part === basename(r.path) ? [{ r, i }] : []))
  );
  if (spots.length !== 1) return path;
  const { r, i } = spots[0]!;
  return join(r.path, ...parts.slice(i + 1));
}
