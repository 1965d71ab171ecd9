/**
 * A file's bytes as text, the one way every reader of indexed content
 * decodes them (the index, search's verdicts and re-anchoring, the
 * embedding pass, memory anchors), so that a line number means the same
 * line to all of them:
 *
 * - a UTF-16 byte order mark (`FF FE`, `FE FF`): UTF-16, little or big
 *   endian, as Windows tools write text (the mark is dropped);
 * - otherwise UTF-8 (a UTF-8 mark dropped); a byte that is not UTF-8 is
 *   U+FFFD, unless no byte sequence of the file is UTF-8 beyond ASCII: then
 *   the file is a legacy 8-bit one (Latin-1, which Windows-1252 extends) and
 *   is read as Windows-1252, so that `café` in an old source file is found
 *   as `café`.
 *
 * @example
 * ```ts
 * import { decodeText } from "./decode.ts";
 * console.assert(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9])) === "café");
 * console.assert(decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0])) === "hi");
 * ```
 */
export function decodeText(bytes: Uint8Array): string {
  const bom = utf16Bom(bytes);
  if (bom !== undefined) return new TextDecoder(bom).decode(bytes);
  const text = UTF8.decode(bytes);
  if (!text.includes("\uFFFD") || BEYOND_ASCII.test(text)) return text;
  return LEGACY.decode(bytes);
}

/** The UTF-16 encoding a byte order mark at the start of `bytes` names, if any. */
export function utf16Bom(bytes: Uint8Array): "utf-16le" | "utf-16be" | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

const UTF8 = new TextDecoder();
const LEGACY = new TextDecoder("windows-1252");
/** A character UTF-8 decoding produced from a valid multi-byte sequence. */
const BEYOND_ASCII = /[\u0080-\ufffc\ufffe\uffff]/;
