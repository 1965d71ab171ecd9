/**
 * Scan cache snapshots: a model's packed records written to one file
 * (`$HEIMDALL_HOME/vectors/<model>.bin`), so that a new process (a one-shot
 * `heimdall search`) reads them in one pass instead of a million rows, then
 * catches up from the journal (deletions logged since, rows added since).
 *
 * A snapshot is a cache, never the truth: it records which journal file it
 * came from (device and inode), the newest vector id it holds and the
 * deletion-log position it was taken at. Anything that does not match, or
 * that the log can no longer bring up to date, is ignored and rebuilt.
 *
 * Format: "HVEC0001", a u32 header length, a JSON header, then each shard's
 * records as packed.ts lays them out (payload, then scale, id, key).
 */
import { ensurePrivateDir } from "../config/private_files.ts";
import type { Journal } from "../store/mod.ts";
import type { Quant } from "./kernel.ts";
import { Shard } from "./packed.ts";
import type { ScanPool } from "./scan_pool.ts";
import { ExactIndex } from "./vector_index.ts";

const MAGIC = "HVEC0001";

/** What a snapshot says about itself. */
export interface SnapshotMeta {
  model: string;
  quant: Quant;
  dims: number;
  /** The newest vector id it holds: rows above it are read from the journal. */
  maxId: number;
  /** The deletion-log position it was taken at: deletions after it are replayed. */
  goneSeq: number;
  /** The journal file it belongs to. */
  journal: { dev: number | null; ino: number | null };
  /** Records per shard, in file order. */
  counts: number[];
}

/** The snapshot file of `model` under `dir` (the name is made safe for any model name). */
export function snapshotFile(dir: string, model: string): string {
  return `${dir}/${encodeURIComponent(model).replace(/\./g, "%2E")}.bin`;
}

/** The identity of a journal file, as snapshots record it. */
export function journalIdentity(j: Journal): { dev: number | null; ino: number | null } {
  try {
    const st = Deno.statSync(j.file);
    return { dev: st.dev ?? null, ino: st.ino ?? null };
  } catch {
    return { dev: null, ino: null };
  }
}

/**
 * Writes `index` as the snapshot of `meta.model` (atomically: a temporary
 * file renamed over the old one). Call inside `index.exclusive`. Returns the
 * bytes written.
 */
export async function saveSnapshot(
  file: string,
  index: ExactIndex,
  meta: Omit<SnapshotMeta, "counts" | "quant" | "dims">,
): Promise<number> {
  const shards = index.shards();
  const header: SnapshotMeta = {
    ...meta,
    quant: index.quant,
    dims: index.dims,
    counts: shards.map((s) => s.count),
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const head = new Uint8Array(12 + json.length);
  head.set(new TextEncoder().encode(MAGIC));
  new DataView(head.buffer).setUint32(8, json.length, true);
  head.set(json, 12);
  const dir = file.slice(0, file.lastIndexOf("/"));
  ensurePrivateDir(dir);
  const tmp = `${file}.${Deno.pid}.tmp`;
  const f = await Deno.open(tmp, { write: true, create: true, truncate: true, mode: 0o600 });
  let bytes = 0;
  try {
    bytes += await writeAll(f, head);
    for (const s of shards) bytes += await writeAll(f, s.records());
  } finally {
    f.close();
  }
  await Deno.rename(tmp, file);
  return bytes;
}

/**
 * Reads a snapshot into an index, or undefined when there is none, it is
 * for another model or journal, or it is damaged (then it is ignored; the
 * next save replaces it).
 */
export async function loadSnapshot(
  file: string,
  expect: { model: string; journal: { dev: number | null; ino: number | null } },
  options: { pool?: ScanPool } = {},
): Promise<{ index: ExactIndex; meta: SnapshotMeta } | undefined> {
  let f: Deno.FsFile;
  try {
    f = await Deno.open(file, { read: true });
  } catch {
    return undefined;
  }
  try {
    const head = new Uint8Array(12);
    if ((await readFull(f, head)) < 12) return undefined;
    if (new TextDecoder().decode(head.subarray(0, 8)) !== MAGIC) return undefined;
    const len = new DataView(head.buffer).getUint32(8, true);
    const json = new Uint8Array(len);
    if ((await readFull(f, json)) < len) return undefined;
    const meta = JSON.parse(new TextDecoder().decode(json)) as SnapshotMeta;
    if (
      meta.model !== expect.model || meta.journal.ino !== expect.journal.ino ||
      meta.journal.dev !== expect.journal.dev || meta.journal.ino === null
    ) return undefined;
    const shards: Shard[] = [];
    for (const count of meta.counts) shards.push(await Shard.read(meta.quant, meta.dims, count, f));
    return { index: ExactIndex.fromShards(shards, options), meta };
  } catch {
    return undefined;
  } finally {
    f.close();
  }
}

async function writeAll(f: Deno.FsFile, bytes: Uint8Array): Promise<number> {
  for (let at = 0; at < bytes.length;) at += await f.write(bytes.subarray(at));
  return bytes.length;
}

async function readFull(f: Deno.FsFile, into: Uint8Array): Promise<number> {
  let at = 0;
  while (at < into.length) {
    const n = await f.read(into.subarray(at));
    if (n === null) break;
    at += n;
  }
  return at;
}
