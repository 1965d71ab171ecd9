import assert from "node:assert/strict";
import { join } from "node:path";
import { homePaths } from "../config/mod.ts";
import { createExtractor } from "../extract/mod.ts";
import { getMeta, Journal } from "../store/mod.ts";
import { type DaemonEnd, type DaemonOptions, runDaemon, WATCH_LIMIT_KEY } from "./daemon.ts";
import { Watcher, type WatchMessage } from "./watcher.ts";
import { WriterLock } from "./lock.ts";
import { waitFor } from "../../tests/helpers.ts";

function indexedPaths(journal: string): string[] {
  try {
    const j = Journal.open(journal, { readOnly: true });
    try {
      return j.all<{ rel: string }>("SELECT rel FROM paths ORDER BY rel").map((r) => r.rel);
    } finally {
      j.close();
    }
  } catch {
    return []; // not created yet
  }
}

/**
 * A temp folder holding a root `proj` (one file, `a.ts`) and a private home
 * whose config watches it, with the timed audit an hour away: only the
 * watcher (or what a test makes it say) brings changes in.
 */
function projectWithHome(
  { homeInRoot = false } = {},
): { base: string; root: string; home: ReturnType<typeof homePaths> } {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-daemon-" });
  const root = join(base, "proj");
  const home = homePaths(join(homeInRoot ? root : base, "home"));
  Deno.mkdirSync(root);
  Deno.mkdirSync(home.home, { mode: 0o700 });
  Deno.writeTextFileSync(join(root, "a.ts"), "export function alpha() {}\n");
  Deno.writeTextFileSync(
    home.config,
    JSON.stringify({ roots: [{ path: root, depth: "max" }], auditIntervalSeconds: 3600 }),
    { mode: 0o600 },
  );
  return { base, root, home };
}

Deno.test("a file changed before the watcher's watches are in place is indexed, and ready waits for that", async () => {
  const { base, root, home } = projectWithHome();
  // The real watcher, whose reports are held back until `release`: until
  // then the daemon runs as if the Worker had not yet taken its watches,
  // and what changes meanwhile sends it no event.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let ready = false;
  const daemon = runDaemon({
    home,
    extractor: createExtractor(),
    log: { info: () => {}, warn: () => {} },
    stop: stopped,
    pollMs: 50,
    onReady: () => (ready = true),
    watcher: (onMessage) => {
      let open = false;
      void released.then(() => (open = true));
      return new Watcher((m: WatchMessage) => {
        if (open) onMessage(m);
        else if (m.type === "watching") void released.then(() => onMessage(m));
      });
    },
  });
  try {
    await waitFor(() => indexedPaths(home.journal).includes("a.ts"), 30_000, "the first audit");
    Deno.writeTextFileSync(join(root, "b.ts"), "export function beta() {}\n");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(ready, false, "ready before the watches were in place");
    release();
    await waitFor(() => indexedPaths(home.journal).includes("b.ts"), 30_000, "b.ts indexed");
    await waitFor(() => ready, 30_000, "ready");
  } finally {
    stop();
    await daemon;
    Deno.removeSync(base, { recursive: true });
  }
});

/**
 * The daemon in this process over `home`, polling every 50 ms, with the real
 * watcher or the one `watcher` makes; what it logs (info and warnings) goes
 * to `infos`.
 */
function inProcessDaemon(
  home: ReturnType<typeof homePaths>,
  watcher?: DaemonOptions["watcher"],
  burstMaxWaitMs?: number,
  watchHealth?: DaemonOptions["watchHealth"],
): { daemon: Promise<DaemonEnd>; stop: () => void; ready: () => boolean; infos: string[] } {
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let ready = false;
  const infos: string[] = [];
  const daemon = runDaemon({
    home,
    extractor: createExtractor(),
    log: { info: (m) => infos.push(m), warn: (m) => infos.push(m) },
    stop: stopped,
    pollMs: 50,
    onReady: () => (ready = true),
    ...(watcher ? { watcher } : {}),
    ...(burstMaxWaitMs !== undefined ? { burstMaxWaitMs } : {}),
    ...(watchHealth ? { watchHealth } : {}),
  });
  return { daemon, stop, ready: () => ready, infos };
}

