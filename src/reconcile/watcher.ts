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

/** What the watcher Worker reports. */
export type WatchMessage =
  | { type: "watching"; paths: string[] }
  | { type: "event"; kind: string; paths: string[]; rescan: boolean }
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
