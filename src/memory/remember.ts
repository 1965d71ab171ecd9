/**
 * Writing decisions, conventions, notes and facts: supersede, never
 * overwrite; forget by marking. Plain SQLite transactions from any process
 * (the journal's busy timeout waits out the writer); never the writer lock.
 */
import { clipped } from "../errors/mod.ts";
import { redactSecrets, sniffSecret } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import { anchorFor, anchorKey, anchorSetKey, resolveAbout } from "./anchors.ts";
import { reanchorIfStale } from "./reanchor.ts";
import {
  ANCHOR_COLUMNS,
  anchorsOf,
  findMemoryIds,
  freshMemoryId,
  getMemoryRow,
  insertAnchors,
  insertMemory,
  loadMemories,
  MIN_PREFIX,
} from "./records.ts";
import { syncSearch } from "./searchable.ts";
import {
  type AnchorRow,
  KINDS,
  MAX_ANCHORS,
  MAX_FIELD,
  MAX_TEXT,
  type Memory,
  MemoryInputError,
  type MemoryKind,
  type MemoryRow,
  type Scope,
  SCOPES,
} from "./types.ts";

/** Kinds where a newer memory on the same anchors replaces the current one. */
const SUPERSEDING: ReadonlySet<MemoryKind> = new Set(["decision", "convention", "fact", "page"]);

/** What {@link remember} writes. */
export interface RememberInput {
  /** `decision`, `convention`, `note`, `fact`… (see {@link KINDS}). */
  kind: string;
  /** What it says. */
  text: string;
  /** What it is about: symbols (`path:name`, `Class.method`, `name`), files or folders. */
  about: readonly string[];
  /** Who records it. */
  author: string;
  /** `private`, `project` (the default) or `team`. */
  scope?: string;
  /** Valid time; defaults to now and to "still true". */
  validFrom?: number;
  /** When it stops being true; null or absent: still true. */
  validTo?: number | null;
  /** The task it belongs to. */
  taskId?: string | null;
  /** Ids (or unique prefixes) this one replaces, whatever their anchors. */
  supersedes?: readonly string[];
  /** Add alongside the current memory on the same anchors instead of superseding it. */
  keep?: boolean;
  /** Folder that relative paths in `about` are relative to. */
  cwd?: string;
  /** The time to record it at (ms since the epoch; default: now). */
  now?: number;
}

/** What {@link remember} did. */
export interface RememberResult {
  /** The memory as stored. */
  memory: Memory;
  /** Ids of the memories it superseded. */
  superseded: string[];
}

/** Checks a kind name; throws {@link MemoryInputError} naming the value and the choices. */
export function parseKind(kind: string): MemoryKind {
  if ((KINDS as readonly string[]).includes(kind)) return kind as MemoryKind;
  throw new MemoryInputError(`Unknown kind "${kind}": expected one of ${KINDS.join(", ")}`);
}

/** Checks a scope name; throws {@link MemoryInputError} naming the value and the choices. */
export function parseScope(scope: string): Scope {
  if ((SCOPES as readonly string[]).includes(scope)) return scope as Scope;
  throw new MemoryInputError(`Unknown scope "${scope}": expected one of ${SCOPES.join(", ")}`);
}

/**
 * Resolves every `about` to an anchor (duplicates dropped); throws on an
 * unknown or ambiguous one, and {@link MemoryInputError} for one over
 * {@link MAX_FIELD} characters, past {@link MAX_ANCHORS} anchors, or whose
 * anchor would hold a secret (an import would refuse its export).
 */
