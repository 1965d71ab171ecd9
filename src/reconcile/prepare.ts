import { EnvironmentError } from "../errors/mod.ts";
import { derivationOf, type DerivationVersions } from "../extract/derivation.ts";
import type { Depth } from "../config/mod.ts";
import {
  describeFile,
  detectLanguage,
  type Extraction,
  type Extractor,
  isBinary,
} from "../extract/mod.ts";
import type { OwnedRows, PathStat } from "../store/mod.ts";
import { contentHash, decodeText } from "../files/mod.ts";
import { desiredRows } from "./desired.ts";
import {
  budgetScale,
  isRacy,
  isTimeBudgetMiss,
  type Observed,
  PARSE_TRIES,
  parseTry,
  planCommit,
  planPath,
  READ_ATTEMPTS,
  sameStat,
  UNREADABLE,
} from "./plan.ts";
import { sniffSecret } from "../files/secrets.ts";

/**
 * What preparing one path decided; the commit step applies it in a transaction.
 *
 * @internal
 */
export type Prepared =
  | { path: string; expected: number | null; do: "nothing"; why: string }
  | { path: string; expected: number | null; do: "retract"; why: string; secret?: boolean }
  | { path: string; expected: number | null; do: "expand"; excluded: boolean }
  | { path: string; expected: number | null; do: "retry"; why: string }
  | {
    path: string;
    expected: number | null;
    do: "touch";
    stat: { size: number; mtime_ms: number; ctime_ms: number; racy: number };
  }
  | { path: string; expected: number | null; do: "replace"; rows: OwnedRows };

/** The facts about one path that its plan depends on, gathered by the caller. */
export interface PrepareInput {
  path: string;
  rel: string;
  rootId: number;
  requested: Depth;
  indexed: PathStat | undefined;
  /** Why the path must not be indexed, when it must not. */
  excluded: string | undefined;
  /** True when `excluded` is a secret (counted, never stored). */
  secret: boolean;
  maxFileBytes: number;
  deep: boolean;
  extractor: Extractor;
  /** What the walk's stat found, so the path is not stat-ed twice. */
  observed?: Observed;
  /**
   * The walk listed this as a regular file and nothing is indexed for it (a
   * first index): open and read it straight away, without an lstat first.
   */
  fresh?: boolean;
  /**
   * How many reads of this path already failed in a row (the queue's count).
   * At `READ_ATTEMPTS` - 1, another failure is terminal: the path gets an
   * `error` row naming why, instead of one more back-off.
   */
  attempts?: number;
  /** The code versions rows are derived by (tests inject others); default this build's. */
  derivations?: DerivationVersions;
}

/**
 * A {@link PrepareInput} without its extractor: what crosses into a Worker.
 *
 * @internal
 */
export type PrepareRequest = Omit<PrepareInput, "extractor">;

/**
 * Reads one path from disk and decides its rows. The only I/O is lstat, read
 * and a second stat; the decision is the pure {@link planPath} and
 * {@link planCommit}. A file that changes while it is read is not committed but
 * retried, so a torn read never reaches the journal.
 */
export async function preparePath(input: PrepareInput): Promise<Prepared> {
  const { path, indexed } = input;
  const expected = indexed?.generation ?? null;
  if (input.fresh && !indexed && input.excluded === undefined) {
    return await readAndPlan(input, undefined, expected);
  }
  const observed = input.observed ?? observe(path);
  const language = indexed?.language ?? detectLanguage(path);
  const wantDepth = Math.min(
    input.requested,
    input.extractor.capability(language).depth,
  ) as Depth;
  const step = planPath(observed, indexed, {
    ...(input.excluded !== undefined ? { excluded: input.excluded } : {}),
    maxFileBytes: input.maxFileBytes,
    wantDepth,
    // A retry (its last read failed or tore) reads again whatever the stat says:
    // a file made unreadable by a chmod keeps its size and mtime.
    deep: input.deep || (input.attempts ?? 0) > 0,
    rootId: input.rootId,
    derivation: derivationOf(language ?? null, input.derivations),
  });
  switch (step.do) {
    case "nothing":
      return { path, expected, do: "nothing", why: step.why };
    case "retract":
      return { path, expected, do: "retract", why: step.why, secret: input.secret };
    case "expand":
      return { path, expected, do: "expand", excluded: input.excluded !== undefined };
    case "too-large": {
      const o = observed as Stat;
      return { path, expected, do: "replace", rows: tooLargeRows(input, o) };
    }
    case "read":
      return await readAndPlan(input, observed as Stat, expected);
  }
}

