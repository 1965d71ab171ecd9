/// <reference lib="deno.worker" />
/**
 * A Worker that prepares paths (read, hash, describe, sniff, extract) so that
 * both cores work while the main thread walks and commits. Each Worker has its
 * own extractor, and so its own grammars, loaded on first use (and keeps no
 * parse trees: edits are re-parsed incrementally on the main thread).
 *
 * Messages are handled one at a time, in the order they came: the pool sends
 * several batches ahead, and the oldest must come back first, since the main
 * thread commits them in order (handled all at once, they would interleave
 * file by file and all come back together, at the end).
 */
import { BULK_WORKER, yieldToForeground } from "../config/mod.ts";
import { createExtractor } from "../extract/mod.ts";
import { type Prepared, preparePath, type PrepareRequest } from "./prepare.ts";

// A one-shot index's pool (see PreparePool): the writer's thread first.
if (self.name === BULK_WORKER) yieldToForeground();
// Bulk work: each file is parsed once, so no tree is kept for an incremental re-parse.
const extractor = createExtractor({ keepTrees: 0 });
let queue: Promise<void> = Promise.resolve();

self.onmessage = (e: MessageEvent<{ id: number; requests: PrepareRequest[] }>) => {
  queue = queue.then(() => prepare(e.data.id, e.data.requests));
};

async function prepare(id: number, requests: PrepareRequest[]): Promise<void> {
  try {
    const prepared: Prepared[] = [];
    for (const request of requests) prepared.push(await preparePath({ ...request, extractor }));
    self.postMessage({ id, prepared });
  } catch (err) {
    self.postMessage({ id, error: (err as Error)?.message ?? String(err) });
  }
}
