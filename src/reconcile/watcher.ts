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

/** What to hand `Deno.watchFs`: folders watched with their subfolders, and folders watched alone. */
export interface WatchPlan {
  recursive: string[];
  flat: string[];
}

/**
 * Which folders to watch so that no excluded folder is watched at all
 * (reads the folders on the way to each excluded one). A root holding no
 * excluded folder is watched whole. One that does is watched alone, as is
 * every folder between it and the excluded one, and every other subfolder
 * of those is watched whole. The home must stay out of every watch, not
 * only out of the events passed on: for each event Deno opens the path to
 * compare it with the watched ones and closes it again, and closing any
 * descriptor of the journal drops every SQLite lock this process holds on
 * it (POSIX locks belong to the process). Another process's connection then
 * finds the journal unused and truncates its shared memory under the
 * daemon, which dies of SIGBUS (measured with strace on `converge_test`).
 *
 * @example
 * ```ts
 * import { watchPlan } from "./watcher.ts";
 * import assert from "node:assert/strict";
 * const root = Deno.makeTempDirSync();
 * for (const d of ["src", "home/logs", "docs"]) Deno.mkdirSync(`${root}/${d}`, { recursive: true });
 * const plan = watchPlan([root], [`${root}/home`]);
 * assert.deepEqual(plan.flat, [root]);
 * assert.deepEqual(plan.recursive.sort(), [`${root}/docs`, `${root}/src`]);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function watchPlan(roots: readonly string[], exclude: readonly string[]): WatchPlan {
  const plan: WatchPlan = { recursive: [], flat: [] };
  const strip = (p: string) => p.replace(/\/+$/, "");
  const out = exclude.map(strip);
  const holdsExcluded = (dir: string) => out.some((e) => e.startsWith(dir + "/"));
  const visit = (dir: string) => {
    if (out.includes(dir)) return;
    if (!holdsExcluded(dir)) {
      plan.recursive.push(dir);
      return;
    }
    plan.flat.push(dir);
    for (const sub of subfolders(dir)) visit(sub);
  };
  for (const root of roots) visit(strip(root));
  return plan;
}

/**
 * The links to folders below `dir` (itself inside `root`) that a watch must
 * not follow: those leading out of `root` (`ext -> /`, `data -> /mnt/big`)
 * and those leading to an excluded folder or to one that holds or lies in
 * one (`up -> ..` above a home kept in the root). `Deno.watchFs` follows
 * links when it starts a recursive watch (not ones made later): through
 * such a link it would watch folders no root holds (the whole disk for a
 * link to `/`), fail whole on one of them it may not list, or watch the
 * home. Hand them to {@link watchPlan} as excluded folders. Links within
 * the root are left alone (they lead to folders watched anyway), unless the
 * folder they lead to holds a link out. Cost: one listing per folder below
 * `dir` (not in excluded ones), a few stats per link.
 *
 * @example
 * ```ts
 * import { linksOut } from "./watcher.ts";
 * import assert from "node:assert/strict";
 * const base = Deno.realPathSync(Deno.makeTempDirSync());
 * for (const d of ["root/src", "root/docs", "outside"]) {
 *   Deno.mkdirSync(`${base}/${d}`, { recursive: true });
 * }
 * Deno.symlinkSync(`${base}/outside`, `${base}/root/src/ext`);
 * // Within the root: to a folder holding a link out, and to one that does not.
 * Deno.symlinkSync(`${base}/root/src`, `${base}/root/same`);
 * Deno.symlinkSync(`${base}/root/docs`, `${base}/root/manual`);
 * assert.deepEqual(linksOut(`${base}/root`, `${base}/root`, []), [
 *   `${base}/root/same`,
 *   `${base}/root/src/ext`,
 * ]);
 * Deno.removeSync(base, { recursive: true });
 * ```
 */
export function linksOut(dir: string, root: string, exclude: readonly string[]): string[] {
  const strip = (p: string) => p.replace(/\/+$/, "");
  const out = exclude.map(strip);
  const within = (p: string, d: string) => p === d || p.startsWith(d + "/");
  let realRoot: string;
  try {
    realRoot = Deno.realPathSync(root);
  } catch {
    return [];
  }
  // Every link to a folder: where it is (as named, and really), and where it leads.
  const links: { at: string; realAt: string; target: string }[] = [];
  const stack = [strip(dir)];
  while (stack.length > 0) {
    const d = stack.pop()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(d)];
    } catch {
      continue;
    }
    let realD: string | undefined;
    for (const e of entries) {
      const sub = `${d}/${e.name}`;
      if (out.some((x) => within(sub, x))) continue;
      if (e.isDirectory) stack.push(sub);
      if (!e.isSymlink) continue;
      try {
        const target = Deno.realPathSync(sub);
        if (Deno.statSync(target).isDirectory) {
          realD ??= Deno.realPathSync(d);
          links.push({ at: sub, realAt: `${realD}/${e.name}`, target });
        }
      } catch { /* a dangling link, or a loop: nothing to follow */ }
    }
  }
  const found = new Set(
    links.filter((l) =>
      !within(l.target, realRoot) || out.some((x) => within(l.target, x) || within(x, l.target))
    ),
  );
  // A link within the root to a folder holding a link out leads out too.
  for (let grew = true; grew;) {
    grew = false;
    for (const l of links) {
      if (found.has(l) || ![...found].some((o) => within(o.realAt, l.target))) continue;
      found.add(l);
      grew = true;
    }
  }
  return [...found].map((l) => l.at).sort();
}