export function resolveAnchors(
  j: Journal,
  about: readonly string[],
  cwd: string,
  now: number,
): AnchorRow[] {
  if (about.length === 0) {
    throw new MemoryInputError(
      "Nothing to attach it to: pass --about SYMBOL|PATH (a folder such as . covers a whole repository)",
    );
  }
  const seen = new Set<string>();
  const out: AnchorRow[] = [];
  for (const text of about) {
    // Resolved, an empty one would be the current folder: a memory on code nobody named.
    if (text.trim() === "") {
      throw new MemoryInputError(
        `Empty --about ${
          JSON.stringify(text)
        }: it names no symbol or path (an unset shell variable?); write . for the current folder`,
      );
    }
    // Kept as typed (`original`): held to what an import of its export accepts.
    if (text.length > MAX_FIELD) {
      throw new MemoryInputError(
        `--about too long: ${text.length} characters, at most ${MAX_FIELD} are kept; name the path from a nearer folder, or the symbol by its name`,
      );
    }
    const anchor = anchorFor(resolveAbout(j, text, cwd), out.length, text, now);
    refuseSecret(anchor);
    const key = anchorKey(anchor);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(anchor);
  }
  if (out.length > MAX_ANCHORS) {
    throw new MemoryInputError(
      `Too many anchors: ${out.length} different --about, at most ${MAX_ANCHORS} are kept; attach it to the folder that holds them, or split it`,
    );
  }
  return out;
}

/**
 * Throws {@link MemoryInputError} when a field of `anchor` (what was typed,
 * the path, the symbol) holds what looks like a secret: an anchor keeps
 * them as they are, not redacted, as they are what places the memory, and
 * an import refuses a secret there, so the export holding it would not
 * import. The message names the kind, never the value.
 */
function refuseSecret(anchor: AnchorRow): void {
  for (const c of ANCHOR_COLUMNS) {
    const v = anchor[c];
    const found = typeof v === "string" ? sniffSecret(v) : undefined;
    if (found === undefined) continue;
    throw new MemoryInputError(
      `--about "${clipped(redactSecrets(anchor.original))}": ${
        c === "original" ? "it" : `its ${c}`
      } holds what looks like a secret (${
        found.replace(/^content: /, "")
      }), which an anchor would keep as written (an import of the export would refuse it); attach it to the folder above, or rename the ${anchor.target}`,
    );
  }
}

/**
 * Throws {@link MemoryInputError} when `value` holds a NUL character:
 * SQLite keeps it, but reads the text back only up to it, so what follows
 * would be lost (from answers, search and every export).
 */
export function refuseNul(value: string, what: string): void {
  const at = value.indexOf("\0");
  if (at < 0) return;
  throw new MemoryInputError(
    `${what} holds a NUL character (\\u0000) at character ${
      at + 1
    }, which the journal cannot keep (it reads text only up to it, losing the rest); remove it (tr -d '\\000' strips it from a file)`,
  );
}

/**
 * Text as stored: trimmed, secrets redacted; `what` names it in errors
 * (`Text`, `--fix`). Throws {@link MemoryInputError} when it is empty,
 * holds a NUL character ({@link refuseNul}), or is longer than
 * {@link MAX_TEXT} characters (an import would refuse its export).
 */
export function cleanText(text: string, what = "Text"): string {
  const t = text.trim();
  if (t === "") throw new MemoryInputError("Empty text: say what was decided, tried or noticed");
  return cleanField(
    t,
    what,
    "say it in a paragraph and put the details in a file it is about (--about PATH)",
    MAX_TEXT,
  );
}

/**
 * Who records or forgets a memory, as stored: trimmed (as HEIMDALL_AUTHOR
 * and git user.name are: " zed " is zed), secrets redacted. Throws
 * {@link MemoryInputError} when it is blank, or longer than
 * {@link MAX_FIELD} characters once redacted (an import would refuse its
 * export).
 */
export function cleanAuthor(author: string): string {
  if (author.trim() === "") {
    throw new MemoryInputError(
      'Empty author "": give a name with --author NAME, or set HEIMDALL_AUTHOR',
    );
  }
  return cleanField(
    author.trim(),
    "Author",
    "give a shorter name with --author or HEIMDALL_AUTHOR",
  );
}

