/**
 * Enumerates the files of a root for the reconciler: ignore rules applied on
 * the way down, secrets refused by name, symlinks never followed. Reads
 * directory listings, ignore files and file metadata, never file contents.
 */
import { resolve } from "./path.ts";
import { errorText } from "../errors/mod.ts";
import { exists } from "./exists.ts";
import {
  IGNORE_FILE_NAMES,
  IgnoreRules,
  type IgnoreStack,
  loadIgnoreStack,
  readGitExclude,
} from "./ignore.ts";
import { isSecretName } from "./secrets.ts";

/** Why the walk passed over a path; the reconciler records it instead of indexing. */
export type SkipReason =
  | "secret"
  | "ignored"
  | "symlink"
  | "unreadable"
  | "too-large"
  | "excluded"
  | "special";

/** A file to reconcile (`path` absolute, `rel` root-relative with `/`), or a path passed over. */
export type WalkEvent =
  | { type: "file"; path: string; rel: string; size: number; mtimeMs: number; ctimeMs: number }
  | { type: "skip"; rel: string; reason: SkipReason; detail?: string };

/** What to walk: `under` narrows the walk to one root-relative folder or file. */
export interface WalkOptions {
  /** The root to walk (absolute). */
  root: string;
  /** Text of the user's global ignore file (`~/.heimdall/ignore`). */
  globalIgnore?: string;
  /** Files larger than this yield a `too-large` skip instead of a file event. */
  maxFileBytes?: number;
  /** A root-relative folder or file to walk instead of the whole root. */
  under?: string;
  /** Apply the built-in `DEFAULT_IGNORED_DIRS` (default true). */
  defaults?: boolean;
  /**
   * Stat each file (default true). Without it, file events carry size,
   * mtime and ctime -1 and `maxFileBytes` is not applied: for a first index, where the
   * reader stats each file anyway, on another thread.
   */
  stat?: boolean;
  /**
   * Folders never entered, absolute path → why (Heimdall's home, a nested
   * root that owns its own paths; see `walkExclusions`): each yields one
   * `excluded` skip.
   */
  exclude?: ReadonlyMap<string, string>;
}

interface Frame {
  rel: string;
  stack: IgnoreStack;
  entries: Deno.DirEntry[];
  next: number;
}

/**
 * Walks `opts.root` depth-first, entries sorted by name within each folder, so
 * two walks of an unchanged tree yield the same events in the same order.
 * Yields a file event per regular file; one `ignored` skip per ignored folder
 * (never entered) or file; `secret` for secret-named files (never a file
 * event); `symlink` for every symlink (never followed, so loops cannot hang);
 * `unreadable` for a folder or file that cannot be listed or stat'ed (the walk
 * goes on), and for a name that is not valid UTF-8 (Deno can only name it
 * with U+FFFD, so it cannot be opened); `too-large` above `maxFileBytes`;
 * `excluded` for a folder of `exclude` (or everything, when the root lies
 * inside one); `special` for a FIFO, socket or device (never opened: a FIFO
 * would block the read). Cost: one listing per folder and
 * one stat per file; ignore files are read only where a listing shows them.
 * A missing `under` yields nothing. Entries changed while walking may be stale.
 */
