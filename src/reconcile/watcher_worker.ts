/// <reference lib="deno.worker" />
/**
 * Runs `Deno.watchFs` in its own Worker: when the OS watch limit is reached,
 * watchFs throws while keeping the watches it already took, and only ending
 * the Worker gives them back. Posts {@link WatchMessage}s to its parent.
 */
import type { WatchMessage, WatchRequest } from "./watcher.ts";

const post = (m: WatchMessage) => self.postMessage(m);

self.onmessage = (e: MessageEvent<WatchRequest>) => {
  const { roots, extra } = e.data;
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
    try {
      for await (const ev of watcher) {
        if (ev.kind === "access") continue;
        post({ type: "event", kind: ev.kind, paths: ev.paths, rescan: ev.flag === "rescan" });
      }
    } catch (e) {
      post({ type: "error", paths, message: (e as Error).message, limit: isLimit(e) });
    }
  })();
  return true;
}

function isLimit(e: unknown): boolean {
  return /watch limit|ENOSPC|No space left|too many open files/i.test(
    String((e as Error)?.message),
  );
}
