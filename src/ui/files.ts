/**
 * The dashboard's file view: lines of an indexed file, and nothing else.
 *
 * A file is served only when the journal has a row for exactly that path,
 * and its real path (symlinks resolved) lies under the real path of one of
 * the indexed roots; anything else is refused as unknown.
 */
import { UsageError } from "../errors/mod.ts";
import { getPath, type Journal, listRoots } from "../store/mod.ts";

/** A few lines of an indexed file, for the file view. */
export interface FileLines {
  path: string;
  /** Line number of `lines[0]`, 1-based. */
  first: number;
  lines: string[];
  total: number;
}

/** Why a file was not served; `status` is the HTTP status to answer with. */
export class FileRefusedError extends UsageError {
  constructor(message: string, readonly status: 403 | 404) {
    super(message);
  }
}

function realOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/**
 * Lines `line - before` to `line + after` of `path`, when it is an indexed
 * file under an indexed root. Throws {@link FileRefusedError} otherwise.
 * Reads the file from disk now (it may have changed since it was indexed).
 */
export function fileLines(
  j: Journal,
  path: string,
  line: number,
  around = { before: 12, after: 40 },
): FileLines {
  const row = getPath(j, path);
  if (!row) throw new FileRefusedError(`"${path}" is not an indexed file`, 404);
  const real = realOrNull(path);
  if (real === null) {
    throw new FileRefusedError(`"${path}" is gone from disk since it was indexed`, 404);
  }
  const inside = real !== null && listRoots(j).some((r) => {
    const root = realOrNull(r.path);
    return root !== null &&
      (real === root || real.startsWith(root.endsWith("/") ? root : root + "/"));
  });
  if (!inside) throw new FileRefusedError(`"${path}" is not under an indexed root`, 403);
  // Only a regular file is read: opening a FIFO would block the server's one thread.
  if (!Deno.statSync(real).isFile) {
    throw new FileRefusedError(`"${path}" is no longer a regular file on disk`, 404);
  }
  const all = Deno.readTextFileSync(real).split("\n");
  const first = Math.max(1, line - around.before);
  const last = Math.min(all.length, line + around.after);
  return { path, first, lines: all.slice(first - 1, last), total: all.length };
}