/**
 * The task a memory belongs to, as stored: secrets redacted. Throws
 * {@link MemoryInputError} when it is blank, or longer than
 * {@link MAX_FIELD} characters once redacted.
 */
export function cleanTaskId(taskId: string): string {
  if (taskId.trim() === "") {
    throw new MemoryInputError(
      'Empty task id "": give the task\'s id with --task ID, or leave it out',
    );
  }
  return cleanField(taskId, "Task id", "give the task's id, not its description");
}

/**
 * `value` with secrets redacted. Throws {@link MemoryInputError} naming
 * `what` when it holds a NUL character, or is longer than `max` characters
 * once redacted (then `remedy` says what to do).
 */
function cleanField(value: string, what: string, remedy: string, max = MAX_FIELD): string {
  refuseNul(value, what);
  const clean = redactSecrets(value);
  if (clean.length > max) {
    throw new MemoryInputError(
      `${what} too long: ${clean.length} characters${
        clean === value ? "" : " once secrets are redacted"
      }, at most ${max} are kept; ${remedy}`,
    );
  }
  return clean;
}

/**
 * The memory `idOrPrefix` names, or a {@link MemoryInputError} saying why not
 * (none, several, or a prefix shorter than {@link MIN_PREFIX} characters).
 * With `viewer`, another author's private memories are as if absent: neither
 * found, nor named among the ambiguous.
 */
export function memoryById(j: Journal, idOrPrefix: string, viewer?: string): MemoryRow {
  let ids = findMemoryIds(j, idOrPrefix);
  if (viewer !== undefined) {
    ids = ids.filter((id) => visibleTo(getMemoryRow(j, id)!, viewer));
  }
  if (ids.length === 1) return getMemoryRow(j, ids[0]!)!;
  if (ids.length === 0 && idOrPrefix.length < MIN_PREFIX) {
    throw new MemoryInputError(
      `"${
        clipped(idOrPrefix)
      }" is too short to name a memory: give its whole id or its first ${MIN_PREFIX} characters or more (\`heimdall history\` lists them)`,
    );
  }
  throw new MemoryInputError(
    ids.length === 0
      ? `No memory "${clipped(idOrPrefix)}": \`heimdall history\` lists memories with their ids`
      : `"${clipped(idOrPrefix)}" is ambiguous: ${ids.join(", ")}; give more of the id`,
  );
}

/**
 * Memories visible to `viewer`: everything but other authors' private ones.
 * A viewer is compared as stored ({@link cleanAuthor}): a name with a
 * secret in it still sees what it wrote.
 */
export function visibleTo(m: Pick<MemoryRow, "scope" | "author">, viewer: string): boolean {
  return m.scope !== "private" || m.author === viewer || m.author === redactSecrets(viewer);
}

/**
 * Current memories (neither superseded nor forgotten) whose anchor set is
 * exactly `anchors`'s, that pass `keep` and are visible to `viewer`, newest
 * first. Looks up candidates by the first anchor (indexed), then compares
 * whole sets.
 */
export function currentOnSameAnchors(
  j: Journal,
  anchors: readonly AnchorRow[],
  keep: (m: MemoryRow) => boolean,
  viewer: string,
): MemoryRow[] {
  const first = anchors[0];
  if (!first) return [];
  const key = anchorSetKey(anchors);
  const byNode = first.target === "symbol" && first.node_id !== null;
  const rows = j.all<MemoryRow>(
    `SELECT DISTINCT m.* FROM memory_anchors a JOIN memories m ON m.id = a.memory_id
     WHERE ${byNode ? "a.node_id = ?" : "a.path = ? AND a.target = ?"}
       AND m.superseded_at IS NULL AND m.forgotten_at IS NULL
     ORDER BY m.recorded_at DESC, m.id`,
    ...(byNode ? [first.node_id!] : [first.path, first.target]),
  );
  return rows.filter((m) =>
    keep(m) && visibleTo(m, viewer) && anchorSetKey(anchorsOf(j, m.id)) === key
  );
}

