import assert from "node:assert/strict";
import { BULK_NICE } from "../config/mod.ts";

/**
 * Starts the parse and resolve Worker modules in a process of their own (a
 * test process runs other modules' threads too) and reports its threads'
 * nice values before and after, read by a shell: Deno lets only
 * --allow-all read /proc/self.
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
const started = (module, message) => new Promise((resolve) => {
  const w = new Worker(new URL(module, Deno.args[0]), { type: "module" });
  w.onmessage = () => resolve(w);
  w.postMessage(message);
});
const before = nice();
const workers = [
  await started("./prepare_worker.ts", { id: 1, requests: [] }),
  await started("./resolve_worker.ts", { id: 1, owners: [] }),
];
console.log(JSON.stringify({ pid: Deno.pid, before, after: nice() }));
for (const w of workers) w.terminate();
`;

Deno.test({
  name: "the parse and resolve Workers run at a lower priority than the writer's thread",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", PROBE, new URL("./", import.meta.url).href],
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
    const lowered = Object.entries(after).filter(([tid, n]) => !(tid in before) && n === BULK_NICE);
    // The two Workers' threads (and any thread they started, which inherits their value).
    assert.ok(lowered.length >= 2, `threads at nice ${BULK_NICE}: ${JSON.stringify(after)}`);
    // The main thread (its id is the process id) keeps the writer's priority.
    assert.equal(after[String(pid)], before[String(pid)]);
    assert.equal(after[String(pid)], 0);
  },
});
