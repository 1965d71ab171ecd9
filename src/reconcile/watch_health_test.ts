import assert from "node:assert/strict";
import { WATCH_HEALTHY_MS, WATCH_RETRY_MAX_MS, WatchHealth, watchRetryMs } from "./watch_health.ts";

const roots = (entries: [string, string | null][]) => new Map(entries);

Deno.test("watchRetryMs() doubles from 1 s and stops at the cap", () => {
  const cases: [number, number][] = [[0, 1000], [1, 1000], [2, 2000], [5, 16_000], [9, 256_000]];
  for (const [failures, ms] of cases) assert.equal(watchRetryMs(failures), ms, `${failures}`);
  assert.equal(watchRetryMs(10), WATCH_RETRY_MAX_MS);
  assert.equal(watchRetryMs(1000), WATCH_RETRY_MAX_MS);
});

Deno.test("WatchHealth counts a failure once per start, backs off while failures follow, and forgets them once a start stays up", () => {
  const h = new WatchHealth();
  h.started(0, roots([]));
  assert.equal(h.failed(100, "broke"), 1000);
  // The same watcher failing again (its other watch) does not count twice.
  assert.equal(h.failed(200, "broke again"), 900);
  assert.equal(h.failures(200), 1);
  assert.equal(h.restartDue(1099), false);
  assert.equal(h.restartDue(1100), true);
  h.started(1100, roots([]));
  assert.equal(h.restartDue(1100), false);
  // Failing soon after the restart: the second in a row waits twice as long.
  assert.equal(h.failed(2000, "broke"), 2000);
  assert.match(h.message(2000) ?? "", /failed 2 time\(s\) in a row, .*: broke; it is restarted at/);
  h.started(4000, roots([]));
  assert.match(h.message(4000) ?? "", /it was restarted, and a stat audit followed/);
  // Up long enough: forgotten, and the next failure starts the back-off again.
  assert.equal(h.message(4000 + WATCH_HEALTHY_MS), null);
  assert.equal(h.failures(4000 + WATCH_HEALTHY_MS), 0);
  assert.equal(h.failed(4000 + WATCH_HEALTHY_MS, "broke"), 1000);
});

Deno.test("WatchHealth: a probe is due only after a quiet spell, anything heard answers it, and an unanswered one is a stall", () => {
  const h = new WatchHealth({ probeEveryMs: 1000, probeTimeoutMs: 500 });
  assert.equal(h.probeDue(5000), false, "not started");
  h.started(0, roots([]));
  h.heard(400);
  assert.equal(h.probeDue(1399), false);
  assert.equal(h.probeDue(1400), true);
  h.probed(1400);
  assert.equal(h.probeDue(3000), false, "one probe at a time");
  // Any report after the probe proves the watcher alive (the probe's own
  // event may be among those Deno drops under load).
  h.heard(1450);
  assert.equal(h.stalled(5000), false);
  h.probed(2500);
  assert.equal(h.stalled(2999), false);
  assert.equal(h.untilNext(2800, 10_000), 200);
  assert.equal(h.stalled(3000), true);
  h.failed(3000, "stalled");
  assert.equal(h.stalled(9000), false, "a failed watcher waits for its restart, not for probes");
  assert.equal(h.probeDue(9000), false);
});

Deno.test("WatchHealth.compareRoots() finds a root made again, moved over, gone and back, or reported removed", () => {
  const h = new WatchHealth();
  h.started(0, roots([["/a", "1:10:5"], ["/b", "1:20:5"], ["/c", null]]));
  assert.deepEqual(h.compareRoots(roots([["/a", "1:10:5"], ["/b", "1:20:5"], ["/c", null]])), {
    replaced: [],
    gone: [],
  });
  // rm -rf /a && git clone …: the same inode number, born later.
  assert.deepEqual(h.compareRoots(roots([["/a", "1:10:9"], ["/b", null], ["/c", null]])), {
    replaced: ["/a"],
    gone: ["/b"],
  });
  // Reported once: /b stays gone; /c, missing at the start, appears.
  assert.deepEqual(h.compareRoots(roots([["/a", "1:10:9"], ["/b", null], ["/c", "1:30:1"]])), {
    replaced: ["/c"],
    gone: [],
  });
  assert.deepEqual(h.compareRoots(roots([["/a", "1:10:9"], ["/b", "1:20:5"], ["/c", "1:30:1"]])), {
    replaced: ["/b"],
    gone: [],
  });
  // The watcher saw /a removed: whatever is there now is another folder,
  // even one whose identity reads the same (no birth time kept).
  h.rootRemoved("/a");
  assert.deepEqual(h.compareRoots(roots([["/a", "1:10:9"], ["/b", "1:20:5"], ["/c", "1:30:1"]])), {
    replaced: ["/a"],
    gone: [],
  });
  // A root added since the start is the restart's business, not this check's.
  assert.deepEqual(h.compareRoots(roots([["/d", "1:40:1"]])), { replaced: [], gone: [] });
});