/** A fresh memory row with every column set from `fields` or its default. */
export function newRow(
  fields: Pick<MemoryRow, "id" | "kind" | "text" | "author" | "scope"> & Partial<MemoryRow>,
  now: number,
): MemoryRow {
  return {
    valid_from: now,
    valid_to: null,
    recorded_at: now,
    superseded_at: null,
    superseded_by: null,
    forgotten_at: null,
    forgotten_by: null,
    task_id: null,
    outcome: null,
    status: null,
    count: 1,
    last_seen_at: now,
    tests: "[]",
    fix: null,
    resolved_by: null,
    resolved_at: null,
    updated_at: now,
    ...fields,
  };
}

/** A checked {@link RememberInput}: what a write of it stores, before anything is written. */
export interface PreparedMemory {
  /** What it is. */
  kind: MemoryKind;
  /** Who may see it. */
  scope: Scope;
  /** What it says, trimmed and redacted. */
  text: string;
  /** Who records it, redacted. */
  author: string;
  /** Null: "now", by the clock of whatever stores it. */
  validFrom: number | null;
  /** When it stops being true; null: still true. */
  validTo: number | null;
  /** The task it belongs to, if any, redacted. */
  taskId: string | null;
  /** What it is about, resolved. */
  anchors: AnchorRow[];
  /** The memories named in `supersedes`, each current. */
  explicit: MemoryRow[];
  /**
   * Supersede the current memory of this kind on the same anchors (decisions,
   * conventions, facts), when it is in force at its record time and not kept alongside.
   */
  supersedes: boolean;
  /** When it is recorded (ms since the epoch). */
  now: number;
  /**
   * Whether the caller gave {@link now}; else it is this machine's clock
   * when it was checked, and the write takes the clock again under the lock.
   */
  fixedTime: boolean;
}

/**
 * Checks a {@link RememberInput} and resolves its anchors, writing nothing
 * but the lazy re-anchoring of memories already on that code. Throws
 * {@link MemoryInputError} for bad input (unknown kind or scope, an attempt,
 * empty text, an empty author, an author or task over {@link MAX_FIELD}
 * characters, valid_to before valid_from, an unknown or no longer current id
 * in `supersedes`, a shared one there for a private memory) and
 * SymbolLookupError for an unknown or ambiguous symbol.
 */
export function prepareRemember(j: Journal, input: RememberInput): PreparedMemory {
  const now = input.now ?? Date.now();
  const kind = parseKind(input.kind);
  if (kind === "attempt") {
    throw new MemoryInputError(
      'Attempts have an outcome: use `heimdall attempt --about SYMBOL --failed|--passed "text"`',
    );
  }
  const scope = parseScope(input.scope ?? "project");
  const text = cleanText(input.text);
  const author = cleanAuthor(input.author);
  const taskId = input.taskId == null ? null : cleanTaskId(input.taskId);
  const validTo = input.validTo ?? null;
  const validFrom = input.validFrom ?? null;
  if (validTo !== null && validTo <= (validFrom ?? now)) {
    throw new MemoryInputError(
      `Invalid valid time: --valid-to (${new Date(validTo).toISOString()}) is not after ${
        validFrom === null ? "now" : `--valid-from (${new Date(validFrom).toISOString()})`
      }; give a later --valid-to`,
    );
  }
  // Looked up as the author is stored (trimmed, redacted): their own private ones are found.
  const explicit = (input.supersedes ?? []).map((s) => memoryById(j, s, author));
  for (const old of explicit) {
    if (old.forgotten_at !== null || old.superseded_at !== null) throw notCurrent(old);
    if (scope === "private" && old.scope !== "private") {
      throw new MemoryInputError(
        `Memory ${old.id} is shared (${old.scope}): a private memory cannot supersede it for everyone; record this one with --scope ${old.scope}, or forget ${old.id}`,
      );
    }
  }
  const anchors = resolveAnchors(j, input.about, input.cwd ?? Deno.cwd(), now);
  // Memories already on this code must be where the index says before they are compared.
  for (const path of new Set(anchors.map((a) => a.path))) reanchorIfStale(j, now, path);
  return {
    kind,
    scope,
    text,
    author,
    validFrom,
    validTo,
    taskId,
    anchors,
    explicit,
    // One not in force when recorded (back-filled history, a rule from a later date) would
    // leave nothing current now: it goes alongside; `supersedes` names what it replaces.
    supersedes: SUPERSEDING.has(kind) && !input.keep &&
      inForce(validFrom ?? now, validTo, now),
    now,
    fixedTime: input.now !== undefined,
  };
}

