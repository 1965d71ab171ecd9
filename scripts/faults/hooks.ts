/**
 * The hook never waits on something stuck, measured with real hook
 * processes (`deno run … hook_main.ts hook --harness claude-code`, the
 * command `heimdall init` writes under `deno run`) against a real warm
 * server, on a real temp home with an indexed repository:
 *
 * - wall-clock of hook calls while the warm server is SIGSTOPped (each round
 *   stops the current server, makes five calls, then waits for the server
 *   that replaces it), against a healthy warm server and a bare `deno run`
 *   of an empty script measured in the same run;
 * - wall-clock of hook calls (session start, prompt, edit, failing test
 *   run) while another process holds an exclusive write transaction on the
 *   journal, through the warm server and in-process;
 * - the warm server's resident memory under slow-loris and flooding
 *   clients (stalled connections without the token, strangers and a client
 *   with the token sending 64 MB lines), and whether it still answers;
 * - a 10 MB payload on stdin: drained (no EPIPE for the writer), exit 0.
 *
 * Run alone: `deno run -A scripts/faults/hooks.ts` (about a minute).
 */
import { join } from "node:path";
import { selfArgv } from "../../src/harness/install/command.ts";
import { DEFAULT_WAIT_MS } from "../../src/harness/hook_wire.ts";
import type { FaultRow } from "./row.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
/** Times the warm server is stopped (five hook calls each). */
const ROUNDS = 6;
const FIXTURES = new URL("../../tests/fixtures/harness/", import.meta.url).pathname;

function payload(name: string, repo: string, session: string): string {
  const f = JSON.parse(Deno.readTextFileSync(join(FIXTURES, "claude-code", `${name}.json`)));
  return JSON.stringify({ ...f.payload, session_id: session }).replaceAll("{{repo}}", repo);
}