/** The real watcher, losing every event of the `lost_` files the way Deno drops what overflows its queue. */
function losingWatcher(onMessage: (m: WatchMessage) => void): Watcher {
  return new Watcher((m: WatchMessage) => {
    if (m.type === "event" && m.paths.some((p) => p.includes("lost_"))) return;
    onMessage(m);
  });
}

Deno.test("files whose events a burst lost are found by the audit that follows the burst", async () => {
  const { base, root, home } = projectWithHome();
  // Only the burst report can bring the `lost_` files in.
  const { daemon, stop, ready, infos } = inProcessDaemon(home, losingWatcher);
  try {
    await waitFor(ready, 30_000, "ready");
    const names = Array.from({ length: 20 }, (_, i) => [`kept_${i}.ts`, `lost_${i}.ts`]).flat();
    for (const name of names) {
      Deno.writeTextFileSync(join(root, name), `export function f_${name.slice(0, -3)}() {}\n`);
    }
    const want = ["a.ts", ...names].sort();
    await waitFor(
      () => indexedPaths(home.journal).join() === want.join(),
      30_000,
      "every file of the burst indexed",
    );
    assert.ok(infos.some((m) => /a burst of file events under .*a stat audit follows/.test(m)));
  } finally {
    stop();
    await daemon;
    Deno.removeSync(base, { recursive: true });
  }
});

/** Once the daemon is ready, writes `lost_1.ts` (whose events the watcher loses) and waits for the burst's audit to index it. */
async function lostEditFound(
  root: string,
  home: ReturnType<typeof homePaths>,
  ready: () => boolean,
  infos: string[],
  when: string,
): Promise<void> {
  await waitFor(ready, 30_000, "ready");
  Deno.writeTextFileSync(join(root, "lost_1.ts"), "export function lost() {}\n");
  await waitFor(
    () => indexedPaths(home.journal).includes("lost_1.ts"),
    30_000,
    `the lost edit indexed ${when}`,
  );
  assert.ok(infos.some((m) => m.startsWith("a burst")), infos.join("\n"));
}

