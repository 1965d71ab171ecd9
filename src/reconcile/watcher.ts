/** What the daemon asks the watcher Worker to watch. */
export interface WatchRequest {
  /** The roots, watched recursively. */
  roots: string[];
  /** Folders watched non-recursively (the hints folder). */
  extra: string[];
  /**
   * Folders whose events are dropped in the Worker (`$HEIMDALL_HOME` inside a
   * root: the daemon's own log and journal writes must not wake it).
   */
  exclude?: string[];
}

/**
 * How many events Deno holds for a watcher before its reader takes them: it
 * drops any more, silently (a bounded channel and `try_send`, see
 * denoland/deno#11373). Measured here: a writer of 3,000 files beside three
 * busy loops on two cores delivered events for 2,281 of them.
 */
export const BURST_EVENTS = 16;

/**
 * Events read at most this far apart count as one run. Deno can only have
 * dropped an event once {@link BURST_EVENTS} waited unread, and the reader then
 * takes them back to back, so a run that long is the sign of a possible loss
 * (a burst: a checkout, an install, a stalled Worker catching up).
 */
export const BURST_GAP_MS = 50;

/** What the watcher Worker reports. */
export type WatchMessage =
  | { type: "watching"; paths: string[] }
  | { type: "event"; kind: string; paths: string[]; rescan: boolean }
  /**
   * A run of {@link BURST_EVENTS} events under `paths`, repeated for every
   * further run as long: some events of it may have been dropped.
   */
  | { type: "burst"; paths: string[] }
  | { type: "error"; paths: string[]; message: string; limit: boolean };

/**
 * A recursive watch of the roots, in a Worker (see watcher_worker.ts). Events
 * are only ever hints: the reconciler stats whatever they name. Restart it
 * (stop, then start) when the roots change.
 */
export class Watcher {
  #worker: Worker | undefined;

  constructor(readonly onMessage: (m: WatchMessage) => void) {}

  /** Starts watching; returns at once, events arrive through `onMessage`. */
  start(request: WatchRequest): void {
    this.stop();
    const worker = new Worker(new URL("./watcher_worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (e: MessageEvent<WatchMessage>) => this.onMessage(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      this.onMessage({ type: "error", paths: request.roots, message: e.message, limit: false });
    };
    worker.postMessage(request);
    this.#worker = worker;
  }

  /** Ends the Worker, which gives every OS watch back. */
  stop(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
  }
}