/**
 * When a write that {@link PreparedMemory} `p` describes is recorded, read
 * once the write holds the journal's lock: the time the caller fixed, else
 * this machine's clock now (never before the time it was checked). Taken
 * before the lock, a writer that waited for it would record its memory, and
 * the mark on what it supersedes, before the rows committed while it waited:
 * a memory superseded before it was recorded, and two decisions current at
 * once as of the instants in between.
 */
export function recordTime(p: { now: number; fixedTime: boolean }): number {
  return p.fixedTime ? p.now : Math.max(p.now, Date.now());
}

/**
 * Whether `m` is still valid at or after instant `from` (pure): a memory a
 * new one valid from `from` may replace on its own. One whose valid time
 * ended before (back-filled history: "in 2020 we used X") says nothing the
 * new one contradicts, and stays as it was.
 */
export function validSince(m: Pick<MemoryRow, "valid_to">, from: number): boolean {
  return m.valid_to === null || m.valid_to > from;
}

/** Whether a memory valid from `from` until `to` (null: still) holds at instant `t` (pure). */
function inForce(from: number, to: number | null, t: number): boolean {
  return from <= t && (to === null || to > t);
}

/** The error for superseding a memory that is no longer current. */
export function notCurrent(
  old: Pick<MemoryRow, "id" | "forgotten_at" | "superseded_by">,
): MemoryInputError {
  return new MemoryInputError(
    `Memory ${old.id} is already ${
      old.forgotten_at !== null ? "forgotten" : `superseded by ${old.superseded_by}`
    }: supersede the current one instead`,
  );
}

/**
 * Records a decision, convention, note or fact about the code `about` names.
 * A decision, convention or fact supersedes the current one of the same kind
 * on exactly the same anchors (unless `keep`, or unless its valid time does
 * not hold when it is recorded: back-filled history, or a rule that starts
 * later, goes alongside; one whose valid time ended before this one's
 * begins is history and stays as it was; a private one replaces only its
 * author's private ones), and any named in `supersedes`:
 * the old row stays, marked with when and by what. Secrets in the text,
 * author and task are redacted. With `replaceable`, only the memories it
 * accepts are superseded automatically (a team store's orchestration keeps
 * its shared rows out of a private write). Throws {@link MemoryInputError}
 * for bad input (see {@link prepareRemember}: unknown kind or scope, empty
 * text or author, a field too long, valid_to before valid_from, unknown id) and
 * SymbolLookupError for an unknown or ambiguous symbol; nothing is written then.
 */
export function remember(
  j: Journal,
  input: RememberInput,
  replaceable: (m: MemoryRow) => boolean = () => true,
): RememberResult {
  return writeRemembered(j, prepareRemember(j, input), replaceable);
}

/**
 * Writes a memory {@link prepareRemember} checked, as {@link remember}
 * describes; runs in the caller's transaction when there is one, else in
 * its own. The memories `p` names to supersede are read again under the
 * lock: one another process superseded or forgot since it was checked
 * throws {@link MemoryInputError} ({@link notCurrent}) and nothing is
 * written, so two writers superseding the same memory at once leave one
 * current successor, not two.
 */