Deno.test("a home inside a root read without pause sends the watcher nothing: an edit gets through with no burst", async () => {
  // The home is kept out of every OS watch (watchPlan): each read of the
  // journal wrote events on its WAL, in the root, and Deno opened and closed
  // the journal's files to report them, dropping the daemon's SQLite locks.
  const { base, root, home } = projectWithHome({ homeInRoot: true });
  const { daemon, stop, ready, infos } = inProcessDaemon(home, (m) => new Watcher(m), 600_000);
  let polling = true;
  const poller = (async () => {
    while (polling) {
      indexedPaths(home.journal);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    await waitFor(ready, 30_000, "ready");
    await new Promise((r) => setTimeout(r, 500));
    Deno.writeTextFileSync(join(root, "b.ts"), "export function beta() {}\n");
    await waitFor(
      () => indexedPaths(home.journal).includes("b.ts"),
      30_000,
      "the edit indexed while the journal is read",
    );
    assert.ok(!infos.some((m) => m.startsWith("a burst")), infos.join("\n"));
  } finally {
    polling = false;
    await poller;
    stop();
    await daemon;
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("bursts that never pause put the audit off at most burstMaxWaitMs", async () => {
  const { base, root, home } = projectWithHome();
  // A writer in the root that never pauses: a burst every 100 ms.
  let timer: ReturnType<typeof setInterval> | undefined;
  const { daemon, stop, ready, infos } = inProcessDaemon(home, (onMessage) => {
    const w = losingWatcher(onMessage);
    timer = setInterval(() => onMessage({ type: "burst", paths: [root] }), 100);
    return w;
  }, 1500);
  try {
    await lostEditFound(root, home, ready, infos, "while bursts go on");
  } finally {
    clearInterval(timer);
    stop();
    await daemon;
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("a home inside a root: the daemon's own journal writes never start burst audits", async () => {
  const { base, root, home } = projectWithHome({ homeInRoot: true });
  // Enough files that indexing them writes the journal (inside the root) in many pages.
  for (let i = 0; i < 300; i++) {
    Deno.writeTextFileSync(join(root, `f_${i}.ts`), `export function f${i}() { return ${i}; }\n`);
  }
  const { daemon, stop, ready, infos } = inProcessDaemon(home);
  try {
    await waitFor(ready, 30_000, "ready");
    // A burst of the user's edits: one audit follows it.
    for (let i = 0; i < 300; i++) {
      Deno.writeTextFileSync(join(root, `f_${i}.ts`), `export function g${i}() { return ${i}; }\n`);
    }
    await waitFor(() => infos.some((m) => m.startsWith("a burst")), 30_000, "the burst noticed");
    const audits = () => infos.filter((m) => m.startsWith("audit:")).length;
    await waitFor(() => audits() >= 3, 30_000, "the audit after the burst");
    // That audit and the pass before it wrote the journal; nothing else may follow.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(audits(), 3, infos.join("\n"));
    assert.equal(infos.filter((m) => m.startsWith("a burst")).length, 1, infos.join("\n"));
  } finally {
    stop();
    await daemon;
    Deno.removeSync(base, { recursive: true });
  }
});

/** What `status` shows about the watcher (the meta row the daemon keeps), or null. */
function watcherStatus(journal: string): string | null {
  try {
    const j = Journal.open(journal, { readOnly: true });
    try {
      return getMeta(j, WATCH_LIMIT_KEY) ?? null;
    } finally {
      j.close();
    }
  } catch {
    return null;
  }
}

Deno.test("a watch whose stream breaks is started again after a back-off, an audit finds what changed meanwhile, and status says so", async () => {
  const { base, root, home } = projectWithHome();
  // The real watcher, whose first Worker dies once its watches are in place,
  // as a watch does when its stream throws.
  let starts = 0;
  const breaking: DaemonOptions["watcher"] = (onMessage) => {
    let real: Watcher | undefined;
    return {
      start(request) {
        real?.stop();
        const first = ++starts === 1;
        const w: Watcher = new Watcher((m) => {
          onMessage(m);
          if (first && m.type === "watching" && m.paths.includes(root)) {
            w.stop();
            onMessage({
              type: "error",
              paths: [root],
              message: "the stream broke",
              limit: false,
              ended: true,
              notFound: false,
            });
          }
        });
        real = w;
        w.start(request);
      },
      stop: () => real?.stop(),
    };
  };
  const { daemon, stop, ready, infos } = inProcessDaemon(home, breaking);
  try {
    await waitFor(ready, 30_000, "ready");
    Deno.writeTextFileSync(join(root, "b.ts"), "export function beta() {}\n");
    // The timed audit is an hour away: only a watcher started again brings these in.
    await waitFor(() => indexedPaths(home.journal).includes("b.ts"), 30_000, "b.ts indexed");
    assert.equal(starts, 2, infos.join("\n"));
    assert.ok(
      infos.some((m) => /live watching failed \(1 in a row\).*the stream broke/.test(m)),
      infos.join("\n"),
    );
    assert.match(watcherStatus(home.journal) ?? "", /live watching failed 1 time\(s\) in a row/);
    await new Promise((r) => setTimeout(r, 300));
    Deno.writeTextFileSync(join(root, "c.ts"), "export function gamma() {}\n");
    await waitFor(() => indexedPaths(home.journal).includes("c.ts"), 10_000, "c.ts indexed live");
  } finally {
    stop();
    await daemon;
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test({
  name:
    "a FIFO in a root stalls Deno's watcher: the probe finds it, the watcher is started again, status says so, and edits get through",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const { base, root, home } = projectWithHome();
    const { daemon, stop, ready, infos } = inProcessDaemon(home, undefined, undefined, {
      probeEveryMs: 500,
      probeTimeoutMs: 1000,
    });
    const fifo = join(root, "pipe");
    try {
      await waitFor(ready, 30_000, "ready");
      // Deno opens the path of every event it reports, and opening a FIFO
      // for reading waits for a writer: the Worker's watches all stop.
      assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
      await new Promise((r) => setTimeout(r, 300));
      Deno.writeTextFileSync(join(root, "b.ts"), "export function beta() {}\n");
      await waitFor(() => indexedPaths(home.journal).includes("b.ts"), 30_000, "b.ts indexed");
      // The cause (a thread waiting in the kernel to open a FIFO) is named
      // when /proc shows it at that instant; the probe's finding always is.
      assert.ok(
        infos.some((m) => /live watching failed .*probe/.test(m)),
        infos.join("\n"),
      );
      assert.match(watcherStatus(home.journal) ?? "", /reported nothing|FIFO \(named pipe\)/);
      await new Promise((r) => setTimeout(r, 300));
      Deno.writeTextFileSync(join(root, "c.ts"), "export function gamma() {}\n");
      await waitFor(() => indexedPaths(home.journal).includes("c.ts"), 10_000, "c.ts indexed");
    } finally {
      // Frees the stalled watcher's thread, which waits to open the FIFO: a
      // writer comes, and the FIFO is gone before that writer closes (its
      // close is an event too, whose path no longer opens).
      try {
        const f = Deno.openSync(fifo, { read: true, write: true });
        Deno.removeSync(fifo);
        f.close();
      } catch { /* not made */ }
      stop();
      await daemon;
      Deno.removeSync(base, { recursive: true });
    }
  },
});

Deno.test({
  name: "the watcher's probe in the hints folder is private (0600), as every file of the home",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const { base, home } = projectWithHome();
    const { daemon, stop, ready } = inProcessDaemon(home, undefined, undefined, {
      probeEveryMs: 200,
      probeTimeoutMs: 5000,
    });
    const umask = Deno.umask(0o022);
    try {
      await waitFor(ready, 30_000, "ready");
      const probe = join(home.hints, ".watch-probe");
      await waitFor(
        () => {
          try {
            return Deno.statSync(probe).isFile;
          } catch {
            return false;
          }
        },
        30_000,
        "the probe written",
      );
      assert.equal(Deno.statSync(probe).mode! & 0o777, 0o600);
    } finally {
      Deno.umask(umask);
      stop();
      await daemon;
      Deno.removeSync(base, { recursive: true });
    }
  },
});

Deno.test("a daemon hands over once its replaced code has stopped changing, the writer lock released", async () => {
  const { base, home } = projectWithHome();
  // While `writing`, an upgrade is still being written: each look finds other code.
  let writing = false;
  let stamp = 1;
  let looks = 0;
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let ready = false;
  const logs: string[] = [];
  const daemon = runDaemon({
    home,
    extractor: createExtractor(),
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(m) },
    stop: stopped,
    pollMs: 20,
    onReady: () => (ready = true),
    codeStamp: () => {
      looks++;
      return writing ? ++stamp : stamp;
    },
    codeCheckMs: 30,
  });
  const running = () =>
    Promise.race([daemon, new Promise((r) => setTimeout(() => r("running"), 0))]);
  try {
    await waitFor(() => ready, 30_000, "ready");
    writing = true;
    const from = looks;
    await waitFor(() => looks >= from + 10, 30_000, "ten looks while the code is written");
    assert.equal(await running(), "running", `handed over mid-write: ${logs.join("\n")}`);
    writing = false;
    assert.equal(await daemon, "code replaced");
    assert.ok(logs.some((m) => /changed on disk \(an upgrade\)/.test(m)), logs.join("\n"));
    const lock = await WriterLock.acquire(home, undefined, "daemon");
    lock.release();
  } finally {
    stop();
    await daemon;
    Deno.removeSync(base, { recursive: true });
  }
});