/** A file's size, mtime and (when it was stat-ed) ctime. */
type Stat = { size: number; mtimeMs: number; ctimeMs?: number };

async function readAndPlan(
  input: PrepareInput,
  before: Stat | undefined,
  expected: number | null,
): Promise<Prepared> {
  const { path, indexed } = input;
  const readAt = Date.now();
  let read: StableRead | { tooLarge: number; mtimeMs: number; ctimeMs: number };
  try {
    read = readStable(path, input.maxFileBytes);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      return indexed
        ? { path, expected, do: "retract", why: "gone from disk" }
        : { path, expected, do: "nothing", why: "absent" };
    }
    if (e instanceof TornReadError) return { path, expected, do: "retry", why: e.message };
    return unreadable(input, before, expected, e);
  }
  if ("tooLarge" in read) {
    return {
      path,
      expected,
      do: "replace",
      rows: tooLargeRows(input, {
        size: read.tooLarge,
        mtimeMs: read.mtimeMs,
        ctimeMs: read.ctimeMs,
      }),
    };
  }
  const { bytes, size, mtimeMs, ctimeMs } = read;
  if (before && (size !== before.size || mtimeMs !== before.mtimeMs)) {
    return { path, expected, do: "retry", why: "changed since it was listed" };
  }
  const binary = isBinary(bytes);
  const text = binary ? "" : decodeText(bytes);
  const info = binary ? { binary: true } : describeFile(path, bytes, text);
  if (!info.binary) {
    const secret = sniffSecret(text);
    if (secret !== undefined) {
      return { path, expected, do: "retract", why: `secret content: ${secret}`, secret: true };
    }
  }
  const capability = input.extractor.capability(info.binary ? undefined : info.language);
  const wantDepth = Math.min(input.requested, capability.depth) as Depth;
  const hash = contentHash(bytes);
  const racy = isRacy(mtimeMs, readAt) ? 1 : 0;
  const commit = planCommit(indexed, {
    hash,
    size,
    mtimeMs,
    ctimeMs,
    racy,
    wantDepth,
    rootId: input.rootId,
    derivation: derivationOf(info.language ?? null, input.derivations),
  });
  if (commit.do === "nothing") return { path, expected, do: "nothing", why: "same content" };
  if (commit.do === "touch") {
    return {
      path,
      expected,
      do: "touch",
      stat: { size, mtime_ms: mtimeMs, ctime_ms: ctimeMs, racy },
    };
  }
  // The same bytes missed the time budget before: this is the next try, with more time.
  const previous = indexed?.hash === hash ? parseTry(indexed.depth_reason) : undefined;
  const tryNumber = previous === undefined ? 1 : Math.min(PARSE_TRIES, previous + 1);
  let extraction: Extraction | undefined;
  if (!info.binary && wantDepth >= 2 && info.language !== undefined) {
    try {
      extraction = await input.extractor.extract({
        path,
        language: info.language,
        text,
        depth: wantDepth,
        ...(tryNumber > 1 ? { budgetScale: budgetScale(tryNumber) } : {}),
      });
    } catch (e) {
      extraction = {
        depth: 1,
        symbols: [],
        refs: [],
        chunks: [],
        error: `extraction failed: ${(e as Error).message}`,
      };
    }
  }
  const rows = desiredRows({
    rootId: input.rootId,
    path,
    rel: input.rel,
    size,
    mtimeMs,
    ctimeMs,
    hash,
    racy,
    info,
    requestedDepth: input.requested,
    ...(input.derivations ? { derivations: input.derivations } : {}),
    capability,
    extraction,
    lineCount: countLines(text),
    text,
    ...(isTimeBudgetMiss(extraction?.error) ? { parseTry: tryNumber } : {}),
  });
  return { path, expected, do: "replace", rows };
}

/**
 * A read that failed (permission denied, an I/O error, a FIFO that never
 * opens): retried with back-off for the first `READ_ATTEMPTS` - 1 failures,
 * then recorded as a terminal `error` row naming the error and the remedy.
 * A path already recorded that way with the same stat costs nothing more.
 */
