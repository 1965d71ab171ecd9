/**
 * The dashboard's file view: lines of an indexed file, and nothing else.
 *
 * A file is served only when the journal has a row for exactly that path,
 * and its real path (symlinks resolved) lies under the real path of one of
 * the indexed roots; anything else is refused as unknown.
 */
import { UsageError } from "../errors/mod.ts";
import { decodeText, sniffSecret, utf16Bom } from "../files/mod.ts";
import { getPath, type Journal, listRoots } from "../store/mod.ts";

/** A few lines of an indexed file, for the file view. */
export interface FileLines {
  path: string;
  /** Line number of `lines[0]`, 1-based. */
  first: number;
  lines: string[];
  /** Lines in the file; null when it is larger than {@link READ_LIMIT} (not read to its end). */
  total: number | null;
}

/** Why a file was not served; `status` is the HTTP status to answer with. */
export class FileRefusedError extends UsageError {
  constructor(message: string, readonly status: 403 | 404) {
    super(message);
  }
}

/** The file is there but this process may not read it (permissions): a refusal that says so. */
function unreadable(path: string, e: unknown): FileRefusedError {
  const why = e instanceof Deno.errors.PermissionDenied
    ? "permission denied"
    : (e as Error).message ?? String(e);
  return new FileRefusedError(
    `"${path}" cannot be read by the dashboard (${why}); check the permissions of the file and its folders`,
    403,
  );
}

async function openOrRefuse(path: string, real: string): Promise<Deno.FsFile> {
  try {
    return await Deno.open(real, { read: true });
  } catch (e) {
    throw unreadable(path, e);
  }
}

function realOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/** Bytes read from disk per step. */
const CHUNK = 1 << 20;
/** Most bytes of a file read: beyond, its lines are neither shown nor counted. */
export const READ_LIMIT = 32 << 20;
/** Characters of the text before a chunk screened again with it for secrets. */
const SECRET_OVERLAP = 64 * 1024;
/** Most bytes of one line shown; a longer line (a minified bundle) ends in `…`. */
export const MAX_LINE_BYTES = 64 * 1024;

/**
 * Lines `line - before` to `line + after` of `path`, when it is an indexed
 * file under an indexed root and holds no secret now (the whole text read is
 * screened, as search screens a changed hit). Throws {@link FileRefusedError} otherwise.
 * Reads the file from disk now (it may have changed since it was indexed),
 * a chunk at a time and off the server's thread: only the lines shown are
 * kept (each at most {@link MAX_LINE_BYTES}), the rest is only counted, and
 * never more than {@link READ_LIMIT} bytes (32 times the largest file indexed
 * by default), so a file that grew to gigabytes since it was indexed costs
 * neither its size in memory nor the other requests' time. A `line` below 1
 * or not a number means 1.
 */
