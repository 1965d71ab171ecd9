/**
 * The text of at most the last `maxBytes` bytes of the file at `path` (the
 * whole file when it is smaller), decoded as UTF-8: a character cut at the
 * start becomes U+FFFD. Reads only those bytes, so a log or transcript of
 * any size costs what the tail costs. Throws what opening or reading throws
 * (a missing file: `Deno.errors.NotFound`), and for a path that is no
 * regular file: opening a named pipe waits for a writer forever, and
 * synchronously, so no deadline of the caller's could end it.
 *
 * @example
 * ```ts
 * import { readTail } from "./tail.ts";
 * const file = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(file, "first line\nlast line\n");
 * console.assert(readTail(file, 10) === "last line\n");
 * ```
 */
export function readTail(path: string, maxBytes: number): string {
  if (!Deno.statSync(path).isFile) throw new Error(`"${path}" is not a regular file`);
  const f = Deno.openSync(path, { read: true });
  try {
    const size = f.statSync().size;
    const start = Math.max(0, size - maxBytes);
    f.seekSync(start, Deno.SeekMode.Start);
    const buf = new Uint8Array(size - start);
    let read = 0;
    while (read < buf.length) {
      const n = f.readSync(buf.subarray(read));
      if (n === null || n === 0) break;
      read += n;
    }
    return new TextDecoder().decode(buf.subarray(0, read));
  } finally {
    f.close();
  }
}
