/// <reference lib="deno.worker" />
/**
 * Runs `Deno.watchFs` in its own Worker: when the OS watch limit is reached,
 * watchFs throws while keeping the watches it already took, and only ending
 * the Worker gives them back. Posts {@link WatchMessage}s to its parent.
 */
import {
  BurstCounter,
  linksOut,
  subfolders,
  type WatchMessage,
  watchPlan,
  type WatchRequest,
} from "./watcher.ts";

const post = (m: WatchMessage) => self.postMessage(m);

let exclude: string[] = [];
/** Folders watched alone because an excluded folder lies below them (see `watchPlan`). */
let flat = new Set<string>();
/**
 * Folders this process may not list (another user's, mode 700: a database's
 * volume in a repository), left out of the watch: Deno's recursive watch of
 * a folder above one fails whole. Watched once an event says one changed
 * and it can be listed.
 */
let unlisted = new Set<string>();
/** The roots of the last request, to tell a link out of its root (see `linksOut`). */
let roots: string[] = [];

/**
 * The plan for `dirs` (the roots, or folders inside them) with the links
 * out of their root left unwatched, as excluded folders are, and `more`.
 */
function planOf(dirs: readonly string[], more: readonly string[] = []) {
  const links = dirs.flatMap((d) => {
    const root = roots.find((r) => d === r || d.startsWith(r.replace(/\/+$/, "") + "/")) ?? d;
    return linksOut(d, root, exclude);
  });
  return watchPlan(dirs, [...exclude, ...more, ...links]);
}

self.onmessage = (e: MessageEvent<WatchRequest>) => {
  const { extra } = e.data;
  roots = e.data.roots;
  exclude = (e.data.exclude ?? []).map((d) => d.endsWith("/") ? d : d + "/");
  for (const dir of extra) watch([dir], false);
  const plan = planOf(roots);
  flat = new Set(plan.flat);
  unlisted = new Set();
  for (const dir of plan.flat) watch([dir], false, true);
  // One recursive watcher for all roots; if that fails on the OS limit, try
  // each root alone so that the roots that fit are still watched.
  const whole = plan.recursive;
  if (whole.length > 0 && !watch(whole, true) && whole.length > 1) {
    for (const r of whole) watch([r], true);
  }
};

/**
 * A folder made inside a folder watched alone is watched whole from then on
 * (unless excluded, or holding an excluded folder: then as `watchPlan` says),
 * and so is a folder left out because it could not be listed, once an
 * event names it (a chmod) and it can.
 */
function watchNewFolders(paths: readonly string[], kind: Deno.FsEvent["kind"]): void {
  for (const p of paths) {
    const parent = p.slice(0, p.lastIndexOf("/"));
    if (!flat.has(parent) || flat.has(p) || excluded(p)) continue;
    if (unlisted.has(p)) {
      if (!listable(p)) continue;
      unlisted.delete(p);
    } else if (kind !== "create") continue;
    if (!subfolders(parent).includes(p)) continue;
    const plan = planOf([p]);
    for (const dir of plan.flat) {
      flat.add(dir);
      watch([dir], false, true);
    }
    if (plan.recursive.length > 0) watch(plan.recursive, true);
  }
}

/**
 * How many events may fail to be read within a second, with none read,
 * before a watch counts as broken: an event naming a file whose name is not
 * UTF-8 throws and the watch goes on after it (a program writing to such a
 * file throws once per write), but a watch that throws as fast as it is
 * asked is not watching.
 */
const UNREADABLE_PER_SECOND_MAX = 10_000;

