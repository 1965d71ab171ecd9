/// <reference lib="deno.worker" />
/**
 * Runs `Deno.watchFs` in its own Worker: when the OS watch limit is reached,
 * watchFs throws while keeping the watches it already took, and only ending
 * the Worker gives them back. Posts {@link WatchMessage}s to its parent.
 */
import { BurstCounter, type WatchMessage, type WatchRequest } from "./watcher.ts";

const post = (m: WatchMessage) => self.postMessage(m);

let exclude: string[] = [];

self.onmessage = (e: MessageEvent<WatchRequest>) => {
  const { roots, extra } = e.data;
  exclude = (e.data.exclude ?? []).map((d) => d.endsWith("/") ? d : d + "/");
  for (const dir of extra) watch([dir], false);
  // One recursive watcher for all roots; if that fails on the OS limit, try
  // each root alone so that the roots that fit are still watched.
  if (!watch(roots, true) && roots.length > 1) { for (const r of roots) watch([r], true); }
};

function watch(paths: string[], recursive: boolean): boolean {
  let watcher: Deno.FsWatcher;
  try {
    watcher = Deno.watchFs(paths, { recursive });
  } catch (e) {
    post({ type: "error", paths, message: (e as Error).message, limit: isLimit(e) });
    return false;
  }
  post({ type: "watching", paths });
  (async () => {
    // A burst (see BurstCounter) may mean Deno's queue was full and dropped
    // events, so the parent is told to audit.
    const watched = paths;
    const bursts = new BurstCounter();
    try {
      for await (const ev of watcher) {
        // The watched hints folder lies inside the home: its events pass.
        const paths = recursive ? ev.paths.filter((p) => !excluded(p)) : ev.paths;
        if (bursts.add(performance.now(), recursive && paths.length > 0)) {
          post({ type: "burst", paths: watched });
        }
        // "access" passes too: on Linux it is a file opened for writing being
        // closed (reads send nothing), the last event of a write, and the
        // one left when Deno dropped those before it.
        const rescan = ev.flag === "rescan";
        if (paths.length === 0 && !rescan) continue;
        post({ type: "event", kind: ev.kind, paths, rescan });
      }
    } catch (e) {
      post({ type: "error", paths, message: (e as Error).message, limit: isLimit(e) });
    }
  })();
  return true;
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