/** The folders directly inside `dir` (not following links), sorted; none when it cannot be read. */
export function subfolders(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter((e) => e.isDirectory).map((e) => `${dir}/${e.name}`)
      .sort();
  } catch {
    return [];
  }
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

/**
 * Tells, event by event, when a run of events read back to back may have
 * lost some (pure; the watcher Worker feeds it every event it reads). A run
 * is events at most {@link BURST_GAP_MS} apart; each {@link BURST_EVENTS}-th
 * event of a run is a burst when one of the last {@link BURST_EVENTS}
 * events was a root's. Events of the home alone never are (a home inside a
 * root: the daemon's journal writes, or a reader polling the journal, whose
 * WAL events can keep a run going for as long as it polls): otherwise one
 * edit read among them would repeat the burst, and push the audit that
 * follows it back, for as long as the run lasted.
 *
 * @example
 * ```ts
 * import { BurstCounter } from "./watcher.ts";
 * import assert from "node:assert/strict";
 * const c = new BurstCounter();
 * const bursts = (n: number, at: (i: number) => number, root: (i: number) => boolean) =>
 *   Array.from({ length: n }, (_, i) => c.add(at(i), root(i))).filter(Boolean).length;
 * // One edit, then the home's own events 10 ms apart: one burst, not one per 16.
 * assert.equal(bursts(64, (i) => i * 10, (i) => i === 0), 1);
 * // A checkout, every event a root's: a burst at each 16th.
 * assert.equal(bursts(64, (i) => 1000 + i, () => true), 4);
 * ```
 */
export class BurstCounter {
  #run = 0;
  #lastRoot = -Infinity;
  #last = -Infinity;

  /** Counts an event read at `now` (ms); true when it completes a burst. */
  add(now: number, fromRoot: boolean): boolean {
    if (now - this.#last > BURST_GAP_MS) [this.#run, this.#lastRoot] = [0, -Infinity];
    this.#last = now;
    this.#run++;
    if (fromRoot) this.#lastRoot = this.#run;
    return this.#run % BURST_EVENTS === 0 && this.#run - this.#lastRoot < BURST_EVENTS;
  }
}

/** What the watcher Worker reports. */
export type WatchMessage =
  | { type: "watching"; paths: string[] }
  | { type: "event"; kind: string; paths: string[]; rescan: boolean }
  /**
   * A run of {@link BURST_EVENTS} events under `paths`, repeated for every
   * further run as long: some events of it may have been dropped.
   */
  | { type: "burst"; paths: string[] }
  /**
   * An event under `paths` that Deno could not hand over (it names a file
   * whose name is not UTF-8), skipped; the watch goes on. What it named,
   * and any other path in it (a rename's other side), is the audit's.
   */
  | { type: "lost"; paths: string[]; message: string }
  /**
   * A watch of `paths` that failed. `ended`: it watches nothing now (it
   * never started, or its stream broke); otherwise the OS limit was met by
   * a folder made later, and the rest is still watched. `limit`: the OS
   * watch limit; `notFound`: a folder to watch does not exist.
   */
  | {
    type: "error";
    paths: string[];
    message: string;
    limit: boolean;
    ended: boolean;
    notFound: boolean;
  };

/**
 * A recursive watch of the roots, in a Worker (see watcher_worker.ts). Events
 * are only ever hints: the reconciler stats whatever they name. Restart it
 * (stop, then start) when the roots change, or when it failed (the daemon's
 * `WatchSupervisor` does).
 */
export class Watcher {
  #worker: Worker | undefined;

  constructor(readonly onMessage: (m: WatchMessage) => void) {}

  /** Starts watching; returns at once, events arrive through `onMessage`. */
  start(request: WatchRequest): void {
    this.stop();
    const worker = new Worker(new URL("./watcher_worker.ts", import.meta.url), { type: "module" });
    // A report a stopped Worker sent before it ended is about watches that
    // are gone: only the running Worker's count.
    worker.onmessage = (e: MessageEvent<WatchMessage>) => {
      if (this.#worker === worker) this.onMessage(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      if (this.#worker !== worker) return;
      this.onMessage({
        type: "error",
        paths: request.roots,
        message: e.message,
        limit: false,
        ended: true,
        notFound: false,
      });
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
