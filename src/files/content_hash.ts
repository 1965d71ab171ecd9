/**
 * The content hash: the oracle every verdict, audit and re-anchoring compares
 * a file's bytes with what the index saw (sha1 of the bytes, hex).
 *
 * @example
 * ```ts
 * import { contentHash } from "./content_hash.ts";
 * import assert from "node:assert/strict";
 * assert.equal(contentHash(new TextEncoder().encode("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
 * ```
 */
import { createHash } from "node:crypto";

/** The content hash of a file's bytes (sha1, hex). */
export function contentHash(bytes: Uint8Array): string {
  return createHash("sha1").update(bytes).digest("hex");
}