export async function fileLines(
  j: Journal,
  path: string,
  line: number,
  around = { before: 12, after: 40 },
): Promise<FileLines> {
  const row = getPath(j, path);
  if (!row) throw new FileRefusedError(`"${path}" is not an indexed file`, 404);
  let real: string;
  try {
    real = Deno.realPathSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
      throw new FileRefusedError(`"${path}" is gone from disk since it was indexed`, 404);
    }
    throw unreadable(path, e);
  }
  const inside = listRoots(j).some((r) => {
    const root = realOrNull(r.path);
    return root !== null &&
      (real === root || real.startsWith(root.endsWith("/") ? root : root + "/"));
  });
  if (!inside) throw new FileRefusedError(`"${path}" is not under an indexed root`, 403);
  // Only a regular file is read: opening a FIFO would block the server's one thread.
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(real);
  } catch (e) {
    throw unreadable(path, e);
  }
  if (!info.isFile) {
    throw new FileRefusedError(`"${path}" is no longer a regular file on disk`, 404);
  }
  const at = Number.isFinite(line) && line >= 1 ? Math.floor(line) : 1;
  const first = Math.max(1, at - around.before);
  const last = at + around.after;
  // Each line decoded as the index decodes a file (UTF-8, or Windows-1252 for a
  // line of legacy 8-bit text); a byte-order mark is dropped at the start of the file only.
  const decode = (bytes: Uint8Array) =>
    n > 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
      ? "\ufeff" + decodeText(bytes.subarray(3))
      : decodeText(bytes);
  const lines: string[] = [];
  let parts: Uint8Array[] = [];
  let kept = 0;
  let truncated = false;
  let n = 1; // the line being read
  const keep = (bytes: Uint8Array) => {
    if (n < first || n > last || kept >= MAX_LINE_BYTES) {
      if (n >= first && n <= last && bytes.length > 0) truncated = true;
      return;
    }
    const part = bytes.subarray(0, MAX_LINE_BYTES - kept);
    if (part.length < bytes.length) truncated = true;
    parts.push(part.slice());
    kept += part.length;
  };
  const endLine = () => {
    if (n >= first && n <= last) {
      const all = new Uint8Array(kept);
      let o = 0;
      for (const p of parts) {
        all.set(p, o);
        o += p.length;
      }
      lines.push(decode(all) + (truncated ? "…" : ""));
    }
    parts = [];
    kept = 0;
    truncated = false;
    n++;
  };
  // The index never holds a file with a secret in it, but this one is read as it is now:
  // a key pasted in since it was indexed is refused, as search prunes such a hit. The
  // text is screened a chunk at a time, each with the end of the one before, so a
  // secret cut between two chunks is seen whole.
  const screen = new TextDecoder("utf-8");
  let tail = "";
  const refuseSecret = (bytes: Uint8Array, last = false) => {
    const text = tail + screen.decode(bytes, { stream: !last });
    const secret = sniffSecret(text);
    if (secret !== undefined) {
      throw new FileRefusedError(
        `"${path}" holds a secret now (${secret}), so the dashboard does not show it; the next index pass drops the file`,
        403,
      );
    }
    tail = text.slice(-SECRET_OVERLAP);
  };
  using file = await openOrRefuse(path, real);
  const buf = new Uint8Array(CHUNK);
  let read = 0;
  let ended = false;
  while (read < READ_LIMIT) {
    let got: number | null;
    try {
      got = await file.read(buf);
    } catch (e) {
      throw unreadable(path, e);
    }
    if (got === null) {
      ended = true;
      break;
    }
    let chunk = buf.subarray(0, got);
    const utf16 = read === 0 && utf16Bom(chunk) !== undefined;
    if (utf16) {
      // UTF-16 (a Windows tool's text): its newline is two bytes, one of them
      // 0, so it is turned into UTF-8 first, read to the same limit.
      const text = await readUtf16(file, chunk, READ_LIMIT, () => ended = true);
      chunk = new TextEncoder().encode(text);
    }
    read += got;
    refuseSecret(chunk);
    let from = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
      keep(chunk.subarray(from, nl));
      endLine();
      from = nl + 1;
    }
    keep(chunk.subarray(from));
    if (utf16) break; // read whole (to the limit) above
  }
  refuseSecret(new Uint8Array(0), true);
  if (!ended) truncated = true; // the last line read goes on past READ_LIMIT
  endLine(); // the text after the last newline read (empty when the file ends with one)
  return { path, first, lines, total: ended ? n - 1 : null };
}

/**
 * The rest of a UTF-16 file after its `first` chunk (which holds its byte
 * order mark), up to `limit` bytes in all, decoded; `ended` is called when
 * the file ended within the limit.
 */
async function readUtf16(
  file: Deno.FsFile,
  first: Uint8Array,
  limit: number,
  ended: () => void,
): Promise<string> {
  const parts = [first.slice()];
  let size = first.length;
  const buf = new Uint8Array(CHUNK);
  while (size < limit) {
    const got = await file.read(buf);
    if (got === null) {
      ended();
      break;
    }
    parts.push(buf.slice(0, got));
    size += got;
  }
  const all = new Uint8Array(size);
  let o = 0;
  for (const p of parts) {
    all.set(p, o);
    o += p.length;
  }
  return decodeText(all.subarray(0, Math.min(size, limit)));
}
