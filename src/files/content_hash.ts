/**
 * The content hash: the oracle every verdict, audit and re-anchoring compares
 * a file's bytes with what the index saw (sha1 of the bytes, hex), and the
 * sha1 the journal's other hashes are made of.
 *
 * @example
 * ```ts
 * import { contentHash, contentHashAsync } from "./content_hash.ts";
 * import assert from "node:assert/strict";
 * const abc = new TextEncoder().encode("abc");
 * assert.equal(contentHash(abc), "a9993e364706816aba3e25717850c26c9cd0d89d");
 * assert.equal(await contentHashAsync(abc), contentHash(abc));
 * ```
 */

/**
 * `node:crypto`, loaded on first use: loading it costs about 20 ms of a
 * process's start, which a search (it hashes with Web Crypto) never pays.
 */
let nodeCrypto: typeof import("node:crypto") | undefined;

/** The sha1 of a text (as UTF-8) or of bytes, hex. */
export function sha1Hex(data: string | Uint8Array): string {
  nodeCrypto ??= process.getBuiltinModule("node:crypto");
  return nodeCrypto.createHash("sha1").update(data).digest("hex");
}

/** The sha256 of a text (as UTF-8), hex. */
export function sha256Hex(text: string): string {
  nodeCrypto ??= process.getBuiltinModule("node:crypto");
  return nodeCrypto.createHash("sha256").update(text).digest("hex");
}

/** The content hash of a file's bytes (sha1, hex). */
export function contentHash(bytes: Uint8Array): string {
  return sha1Hex(bytes);
}

/** {@link contentHash} by Web Crypto, which is part of the runtime: no module to load. */
export async function contentHashAsync(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-1", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}
