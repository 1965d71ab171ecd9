/** A folder typed to become a root (`index`, `roots add`), checked against the disk. */
import { EnvironmentError, UsageError } from "../errors/mod.ts";
import { dirname } from "../files/mod.ts";
import { typedPath } from "./path_arg.ts";
import { rootInHomeError } from "../reconcile/mod.ts";

/**
 * The real path of the folder `typed` names (relative to the current
 * folder), ready to be a root. Throws, naming the path and what to do
 * instead: EnvironmentError when it cannot be read (the reason, e.g.
 * permission denied); UsageError when nothing is there, when it is not a
 * folder, when it is the filesystem's root (a root there would walk every
 * mounted disk and every user's files), or when it lies in Heimdall's own
 * home (`home`: its paths, see `homeDirs`). `verb` starts each message:
 * `Cannot index "…"`.
 */
export function rootFolder(typed: string, home: readonly string[], verb: string): string {
  const abs = typedPath(typed, "DIR");
  let st: Deno.FileInfo;
  try {
    st = Deno.statSync(abs);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new UsageError(`${verb} "${abs}": no such folder; pass an existing folder`);
    }
    if (e instanceof Deno.errors.NotADirectory) {
      throw new UsageError(
        `${verb} "${abs}": no such folder ("${
          fileOnTheWay(abs)
        }" is a file); pass an existing folder`,
      );
    }
    if (e instanceof Deno.errors.NotCapable) {
      throw new UsageError(
        `${verb} "${abs}": a system folder (devices, processes) Heimdall never reads; pass a project folder`,
      );
    }
    throw new EnvironmentError(
      `${verb} "${abs}": it cannot be read (${
        (e as Error).message
      }); check its permissions, or pass another folder`,
    );
  }
  if (!st.isDirectory) {
    throw new UsageError(`${verb} "${abs}": not a folder; pass the folder that holds it`);
  }
  const real = Deno.realPathSync(abs);
  if (dirname(real) === real) {
    throw new UsageError(
      `${verb} "${real}": it is the filesystem's root, which would index every disk and every user's files; pass a project folder (or several)`,
    );
  }
  const error = rootInHomeError(real, home);
  if (error !== undefined) throw new UsageError(error);
  return real;
}

/** The first folder of `abs` that is not a folder (the one that made the stat fail). */
function fileOnTheWay(abs: string): string {
  let up = dirname(abs);
  let found = up;
  while (dirname(up) !== up) {
    try {
      if (!Deno.statSync(up).isDirectory) found = up;
    } catch { /* below the file: not there */ }
    up = dirname(up);
  }
  return found;
}