function unreadable(
  input: PrepareInput,
  before: Stat | undefined,
  expected: number | null,
  e: unknown,
): Prepared {
  const { path, indexed } = input;
  const message = (e as Error).message ?? String(e);
  const stat = before ?? statOf(path);
  if (
    indexed?.state === "error" && (indexed.reason ?? "").startsWith(UNREADABLE) &&
    stat !== undefined && sameStat(stat, indexed)
  ) {
    return { path, expected, do: "nothing", why: "still unreadable" };
  }
  if ((input.attempts ?? 0) + 1 < READ_ATTEMPTS || stat === undefined) {
    return { path, expected, do: "retry", why: `${UNREADABLE}: ${message}` };
  }
  const rows = unreadRows(input, stat, {
    error: `${UNREADABLE}: ${message} (after ${READ_ATTEMPTS} attempts); fix its permissions ` +
      "or remove it; the next audit tries again",
  });
  return { path, expected, do: "replace", rows };
}

/** The size, mtime and ctime lstat gives, or undefined when the path is gone. */
function statOf(path: string): Stat | undefined {
  const o = observe(path);
  return o.kind === "file" ? o : undefined;
}

/** lstat → {@link Observed}. Symlinks are never followed, so they observe as "other". */
export function observe(path: string): Observed {
  let st: Deno.FileInfo;
  try {
    st = Deno.lstatSync(path);
  } catch {
    return { kind: "missing" };
  }
  if (st.isDirectory) return { kind: "dir" };
  if (!st.isFile) return { kind: "other" };
  return {
    kind: "file",
    size: st.size,
    mtimeMs: st.mtime?.getTime() ?? 0,
    ctimeMs: st.ctime?.getTime() ?? 0,
  };
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/** A file's bytes with the stat they were read under. */
interface StableRead {
  bytes: Uint8Array;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * Reads a whole file through one handle, with an fstat before and after: a
 * file that changed while it was read throws nothing but is reported as
 * torn: it throws {@link TornReadError} and is retried. Returns its size
 * without reading when the file is over `maxBytes`. Throws NotFound and
 * other I/O errors.
 */
function readStable(
  path: string,
  maxBytes: number,
): StableRead | { tooLarge: number; mtimeMs: number; ctimeMs: number } {
  const file = Deno.openSync(path, { read: true });
  try {
    const before = file.statSync();
    if (!before.isFile) throw new Deno.errors.NotFound(`${path} is not a regular file`);
    if (before.size > maxBytes) {
      return {
        tooLarge: before.size,
        mtimeMs: before.mtime?.getTime() ?? 0,
        ctimeMs: before.ctime?.getTime() ?? 0,
      };
    }
    const bytes = new Uint8Array(before.size);
    let off = 0;
    while (off < bytes.length) {
      const n = file.readSync(bytes.subarray(off));
      if (n === null || n === 0) break;
      off += n;
    }
    const after = file.statSync();
    const mtimeMs = after.mtime?.getTime() ?? 0;
    const torn = off !== before.size || after.size !== before.size ||
      mtimeMs !== (before.mtime?.getTime() ?? 0) || file.readSync(new Uint8Array(1)) !== null;
    if (torn) throw new TornReadError(path);
    return { bytes, size: after.size, mtimeMs, ctimeMs: after.ctime?.getTime() ?? 0 };
  } finally {
    file.close();
  }
}

/** The file changed while it was being read. */
class TornReadError extends EnvironmentError {
  constructor(readonly path: string) {
    super(`"${path}" changed while it was being read`);
    this.name = "TornReadError";
  }
}

/** The rows of a file over the size cap: an L1 row with its reason, never read. */
function tooLargeRows(input: PrepareInput, stat: Stat): OwnedRows {
  return unreadRows(input, stat, { skipReason: "too large" });
}

/** The rows of a file whose bytes were not read (too large, unreadable): an L1 row saying why. */
function unreadRows(
  input: PrepareInput,
  stat: Stat,
  why: { skipReason: string } | { error: string },
): OwnedRows {
  return desiredRows({
    rootId: input.rootId,
    path: input.path,
    rel: input.rel,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    ...(stat.ctimeMs !== undefined ? { ctimeMs: stat.ctimeMs } : {}),
    hash: null,
    racy: 0,
    info: undefined,
    requestedDepth: input.requested,
    ...(input.derivations ? { derivations: input.derivations } : {}),
    capability: { depth: 1 },
    extraction: undefined,
    ...why,
    lineCount: 1,
  });
}
