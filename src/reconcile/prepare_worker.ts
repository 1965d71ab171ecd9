/// <reference lib="deno.worker" />
/**
 * A Worker that prepares paths (read, hash, describe, sniff, extract) so that
 * both cores work while the main thread walks and commits. Each Worker has its
 * own extractor, and so its own grammars, loaded on first use.
 */
import { createExtractor } from "../extract/mod.ts";
import { type Prepared, preparePath, type PrepareRequest } from "./prepare.ts";

const extractor = createExtractor();

self.onmessage = async (e: MessageEvent<{ id: number; requests: PrepareRequest[] }>) => {
  const { id, requests } = e.data;
  try {
    const prepared: Prepared[] = [];
    for (const request of requests) prepared.push(await preparePath({ ...request, extractor }));
    self.postMessage({ id, prepared });
  } catch (err) {
    self.postMessage({ id, error: (err as Error)?.message ?? String(err) });
  }
};
