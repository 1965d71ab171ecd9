import assert from "node:assert/strict";
import { BULK_NICE, BULK_WORKER } from "../config/mod.ts";

/**
 * Starts Worker modules (`[module, name, first message]`, JSON in its second
 * argument) in a process of their own (a test process runs other modules'
 * threads too) and reports its threads' nice values before and after, read
 * by a shell: Deno lets only --allow-all read /proc/self.
 */
const PROBE = `
const nice = () => {
  const out = new Deno.Command("sh", {
    args: ["-c", \`for t in /proc/\${Deno.pid}/task/*; do echo "\\\${t##*/} $(cat $t/stat)"; done\`],
  }).outputSync();
  return Object.fromEntries(new TextDecoder().decode(out.stdout).trim().split("\\n").map((l) => [
    l.slice(0, l.indexOf(" ")),
    Number(l.slice(l.lastIndexOf(")") + 2).split(" ")[16]),
  ]));
};
const started = (module, name, message) => new Promise((resolve) => {
  const w = new Worker(new URL(module, Deno.args[0]), { type: "module", ...(name ? { name } : {}) });
  w.onmessage = () => resolve(w);
  w.postMessage(message);
});
const before = nice();
const workers = [];
for (const [module, name, message] of JSON.parse(Deno.args[1])) {
  workers.push(await started(module, name, message));
}
console.log(JSON.stringify({ pid: Deno.pid, before, after: nice() }));
for (const w of workers) w.terminate();
`;

/** The new threads at {@link BULK_NICE} once `workers` started, and the main thread's nice value. */
async function lowered(workers: [string, string, unknown][]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", PROBE, new URL("./", import.meta.url).href, JSON.stringify(workers)],
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const { pid, before, after } = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    pid: number;
    before: Record<string, number>;
    after: Record<string, number>;
  };
  return {
    lowered: Object.entries(after).filter(([tid, n]) => !(tid in before) && n === BULK_NICE).length,
    main: [before[String(pid)], after[String(pid)]],
  };
}

const PREPARE: [string, string, unknown] = ["./prepare_worker.ts", "", { id: 1, requests: [] }];
const RESOLVE: [string, string, unknown] = ["./resolve_worker.ts", "", { id: 1, owners: [] }];

Deno.test({
  name: "a one-shot index's parse Workers and the resolve Workers run below the writer's priority",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const r = await lowered([[PREPARE[0], BULK_WORKER, PREPARE[2]], RESOLVE]);
    // The two Workers' threads (and any thread they started, which inherits their value).
    assert.ok(r.lowered >= 2, `${r.lowered} threads at nice ${BULK_NICE}`);
    // The main thread (its id is the process id) keeps the writer's priority.
    assert.deepEqual(r.main, [0, 0]);
  },
});

Deno.test({
  name:
    "the daemon's parse Workers keep the writer's priority, so an edit never waits on a starved one",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const r = await lowered([PREPARE]);
    assert.equal(r.lowered, 0);
    assert.deepEqual(r.main, [0, 0]);
  },
});