/** Runs argv with `stdin`; resolves to exit code, stdout and wall-clock ms. */
async function timed(
  argv: string[],
  env: Record<string, string>,
  stdin: string | Uint8Array | null,
): Promise<{ code: number; stdout: string; ms: number; pipeOk: boolean }> {
  const t0 = performance.now();
  const child = new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    env: { DENO_NO_UPDATE_CHECK: "1", ...env },
    stdin: stdin === null ? "null" : "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let pipeOk = true;
  if (stdin !== null) {
    const w = child.stdin.getWriter();
    try {
      await w.write(typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin);
      await w.close();
    } catch {
      pipeOk = false;
    }
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    ms: performance.now() - t0,
    pipeOk,
  };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(0)} / p95 ${pct(xs, 95).toFixed(0)} ms`;

function serverPid(home: string): number | null {
  try {
    return Number(Deno.readTextFileSync(join(home, "hookd.pid")).trim()) || null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    const state = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]?.[0];
    return state !== undefined && state !== "Z";
  } catch {
    return false;
  }
}

function rssMiB(pid: number): number {
  try {
    const m = Deno.readTextFileSync(`/proc/${pid}/status`).match(/VmRSS:\s+(\d+) kB/);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN; // the process is gone
  }
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

function log(home: string): string {
  try {
    return Deno.readTextFileSync(join(home, "logs", "hooks.log"));
  } catch {
    return "";
  }
}

/** Measures every figure; returns the rows. */
export async function run(): Promise<FaultRow[]> {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-faults-hooks-" });
  const home = join(base, "home");
  const repo = join(base, "repo");
  const started = new Set<number>();
  const rows: FaultRow[] = [];
  const hookArgv = [...selfArgv("hook"), "hook", "--harness", "claude-code"];
  const hook = (stdin: string | Uint8Array, env: Record<string, string> = {}) =>
    timed(
      hookArgv,
      { HEIMDALL_HOME: home, HEIMDALL_AUTHOR: "bench", HEIMDALL_HOOK_DEBUG: "1", ...env },
      stdin,
    );
  let holder: Deno.ChildProcess | undefined;
  try {
    Deno.mkdirSync(join(repo, "pkg"), { recursive: true });
    Deno.writeTextFileSync(
      join(repo, "pkg", "billing.py"),
      "def compute_total(items, discount):\n    return sum(items) * (1 - discount)\n",
    );
    await timed([Deno.execPath(), "run", "-A", MAIN, "index", repo], { HEIMDALL_HOME: home }, null);

    // A bare Deno start, for scale.
    const empty = join(base, "empty.ts");
    Deno.writeTextFileSync(empty, "");
    const bare: number[] = [];
    for (let i = 0; i < 10; i++) {
      bare.push((await timed([Deno.execPath(), "run", empty], {}, null)).ms);
    }

    const warmUp = async () => {
      await hook(payload("grep", repo, "warm-up"));
      await until(() => serverPid(home) !== null && /listening/.test(log(home)), 30_000);
      const pid = serverPid(home)!;
      started.add(pid);
      // Its first (cold) request answered.
      await until(async () => {
        await hook(payload("grep", repo, "warm-up"), { HEIMDALL_HOOK_WAIT_MS: "5000" });
        return log(home).includes(`server pid ${pid})`);
      }, 30_000);
      return pid;
    };
    let pid = await warmUp();

    const healthy: number[] = [];
    for (let i = 0; i < 20; i++) healthy.push((await hook(payload("grep", repo, "healthy"))).ms);

    // A stopped server: five calls per round, then the replacement.
    const stopped: number[] = [];
    const replacedIn: number[] = [];
    let silent = 0;
    let rounds = 0;
    for (let round = 0; round < ROUNDS; round++) {
      Deno.kill(pid, "SIGSTOP");
      try {
        Deno.removeSync(join(home, "hookd.spawn"));
      } catch { /* none */ }
      const t0 = performance.now();
      for (let i = 0; i < 5; i++) {
        const r = await hook(payload("prompt", repo, `stopped-${round}`));
        stopped.push(r.ms);
        if (r.stdout === "") silent++;
      }
      const old = pid;
      const ok = await until(() => {
        const now = serverPid(home);
        return now !== null && now !== old && !alive(old);
      }, 30_000);
      if (!ok) break;
      replacedIn.push(performance.now() - t0);
      rounds++;
      pid = serverPid(home)!;
      started.add(pid);
      await until(async () => {
        await hook(payload("grep", repo, "warm-up"), { HEIMDALL_HOOK_WAIT_MS: "5000" });
        return log(home).includes(`server pid ${pid})`);
      }, 30_000);
    }
    // The wait is what the budget bounds; starting Deno and the hook's own work come on top.
    const bar = DEFAULT_WAIT_MS + pct(healthy, 95);
    rows.push({
      figure: "hook wall-clock, healthy warm server (bare Deno start for scale)",
      value: `${fmt(healthy)} (bare ${fmt(bare)})`,
      target: "reference",
      met: true,
    });
    rows.push({
      figure: `hook wall-clock with the warm server SIGSTOPped (${stopped.length} calls)`,
      value: fmt(stopped),
      target: `p95 ≤ healthy p95 + ${DEFAULT_WAIT_MS} ms wait = ${bar.toFixed(0)} ms`,
      met: pct(stopped, 95) <= bar,
    });
    rows.push({
      figure: "stopped server killed and replaced (from SIGSTOP to a new server)",
      value: `${rounds} of ${ROUNDS} rounds, p50 ${pct(replacedIn, 50).toFixed(0)} ms`,
      target: `${ROUNDS} of ${ROUNDS}, the stuck one gone`,
      met: rounds === ROUNDS,
    });

    // A journal lock held by another process.
    const script = join(base, "hold.ts");
    Deno.writeTextFileSync(
      script,
      `import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(Deno.args[0]);