function watch(paths: string[], recursive: boolean, inRoot = recursive): boolean {
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(paths, { recursive });
  } catch (e) {
    // One folder below that cannot be listed fails the whole recursive watch:
    // every edit of the root would wait for an audit. Watch around it instead.
    if (recursive && e instanceof Deno.errors.PermissionDenied && watchAround(paths)) return true;
    post(failure(paths, e, true));
    return false;
  }
  post({ type: "watching", paths });
  (async () => {
    // A burst (see BurstCounter) may mean Deno's queue was full and dropped
    // events, so the parent is told to audit.
    const watched = paths;
    const bursts = new BurstCounter();
    // Read by hand, not with `for await`: a throw from the iterator ends a
    // `for await` loop, which closes the watch, and Deno throws for one
    // event it cannot hand over (a path that is not UTF-8) while the watch
    // itself goes on.
    const events = watcher[Symbol.asyncIterator]();
    let unreadable = 0;
    let since = performance.now();
    for (;;) {
      let next: IteratorResult<Deno.FsEvent>;
      try {
        next = await events.next();
      } catch (e) {
        if (performance.now() - since > 1000) [unreadable, since] = [0, performance.now()];
        if (e instanceof Deno.errors.BadResource || ++unreadable > UNREADABLE_PER_SECOND_MAX) {
          post(failure(watched, e, true));
          return;
        }
        // The OS limit met by a folder made later: the rest is still watched.
        if (isLimit(e)) post(failure(watched, e, false));
        else post({ type: "lost", paths: watched, message: (e as Error).message });
        continue;
      }
      [unreadable, since] = [0, performance.now()];
      if (next.done) {
        post({
          type: "error",
          paths: watched,
          message: "the watch ended",
          limit: false,
          ended: true,
          notFound: false,
        });
        return;
      }
      const ev = next.value;
      // The watched hints folder lies inside the home: its events pass.
      const paths = inRoot ? ev.paths.filter((p) => !excluded(p)) : ev.paths;
      if (bursts.add(performance.now(), inRoot && paths.length > 0)) {
        post({ type: "burst", paths: watched });
      }
      if (!recursive && inRoot) watchNewFolders(paths, ev.kind);
      // "access" passes too: on Linux it is a file opened for writing being
      // closed (reads send nothing), the last event of a write, and the
      // one left when Deno dropped those before it.
      const rescan = ev.flag === "rescan";
      if (paths.length === 0 && !rescan) continue;
      post({ type: "event", kind: ev.kind, paths, rescan });
    }
  })();
  return true;
}

/**
 * Watches `paths` (recursively) but for the folders below them that cannot
 * be listed, as `watchPlan` watches around an excluded folder: the folders
 * on the way to one alone, every other one whole. False when none was found
 * (the watch failed for another reason). Cost: one listing per folder below.
 */
function watchAround(paths: readonly string[]): boolean {
  const found = paths.flatMap(unlistableBelow);
  if (found.length === 0) return false;
  for (const dir of found) unlisted.add(dir);
  const plan = planOf(paths, found);
  for (const dir of plan.flat) {
    flat.add(dir);
    watch([dir], false, true);
  }
  return plan.recursive.length === 0 || watch(plan.recursive, true);
}

/** The folders below `dir` (not following links, not excluded) that cannot be listed. */
function unlistableBelow(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(d)];
    } catch (e) {
      if (e instanceof Deno.errors.PermissionDenied && d !== dir) out.push(d);
      continue;
    }
    for (const e of entries) {
      const sub = `${d}/${e.name}`;
      if (e.isDirectory && !excluded(sub)) stack.push(sub);
    }
  }
  return out.sort();
}

/** True when `dir` can be listed now. */
function listable(dir: string): boolean {
  try {
    Deno.readDirSync(dir).next();
    return true;
  } catch {
    return false;
  }
}

/** The report of a watch that failed: to start (or, `ended`, for good), or on the OS limit. */
function failure(paths: string[], e: unknown, ended: boolean): WatchMessage {
  return {
    type: "error",
    paths,
    message: (e as Error)?.message ?? String(e),
    limit: isLimit(e),
    ended,
    notFound: e instanceof Deno.errors.NotFound,
  };
}

/** True when `path` is an excluded folder or lies inside one. */
function excluded(path: string): boolean {
  return exclude.some((d) => path.startsWith(d) || path + "/" === d);
}

function isLimit(e: unknown): boolean {
  return /watch limit|ENOSPC|No space left|too many open files/i.test(
    String((e as Error)?.message),
  );
}
