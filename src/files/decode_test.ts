import assert from "node:assert/strict";
import { decodeText, utf16Bom } from "./decode.ts";

/** `text` as UTF-16 with its byte order mark, little or big endian. */
function utf16(text: string, le: boolean): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out.set(le ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[2 + 2 * i + (le ? 0 : 1)] = c & 0xff;
    out[2 + 2 * i + (le ? 1 : 0)] = c >> 8;
  }
  return out;
}

Deno.test("decodeText() reads UTF-16 by its byte order mark, either endianness, the mark dropped", () => {
  const text = "Première ligne\r\nzweite Zeile — 2 €\n";
  assert.equal(utf16Bom(utf16(text, true)), "utf-16le");
  assert.equal(utf16Bom(utf16(text, false)), "utf-16be");
  assert.equal(decodeText(utf16(text, true)), text);
  assert.equal(decodeText(utf16(text, false)), text);
});

Deno.test("decodeText() reads a file with no UTF-8 beyond ASCII as Windows-1252", () => {
  // "/* café à 5 € */" in Latin-1/Windows-1252: é e9, à e0, € 80.
  const bytes = new Uint8Array([
    ...new TextEncoder().encode("/* caf"),
    0xe9,
    0x20,
    0xe0,
    0x20,
    0x35,
    0x20,
    0x80,
    ...new TextEncoder().encode(" */\nint x;\n"),
  ]);
  assert.equal(decodeText(bytes), "/* café à 5 € */\nint x;\n");
});

Deno.test("decodeText() keeps UTF-8 as UTF-8: a stray byte in a UTF-8 file is U+FFFD, a UTF-8 mark is dropped", () => {
  const utf8 = new TextEncoder().encode("naïve\n");
  assert.equal(decodeText(utf8), "naïve\n");
  assert.equal(decodeText(new Uint8Array([...utf8, 0xe9, 0x0a])), "naïve\n\uFFFD\n");
  assert.equal(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8])), "naïve\n");
  assert.equal(decodeText(new TextEncoder().encode("plain ascii")), "plain ascii");
});

Deno.test("decodeText() keeps every line break where the bytes have it, whichever way it reads them", () => {
  const latin = new Uint8Array([0x61, 0xe9, 0x0a, 0x62, 0x0a, 0xff, 0x0a]);
  assert.equal(decodeText(latin).split("\n").length, 4);
  assert.equal(decodeText(utf16("a\nb\nc", true)).split("\n").length, 3);
});