export function writeRemembered(
  j: Journal,
  p: PreparedMemory,
  replaceable: (m: MemoryRow) => boolean = () => true,
): RememberResult {
  const id = freshMemoryId(j);
  let row: MemoryRow | undefined;
  const write = () => {
    const now = recordTime(p);
    row = newRow({
      id,
      kind: p.kind,
      text: p.text,
      author: p.author,
      scope: p.scope,
      valid_from: p.validFrom ?? now,
      valid_to: p.validTo,
      task_id: p.taskId,
    }, now);
    const replaced = new Map<string, MemoryRow>();
    for (const checked of p.explicit) {
      const m = getMemoryRow(j, checked.id)!;
      if (m.forgotten_at !== null || m.superseded_at !== null) throw notCurrent(m);
      replaced.set(m.id, m);
    }
    if (p.supersedes) {
      for (
        const m of currentOnSameAnchors(
          j,
          p.anchors,
          // A private memory is its author's aside: it replaces only their own private ones.
          (m) =>
            m.kind === p.kind && replaceable(m) && validSince(m, p.validFrom ?? now) &&
            (p.scope !== "private" || m.scope === "private"),
          p.author,
        )
      ) {
        replaced.set(m.id, m);
      }
    }
    insertMemory(j, row);
    insertAnchors(j, row.id, p.anchors);
    const ids = [...replaced.keys()];
    markSuperseded(j, ids, row.id, now);
    syncSearch(j, [row.id]);
    return ids;
  };
  const superseded = j.db.isTransaction ? write() : j.tx(write);
  return { memory: { ...row!, anchors: p.anchors }, superseded };
}

/**
 * Marks `ids` superseded by `by` at `at` and brings their search entries in
 * line; runs in the caller's transaction when there is one.
 */
export function markSuperseded(j: Journal, ids: readonly string[], by: string, at: number): void {
  if (ids.length === 0) return;
  const run = () => {
    for (const id of ids) {
      j.run(
        "UPDATE memories SET superseded_at = ?, superseded_by = ?, updated_at = ? WHERE id = ?",
        at,
        by,
        at,
        id,
      );
    }
    syncSearch(j, ids);
  };
  if (j.db.isTransaction) run();
  else j.tx(run);
}

/**
 * Marks a memory forgotten (when, by whom): it leaves `why`'s current answer
 * and search, and stays in history; what it superseded stays superseded.
 * Throws {@link MemoryInputError} for an unknown or ambiguous id (another
 * author's private memories are not found), one already forgotten (also by
 * another process since it was read: its forget stands), or an author
 * {@link cleanAuthor} refuses.
 */
export function forget(
  j: Journal,
  idOrPrefix: string,
  options: { author: string; now?: number },
): Memory {
  const by = cleanAuthor(options.author);
  const m = memoryById(j, idOrPrefix, by);
  const already = (f: MemoryRow) =>
    new MemoryInputError(
      `Memory ${f.id} was already forgotten on ${
        new Date(f.forgotten_at!).toISOString()
      } by ${f.forgotten_by}`,
    );
  if (m.forgotten_at !== null) throw already(m);
  // Only if nobody forgot it since it was read: another process's forget is not written over.
  const done = j.tx(() => {
    // Read under the lock (see recordTime): a mark dated before a write that committed
    // first would rewrite the order of what happened.
    const now = options.now ?? Date.now();
    const changed = j.run(
      "UPDATE memories SET forgotten_at = ?, forgotten_by = ?, updated_at = ? WHERE id = ? AND forgotten_at IS NULL",
      now,
      by,
      now,
      m.id,
    );
    if (changed > 0) syncSearch(j, [m.id]);
    return changed > 0;
  });
  if (!done) throw already(getMemoryRow(j, m.id)!);
  return loadMemories(j, [m.id])[0]!;
}
