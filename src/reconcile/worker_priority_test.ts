import assert from "node:assert/strict";
import { BULK_NICE } from "../config/mod.ts";

/**
 * The nice value of each thread of this process, by thread id (Linux), read
 * by a child process: Deno lets only --allow-all read /proc/self.
 */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  const read = new Deno.Command("sh", {
    args: ["-c", `for t in /proc/${Deno.pid}/task/*; do echo "\${t##*/} $(cat $t/stat)"; done`],
  }).outputSync();
  for (const line of new TextDecoder().decode(read.stdout).trim().split("\n")) {
    const tid = Number(line.slice(0, line.indexOf(" ")));
    // Fields after the parenthesised name: state is the 1st, nice the 17th.
    out.set(tid, Number(line.slice(line.lastIndexOf(")") + 2).split(" ")[16]));
  }
  return out;
}

/** Starts `module` as a Worker and waits for its answer to `message` (it has loaded by then). */
async function started(module: string, message: unknown): Promise<Worker> {
  const worker = new Worker(new URL(module, import.meta.url), { type: "module" });
  await new Promise((resolve) => {
    worker.onmessage = resolve;
    worker.postMessage(message);
  });
  return worker;
}

Deno.test({
  name: "the parse and resolve Workers run at a lower priority than the writer's thread",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const before = niceByThread();
    const workers = [
      await started("./prepare_worker.ts", { id: 1, requests: [] }),
      await started("./resolve_worker.ts", { id: 1, owners: [] }),
    ];
    try {
      const after = niceByThread();
      const added = [...after].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
      assert.equal(added.filter((n) => n === BULK_NICE).length, 2, `new threads: ${added}`);
      // The main thread (its id is the process id) keeps the writer's priority.
      assert.equal(after.get(Deno.pid), before.get(Deno.pid));
      assert.ok([...after].every(([, n]) => n === BULK_NICE || n === before.get(Deno.pid)));
    } finally {
      for (const w of workers) w.terminate();
    }
  },
});