export function* walkRoot(opts: WalkOptions): Generator<WalkEvent> {
  const root = resolve(opts.root);
  const exclude = opts.exclude ?? new Map<string, string>();
  const maxBytes = opts.maxFileBytes ?? Infinity;
  const stat = opts.stat ?? true;
  const trimmed = (opts.under ?? "").replace(/^(?:\.\/|\/)+|\/+$/g, "");
  const under = trimmed === "." ? "" : trimmed;
  for (const [dir, why] of exclude) {
    const start = under === "" ? root : `${root}/${under}`;
    if (start === dir || start.startsWith(dir + "/")) {
      yield { type: "skip", rel: under, reason: "excluded", detail: why };
      return;
    }
  }
  const slash = under.lastIndexOf("/");
  const loaded = loadIgnoreStack(
    root,
    slash < 0 ? "" : under.slice(0, slash),
    opts.globalIgnore ?? "",
    undefined,
    { defaults: opts.defaults !== false },
  );
  if (loaded.ignored) {
    yield {
      type: "skip",
      rel: loaded.ignored.rel,
      reason: "ignored",
      detail: loaded.ignored.rule.reason,
    };
    return;
  }
  const frames: Frame[] = [];
  if (under === "") {
    // loadIgnoreStack already applied the root's own ignore files; list without re-reading them.
    const opened = openDir(root, "", loaded.stack, false);
    if ("type" in opened) yield opened;
    else frames.push(opened);
  } else {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(`${root}/${under}`);
    } catch {
      return;
    }
    if (info.isSymlink) {
      yield { type: "skip", rel: under, reason: "symlink" };
      return;
    }
    const rule = loaded.stack.match(under, info.isDirectory);
    if (rule && !rule.negated) {
      yield { type: "skip", rel: under, reason: "ignored", detail: rule.reason };
    } else {
      const next = enter(root, under, info, loaded.stack, maxBytes, stat);
      if ("type" in next) yield next;
      else frames.push(next);
    }
  }

  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const entry = frame.entries[frame.next++];
    if (entry === undefined) {
      frames.pop();
      continue;
    }
    const rel = frame.rel === "" ? entry.name : `${frame.rel}/${entry.name}`;
    const rule = frame.stack.match(rel, entry.isDirectory);
    if (rule && !rule.negated) {
      yield { type: "skip", rel, reason: "ignored", detail: rule.reason };
    } else if (entry.isSymlink) {
      yield { type: "skip", rel, reason: "symlink" };
    } else if (entry.isDirectory && exclude.has(`${root}/${rel}`)) {
      yield { type: "skip", rel, reason: "excluded", detail: exclude.get(`${root}/${rel}`)! };
    } else if (entry.name.includes(REPLACEMENT) && !exists(`${root}/${rel}`)) {
      // The decoded name does not round-trip (the entry is no link, so stat sees the entry itself).
      yield { type: "skip", rel, reason: "unreadable", detail: NOT_UTF8 };
    } else {
      const next = enter(root, rel, entry, frame.stack, maxBytes, stat);
      if ("type" in next) yield next;
      else frames.push(next);
    }
  }
}

/** Lists one folder (sorted) and stacks the ignore files its listing shows. */
/**
 * An entry the walk neither ignores nor skips: a folder opens (a frame to
 * walk, or the skip that says why it cannot be listed), a regular file
 * becomes its file event, anything else (FIFO, socket, device) is `special`.
 */
function enter(
  root: string,
  rel: string,
  kind: { isDirectory: boolean; isFile: boolean },
  stack: IgnoreStack,
  maxBytes: number,
  stat: boolean,
): Frame | WalkEvent {
  if (kind.isDirectory) return openDir(root, rel, stack, true);
  if (kind.isFile) return fileEvent(root, rel, maxBytes, stat);
  return { type: "skip", rel, reason: "special", detail: "not a regular file" };
}

function openDir(
  root: string,
  rel: string,
  parent: IgnoreStack,
  readIgnores: boolean,
): Frame | WalkEvent {
  let entries: Deno.DirEntry[];
  try {
    entries = Array.from(Deno.readDirSync(rel === "" ? root : `${root}/${rel}`));
  } catch (e) {
    return { type: "skip", rel, reason: "unreadable", detail: errorText(e) };
  }
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  let stack = parent;
  if (readIgnores) {
    // A nested repository (a submodule) is read by git with its own ignore files alone.
    if (entries.some((e) => e.name === ".git")) {
      stack = stack.nestedRepository();
      const exclude = readGitExclude(root, rel);
      if (exclude) stack = stack.with(exclude);
    }
    for (const e of entries) {
      if (!e.isFile || !IGNORE_FILE_NAMES.includes(e.name)) continue;
      let text = "";
      try {
        text = Deno.readTextFileSync(`${root}/${rel}/${e.name}`);
      } catch {
        // An unreadable ignore file ignores nothing, as in git.
      }
      stack = stack.with(IgnoreRules.parse(text, rel, `${rel}/${e.name}`));
    }
  }
  return { rel, stack, entries, next: 0 };
}

/** The event for one regular file: secret name, stat failure, size cap, or the file. */
function fileEvent(root: string, rel: string, maxBytes: number, stat: boolean): WalkEvent {
  const secret = isSecretName(rel);
  if (secret !== undefined) return { type: "skip", rel, reason: "secret", detail: secret };
  const path = `${root}/${rel}`;
  if (!stat) return { type: "file", path, rel, size: -1, mtimeMs: -1, ctimeMs: -1 };
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (e) {
    return { type: "skip", rel, reason: "unreadable", detail: errorText(e) };
  }
  if (info.size > maxBytes) {
    return { type: "skip", rel, reason: "too-large", detail: `${info.size} bytes > ${maxBytes}` };
  }
  return {
    type: "file",
    path,
    rel,
    size: info.size,
    mtimeMs: info.mtime?.getTime() ?? 0,
    ctimeMs: info.ctime?.getTime() ?? 0,
  };
}

const REPLACEMENT = "\uFFFD";

/** Why a name Deno could only decode with U+FFFD is passed over, and what to do. */
export const NOT_UTF8 =
  "file name is not valid UTF-8 (shown with \uFFFD), so it cannot be opened; rename it to index it";