db.exec("BEGIN EXCLUSIVE");
db.exec("CREATE TABLE IF NOT EXISTS held (x)");
db.exec("INSERT INTO held VALUES (1)");
console.log("locked");
await new Promise((r) => setTimeout(r, 600_000));
`,
    );
    holder = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", script, join(home, "journal.db")],
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = holder.stdout.getReader();
    await reader.read();
    reader.releaseLock();
    const events = ["session_start", "prompt", "pre_edit", "post_edit", "post_bash_failure"];
    const heldWarm: number[] = [];
    const heldCold: number[] = [];
    for (let i = 0; i < 6; i++) {
      for (const e of events) {
        heldWarm.push((await hook(payload(e, repo, `held-warm-${i}`))).ms);
        if (i < 3) {
          heldCold.push(
            (await hook(payload(e, repo, `held-cold-${i}`), { HEIMDALL_HOOK_SERVER: "0" })).ms,
          );
        }
      }
    }
    const sameServer = serverPid(home) === pid && alive(pid);
    holder.kill();
    await holder.status;
    holder = undefined;
    rows.push({
      figure:
        `hook wall-clock, journal write lock held elsewhere, warm server (${heldWarm.length} calls)`,
      value: `${fmt(heldWarm)}${sameServer ? "" : "; server replaced"}`,
      target: `p95 ≤ ${bar.toFixed(0)} ms, server kept`,
      met: pct(heldWarm, 95) <= bar && sameServer,
    });
    rows.push({
      figure:
        `hook wall-clock, journal write lock held elsewhere, in-process (${heldCold.length} calls)`,
      value: fmt(heldCold),
      target: "p95 < 5000 ms (one busy wait used to cost 5 s)",
      met: pct(heldCold, 95) < 5000,
    });

    // Slow-loris and floods.
    const [portText, token] = Deno.readTextFileSync(join(home, "hookd.port")).trim().split(" ");
    const port = Number(portText);
    const rssBefore = rssMiB(pid);
    let rssPeak = rssBefore;
    const conns: Deno.TcpConn[] = [];
    const big = new Uint8Array(1024 * 1024).fill(0x61);
    const flood = async (head: string) => {
      try {
        const c = await Deno.connect({ hostname: "127.0.0.1", port });
        try {
          await c.write(new TextEncoder().encode(head));
          for (let i = 0; i < 64; i++) await c.write(big);
        } catch { /* cut off */ }
        c.close();
      } catch { /* turned away */ }
    };
    const end = Date.now() + 10_000;
    let opened = 0;
    while (Date.now() < end) {
      for (let i = 0; i < 50; i++) {
        try {
          const c = await Deno.connect({ hostname: "127.0.0.1", port });
          conns.push(c);
          opened++;
          await c.write(new TextEncoder().encode(i % 2 ? '{"tok' : "")).catch(() => 0);
        } catch { /* turned away */ }
      }
      await Promise.all([
        flood('{"token":"0000'),
        flood(`{"token":${JSON.stringify(token)},"request":"`),
      ]);
      rssPeak = Math.max(rssPeak, rssMiB(pid));
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed by the server */ }
    }
    const seen = log(home).length;
    const answered = await hook(payload("grep", repo, "after-loris"));
    const stillThere = alive(pid) && serverPid(home) === pid &&
      log(home).slice(seen).includes(`server pid ${pid})`) && answered.code === 0;
    rows.push({
      figure:
        `warm server RSS under slow-loris (${opened} stalled connections, 128 floods of 64 MB, 10 s)`,
      value: `${rssBefore.toFixed(0)} → peak ${rssPeak.toFixed(0)} MiB${
        stillThere ? ", still answering" : ", NOT answering"
      }`,
      target: "growth < 100 MiB, still answering",
      met: rssPeak - rssBefore < 100 && stillThere,
    });

    // A 10 MB payload.
    const huge = JSON.stringify({
      hook_event_name: "PostToolUse",
      session_id: "big",
      cwd: repo,
      tool_name: "Read",
      tool_input: { file_path: join(repo, "x") },
      tool_response: "x".repeat(10 * 1024 * 1024),
    });
    const r = await hook(huge);
    rows.push({
      figure: "10 MB payload on stdin",
      value: `${r.pipeOk ? "drained" : "EPIPE"}, exit ${r.code}, ${r.ms.toFixed(0)} ms`,
      target: "drained, exit 0",
      met: r.pipeOk && r.code === 0,
    });
  } finally {
    if (holder) {
      holder.kill();
      await holder.status;
    }
    const last = serverPid(home);
    if (last !== null) started.add(last);
    for (const p of started) {
      if (!alive(p)) continue;
      try {
        Deno.kill(p, "SIGCONT");
        Deno.kill(p, "SIGKILL");
      } catch { /* gone */ }
    }
    if (Deno.env.get("HEIMDALL_FAULTS_KEEP")) console.error(`kept ${base}`);
    else Deno.removeSync(base, { recursive: true });
  }
  return rows;
}

if (import.meta.main) console.table(await run());
