/**
 * Everything under `$HEIMDALL_HOME` is the user's alone: prompts, notes,
 * memories, session state, logs and the team store's password live there. So
 * the home and every folder in it are 0700 and every file Heimdall writes
 * there is 0600, whatever the process's umask (which only ever removes bits).
 * Every writer under the home goes through these helpers; a home left loose
 * by an older version is tightened the first time it is opened
 * ({@link tightenHome}).
 *
 * Deno APIs only and no imports: the hook client loads this on every tool
 * call. On Windows file modes do not apply and these helpers only write.
 */

/** Mode of every file under the home. */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of the home and every folder in it. */
export const PRIVATE_DIR_MODE = 0o700;

const POSIX = Deno.build.os !== "windows";

/**
 * Removes the group and other bits of `path` when it has any (an owner's
 * bits are kept, so an executable stays executable). Does not follow a
 * symbolic link. Returns true when it changed the mode; a missing file, or
 * one this user may not change, is left alone (false).
 */
export function tightenPrivate(path: string): boolean {
  if (!POSIX) return false;
  try {
    const st = Deno.lstatSync(path);
    if (st.isSymlink || st.mode === null || (st.mode & 0o077) === 0) return false;
    // A sticky folder (/tmp) or another user's entry is shared, never ours to close.
    if ((st.mode & 0o1000) !== 0 || (st.uid !== null && st.uid !== Deno.uid())) return false;
    Deno.chmodSync(path, st.mode & 0o700);
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates `dir` (and missing parents) 0700. A folder that already exists is
 * left as it is: it may be a shared one (`/tmp`, a project, `~/.claude`) that
 * is not Heimdall's to change; a home left loose is {@link tightenHome}'s job.
 * Throws `Deno.errors.AlreadyExists` naming `dir` when a file is there.
 */
export function ensurePrivateDir(dir: string): void {
  let st: Deno.FileInfo | undefined;
  try {
    st = Deno.statSync(dir);
  } catch {
    // missing: create it below
  }
  if (st?.isDirectory) return;
  if (st !== undefined) {
    // mkdir would say only "File exists", with no word of what to do.
    throw new Deno.errors.AlreadyExists(
      `"${dir}" is a file, not a folder, and Heimdall keeps its files in a folder there (is HEIMDALL_HOME set to a file?); move that file aside or set HEIMDALL_HOME to a folder`,
    );
  }
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (e) {
    throw homeNotMade(dir, e);
  }
  // The umask only removes bits, but a parent's default ACL may add some.
  tightenPrivate(dir);
}

/**
 * Why `dir` could not be made, said so a person can act on it, as the same
 * kind of error (the exit code stays the environment's): mkdir says only
 * "File exists" of a link to a folder that is not there (a dotfiles link to
 * a drive not mounted), and "Not a directory" of a file on the way.
 */
function homeNotMade(dir: string, e: unknown): unknown {
  if (e instanceof Deno.errors.AlreadyExists) {
    let target: string | undefined;
    try {
      target = Deno.readLinkSync(dir);
    } catch {
      return e;
    }
    return new Deno.errors.AlreadyExists(
      `"${dir}" is a link to "${target}", which is not there (a drive not mounted?); create that folder, or set HEIMDALL_HOME to a folder`,
    );
  }
  if (e instanceof Deno.errors.NotADirectory) {
    for (let up = parentOf(dir); up !== "/"; up = parentOf(up)) {
      try {
        if (!Deno.statSync(up).isDirectory) {
          return new Deno.errors.NotADirectory(
            `"${dir}" cannot be made: "${up}" on its way is a file, not a folder (is HEIMDALL_HOME set under a file?); set HEIMDALL_HOME to a folder`,
          );
        }
      } catch {
        // Not there: the file is further up.
      }
    }
  }
  return e;
}

/** The folder holding `path` ("/" for a top-level one): this module imports nothing. */
function parentOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const i = trimmed.lastIndexOf("/");
  return i <= 0 ? "/" : trimmed.slice(0, i);
}

/**
 * The size past which a log Heimdall appends to (`hooks.log`, `usage.log`,
 * `search.log`, `daemon.log`) moves aside to `FILE.1`, replacing the one
 * before: two files of it at most, however long it is used.
 */
export const LOG_ROTATE_BYTES = 8 * 1024 * 1024;

/**
 * Writes `data` to `path`, created 0600 (an existing file is tightened to
 * 0600 too), appending when `append` is set; with `rotateAt`, a file that
 * holds that many bytes already is first renamed `path.1` (replacing the
 * one before), so that a log stays bounded. Throws what the write throws.
 */
export function writePrivateFile(
  path: string,
  data: string | Uint8Array,
  options: { append?: boolean; rotateAt?: number } = {},
): void {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const append = options.append ?? false;
  if (append && options.rotateAt !== undefined) {
    try {
      if (Deno.statSync(path).size >= options.rotateAt) Deno.renameSync(path, `${path}.1`);
    } catch { /* no file yet, or moved aside by another process just now */ }
  }
  const f = Deno.openSync(path, {
    write: true,
    create: true,
    append,
    truncate: !append,
    mode: PRIVATE_FILE_MODE,
  });
  try {
    if (POSIX && ((f.statSync().mode ?? 0) & 0o077) !== 0) Deno.chmodSync(path, PRIVATE_FILE_MODE);
    for (let off = 0; off < bytes.length;) off += f.writeSync(bytes.subarray(off));
  } finally {
    f.close();
  }
}

/**
 * Replaces `path` atomically with `data` (a private temporary file beside it,
 * then a rename), so a reader sees the old bytes or the new, never half.
 */
export function writePrivateFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${Deno.pid}.tmp`;
  writePrivateFile(tmp, data);
  Deno.renameSync(tmp, path);
}

/**
 * Opens (creating 0600 when missing) a file under the home, e.g. a lock
 * file; an existing file is tightened to 0600.
 */
export async function openPrivateFile(
  path: string,
  options: Deno.OpenOptions,
): Promise<Deno.FsFile> {
  const f = await Deno.open(path, { ...options, mode: PRIVATE_FILE_MODE });
  tightenPrivate(path);
  return f;
}

/**
 * What Heimdall keeps at the top of a home: the journal with its side files,
 * backups and salvage (`journal.db…`), the config and its lock, the
 * writer's, the daemon's and the hook server's locks and ports, and its
 * folders and lists (`homePaths`, `sessions`, `vectors`, `init.json`).
 */
const HOME_ENTRY =
  /^(journal\.db|config\.json|writer\.|hookd\.|daemon\.)|^(hints|models|lib|logs|sessions|vectors|ignore|init\.json)(\.|$)/;

/**
 * Whether `path` is one of Heimdall's own entries at the top of `home` (see
 * {@link HOME_ENTRY}: the journal and its side files, the config, locks,
 * hints, models, logs…) or inside one of them, through links on either side:
 * a file the user must not write over (`export --out ~/.heimdall/journal.db`
 * would empty the journal it reads). Reads only the two folders' real paths.
 */
export function isHomeEntry(home: string, path: string): boolean {
  const real = (p: string) => {
    try {
      return Deno.realPathSync(p);
    } catch {
      return p;
    }
  };
  const root = real(home).replace(/\/+$/, "");
  const parts = path.split("/");
  // The folder holding `path` may be the home under another name (a link, `..`).
  const name = parts.pop() ?? "";
  const full = `${real(parts.join("/") || "/")}/${name}`;
  if (!full.startsWith(`${root}/`)) return false;
  const top = full.slice(root.length + 1).split("/")[0] ?? "";
  return HOME_ENTRY.test(top);
}

/**
 * Makes a home folder private: when `home` itself (or the folder a link
 * named `home` points to) has group or other bits (a home written by an
 * older version under a 022 umask), removes them from every folder and file
 * of Heimdall's under it ({@link HOME_ENTRY}) and, when it holds nothing
 * else, from the folder itself. A `HEIMDALL_HOME` set to a folder of the
 * person's own (their home folder, a repository) keeps its other entries,
 * and its own mode, as they were. Links inside are not followed. One stat
 * when the home is already private or missing. Returns how many entries it
 * tightened; never throws (an entry it may not change is left as it is).
 */
export function tightenHome(home: string): number {
  if (!POSIX) return 0;
  try {
    const st = Deno.statSync(home);
    if (!st.isDirectory || st.mode === null || (st.mode & 0o077) === 0) return 0;
    // A home reached through a symbolic link: the folder it names is the one to close.
    home = Deno.realPathSync(home);
  } catch {
    return 0;
  }
  let changed = 0;
  // Folders last, the home itself at the very end: an interrupted pass is
  // redone in full next time, since the home still looks loose.
  const walk = (dir: string) => {
    try {
      for (const e of Deno.readDirSync(dir)) {
        const p = `${dir}/${e.name}`;
        if (e.isSymlink) continue; // never reach outside the home
        if (e.isDirectory) walk(p);
        else if (tightenPrivate(p)) changed++;
      }
    } catch { /* unreadable folder: tighten what we can */ }
    if (tightenPrivate(dir)) changed++;
  };
  let others = false;
  try {
    for (const e of Deno.readDirSync(home)) {
      const p = `${home}/${e.name}`;
      if (!HOME_ENTRY.test(e.name)) others = true;
      else if (e.isSymlink) continue;
      else if (e.isDirectory) walk(p);
      else if (tightenPrivate(p)) changed++;
    }
  } catch {
    return changed;
  }
  if (!others && tightenPrivate(home)) changed++;
  return changed;
}
