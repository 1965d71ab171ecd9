/**
 * Trust under faults: files under `$HEIMDALL_HOME` are private whatever the
 * umask, and a hook never waits on something stuck (a stopped warm server, a
 * held journal lock, hostile connections, an oversized payload). Real
 * subprocesses, real signals, a real SQLite lock held by another process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { homePaths } from "../src/config/mod.ts";
import { answerHook, type HookRequest } from "../src/harness/hook_run.ts";
import { LOG_ROTATE_BYTES } from "../src/config/private_files.ts";
import { selfArgv } from "../src/harness/install/command.ts";
import { TOUCHED_HASH } from "../src/harness/region.ts";
import { readSession, sessionFile, type SessionState } from "../src/harness/session.ts";
import {
  checkoutCopy,
  MAIN,
  removeTree,
  tempDir,
  upgradeCheckout,
  waitFor,
  writeTree,
} from "./helpers.ts";
import { exists } from "../src/files/mod.ts";
import { seededRandom } from "./seeded_random.ts";

const FIXTURES = new URL("./fixtures/harness/claude-code/", import.meta.url).pathname;

/** A Claude Code payload fixture with `{{repo}}` replaced. */
function payload(name: string, repo: string, session = "s1"): string {
  const f = JSON.parse(Deno.readTextFileSync(join(FIXTURES, `${name}.json`)));
  return JSON.stringify({ ...f.payload, session_id: session }).replaceAll("{{repo}}", repo);
}

interface Run {
  code: number;
  /** The signal that ended it (its `timeoutMs` ran out), or null. */
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs argv with HEIMDALL_HOME under `umask 022`, feeding `stdin`; killed
 * after `timeoutMs` when given.
 */
async function run(
  argv: string[],
  home: string,
  options: {
    stdin?: string | Uint8Array;
    env?: Record<string, string>;
    cwd?: string;
    timeoutMs?: number;
  } = {},
): Promise<Run> {
  const t0 = performance.now();
  const child = new Deno.Command("sh", {
    args: ["-c", 'umask 022; exec "$@"', "sh", ...argv],
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.timeoutMs ? { signal: AbortSignal.timeout(options.timeoutMs) } : {}),
  }).spawn();
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    const data = typeof options.stdin === "string"
      ? new TextEncoder().encode(options.stdin)
      : options.stdin;
    // Throws (EPIPE) if the hook stopped reading before the end.
    await w.write(data);
    await w.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    signal: out.signal,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
    ms: performance.now() - t0,
  };
}

const heimdall = (home: string, args: string[], options: Parameters<typeof run>[2] = {}) =>
  run([Deno.execPath(), "run", "-A", MAIN, ...args], home, options);

const hook = (home: string, stdin: string | Uint8Array, env: Record<string, string> = {}) =>
  run([...selfArgv("hook"), "hook", "--harness", "claude-code"], home, {
    stdin,
    env: { HEIMDALL_HOOK_DEBUG: "1", ...env },
  });

/** The harness fixture's shop copied to `repo` and indexed into `home`. */
async function indexShop(home: string, repo: string): Promise<void> {
  copyTree(new URL("./fixtures/harness/repo", import.meta.url).pathname, repo);
  const indexed = await heimdall(home, ["index", repo]);
  assert.equal(indexed.code, 0, indexed.stderr);
}

/** `ps -o FIELD= -p PID` (/proc needs every permission under Deno), or null when there is no such process. */
function ps(pid: number, field: string): string | null {
  const out = new Deno.Command("ps", {
    args: ["-o", `${field}=`, "-p", String(pid)],
    stderr: "null",
  })
    .outputSync();
  const text = new TextDecoder().decode(out.stdout).trim();
  return out.success && text !== "" ? text : null;
}

/** Running (or stopped), not gone and not a zombie. */
function pidAlive(pid: number): boolean {
  const state = ps(pid, "stat");
  return state !== null && !state.startsWith("Z");
}

function serverPid(home: string): number | null {
  try {
    return Number(Deno.readTextFileSync(join(home, "hookd.pid")).trim()) || null;
  } catch {
    return null;
  }
}

/** The state of Claude Code session `id` in the home, or null before its first event. */
function session(home: string, id: string): SessionState | null {
  return readSession(sessionFile(join(home, "sessions"), "claude-code", id));
}

function hooksLog(home: string): string {
  try {
    return Deno.readTextFileSync(join(home, "logs", "hooks.log"));
  } catch {
    return "";
  }
}

/** Starts the warm server with a first hook call and waits until it listens; returns its pid. */
async function warmServer(home: string, repo: string): Promise<number> {
  await hook(home, payload("grep", repo));
  await waitFor(() => /listening on 127\.0\.0\.1:/.test(hooksLog(home)), 30_000, "the hook server");
  const pid = serverPid(home);
  assert.ok(pid !== null && pidAlive(pid));
  // Its modules loaded: one answered call.
  await answeredBy(home, repo, pid, "the server's first answer");
  return pid;
}

/**
 * Sends grep hooks, each waiting up to 5 s (enough for a server's first,
 * cold request), until server `pid` has answered one; throws naming `what`
 * after 30 s.
 */
async function answeredBy(home: string, repo: string, pid: number, what: string): Promise<void> {
  await waitFor(
    async () => {
      await hook(home, payload("grep", repo), { HEIMDALL_HOOK_WAIT_MS: "5000" });
      return new RegExp(`server pid ${pid}\\)`).test(hooksLog(home));
    },
    30_000,
    what,
  );
}

/** A temp home, a repository beside it, and the hook servers a test met there. */
interface Scene {
  /** The temp folder holding both (and anything else the test makes). */
  base: string;
  /** `$HEIMDALL_HOME`: `base/home`. */
  home: string;
  /** `base/repo`. */
  repo: string;
  /** Starts the home's warm server (see warmServer) and returns its pid, killed when the test ends. */
  warm(): Promise<number>;
  /** The home's server pid now (`hookd.pid`), or null; remembered, to be killed when the test ends. */
  currentServer(): number | null;
  /** Remembers a server the test started itself, to be killed when the test ends. */
  track(pid: number): void;
}

/**
 * Runs `fn` in a fresh temp folder whose `repo` holds the harness fixture's
 * shop indexed into `home` (`"shop"`) or the given files, not indexed. Pass
 * or fail, it then kills every server pid the test started or saw
 * (SIGCONT first: some are stopped), and the home's current one, and
 * removes the folder.
 */
async function withHome(
  repoFiles: "shop" | Record<string, string>,
  fn: (scene: Scene) => Promise<void>,
): Promise<void> {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  const pids = new Set<number>();
  const currentServer = () => {
    const pid = serverPid(home);
    if (pid !== null) pids.add(pid);
    return pid;
  };
  try {
    if (repoFiles === "shop") await indexShop(home, repo);
    else writeTree(repo, repoFiles);
    await fn({
      base,
      home,
      repo,
      warm: async () => {
        const pid = await warmServer(home, repo);
        pids.add(pid);
        return pid;
      },
      currentServer,
      track: (pid) => void pids.add(pid),
    });
  } finally {
    currentServer();
    for (const pid of pids) {
      if (!pidAlive(pid)) continue;
      try {
        Deno.kill(pid, "SIGCONT");
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
    removeTree(base);
  }
}

/** Every entry under `dir` whose mode lets anyone but the owner in. */
function looseEntries(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    const st = Deno.lstatSync(d);
    if ((st.mode! & 0o077) !== 0) out.push(`${d} ${(st.mode! & 0o777).toString(8)}`);
    for (const e of Deno.readDirSync(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) walk(p);
      else {
        const m = Deno.lstatSync(p).mode! & 0o777;
        if ((m & 0o077) !== 0) out.push(`${p} ${m.toString(8)}`);
      }
    }
  };
  walk(dir);
  return out;
}

function copyTree(from: string, to: string): void {
  Deno.mkdirSync(to, { recursive: true });
  for (const e of Deno.readDirSync(from)) {
    if (e.isDirectory) copyTree(join(from, e.name), join(to, e.name));
    else Deno.copyFileSync(join(from, e.name), join(to, e.name));
  }
}

function allEntries(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    out.push(p);
    if (e.isDirectory) out.push(...allEntries(p));
  }
  return out;
}

// ---------------------------------------------------------------- files are private

Deno.test({
  name: "every file under the home is 0600 and every folder 0700 under a 022 umask",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome({
      "billing.py": "def compute_total(items, discount):\n    return sum(items) * (1 - discount)\n",
      "notes/plan.md": "# Plan\n\nMove billing to cents.\n",
    }, async ({ home, repo, warm }) => {
      for (
        const args of [
          ["index", repo],
          ["insert", "--title", "cents", "--body", "Store money as integer cents."],
          ["search", "compute total"],
          ["hint", join(repo, "billing.py")],
          ["rebuild"],
        ]
      ) {
        const r = await heimdall(home, args);
        assert.ok(r.code === 0 || r.code === 1, `${args.join(" ")}: ${r.code} ${r.stderr}`);
      }
      // Hooks: sessions, the hook log, the warm server's files.
      await warm();
      await hook(home, payload("prompt", repo));
      await hook(home, payload("post_bash_failure", repo));
      // Another process holds the journal open mid-write: its -wal and -shm exist now.
      await whileJournalHeld(home, async () => {
        const names = allEntries(home).map((p) => p.slice(home.length + 1));
        for (
          const want of [
            "journal.db",
            "journal.db-wal",
            "journal.db-shm",
            "sessions",
            "logs/hooks.log",
            "hookd.port",
            "hookd.pid",
            "hookd.lock",
          ]
        ) {
          assert.ok(names.includes(want), `${want} exists (have ${names.join(", ")})`);
        }
        assert.ok(names.some((n) => n.startsWith("sessions/") && n.endsWith(".json")));
        assert.ok(names.some((n) => n.endsWith(".backup")), "rebuild left a backup");
        assert.deepEqual(looseEntries(home), [], "nothing under the home is open to others");
        // Each entry made here is one the tightening of a loose home knows as
        // Heimdall's (private_files.ts, HOME_ENTRY): the folder closes again.
        Deno.chmodSync(home, 0o755);
        const again = await heimdall(home, ["roots"]);
        assert.equal(again.code, 0, again.stderr);
        const top = [...Deno.readDirSync(home)].map((e) => e.name).sort();
        assert.equal(Deno.statSync(home).mode! & 0o777, 0o700, top.join(", "));
      });
    }),
});

Deno.test({
  name: "a home an older version left 0755 with 0644 files is tightened when next opened",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const base = tempDir();
    const home = join(base, "home");
    try {
      writeTree(home, {
        "config.json": '{"roots":[]}\n',
        "logs/daemon.log": "old line\n",
        "sessions/claude-code--a--1.json": "{}",
        "hints/1.hint": '{"paths":[]}\n',
      });
      for (const p of [home, join(home, "logs"), join(home, "sessions"), join(home, "hints")]) {
        Deno.chmodSync(p, 0o755);
      }
      for (const p of allEntries(home)) if (Deno.statSync(p).isFile) Deno.chmodSync(p, 0o644);
      assert.notDeepEqual(looseEntries(home), []);
      const r = await heimdall(home, ["roots"]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(looseEntries(home), []);
      assert.equal(Deno.readTextFileSync(join(home, "logs/daemon.log")), "old line\n");
      // The hook, which never loads the CLI, tightens too.
      Deno.chmodSync(home, 0o755);
      Deno.chmodSync(join(home, "config.json"), 0o644);
      await hook(home, "{not json", { HEIMDALL_HOOK_SERVER: "0" });
      assert.deepEqual(looseEntries(home), []);
      // A home reached through a symbolic link: the folder it names is closed.
      Deno.chmodSync(home, 0o755);
      Deno.chmodSync(join(home, "config.json"), 0o644);
      Deno.symlinkSync(home, join(base, "link"));
      const viaLink = await heimdall(join(base, "link"), ["roots"]);
      assert.equal(viaLink.code, 0, viaLink.stderr);
      assert.deepEqual(looseEntries(home), []);
    } finally {
      removeTree(base);
    }
  },
});

Deno.test({
  name:
    "a HEIMDALL_HOME set to a folder of the person's own keeps their files' modes: only Heimdall's entries are closed",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const base = tempDir();
    // $HOME itself, or a repository: the person's files beside Heimdall's.
    const home = join(base, "me");
    try {
      writeTree(home, {
        "notes.txt": "shared with my group\n",
        "site/index.html": "<p>public</p>\n",
        "config.json": '{"roots":[]}\n',
        "logs/daemon.log": "old line\n",
      });
      for (const p of [home, join(home, "site"), join(home, "logs")]) Deno.chmodSync(p, 0o755);
      for (const p of allEntries(home)) if (Deno.statSync(p).isFile) Deno.chmodSync(p, 0o644);
      writeTree(join(base, "repo"), { "a.ts": "export function a() {}\n" });
      const r = await heimdall(home, ["index", join(base, "repo")]);
      assert.equal(r.code, 0, r.stderr);
      const mode = (rel: string) => Deno.statSync(join(home, rel)).mode! & 0o777;
      assert.deepEqual(
        ["", "notes.txt", "site", "site/index.html"].map(mode),
        [0o755, 0o644, 0o755, 0o644],
        "the person's own entries, and their folder, as they were",
      );
      assert.deepEqual(looseEntries(join(home, "logs")), []);
      assert.equal(mode("config.json"), 0o600);
      assert.equal(mode("journal.db"), 0o600);
    } finally {
      removeTree(base);
    }
  },
});

// ---------------------------------------------------------------- the hook never waits

/** A process holding an exclusive write transaction on `journal` until killed. */
async function holdJournal(journal: string): Promise<Deno.ChildProcess> {
  const script = join(journal, "..", "..", "hold_lock.ts");
  Deno.writeTextFileSync(
    script,
    `import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(Deno.args[0]);
db.exec("PRAGMA busy_timeout = 5000");
db.exec("BEGIN EXCLUSIVE");
db.exec("CREATE TABLE IF NOT EXISTS held_by_test (x)");
db.exec("INSERT INTO held_by_test VALUES (1)");
console.log("locked");
await new Promise((r) => setTimeout(r, 120_000));
`,
  );
  const child = new Deno.Command("sh", {
    args: ["-c", 'umask 022; exec "$@"', "sh", Deno.execPath(), "run", "-A", script, journal],
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  assert.match(new TextDecoder().decode(value), /locked/);
  return child;
}

/** Runs `fn` while another process holds the home's journal in a write transaction; the hold ends with `fn`, pass or fail. */
async function whileJournalHeld(home: string, fn: () => Promise<void>): Promise<void> {
  const holder = await holdJournal(join(home, "journal.db"));
  try {
    await fn();
  } finally {
    holder.kill();
    await holder.status;
  }
}

Deno.test({
  name: "a stopped warm server costs a hook its wait, not 9 s, and a fresh server replaces it",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome(
      { "a.py": "def a():\n    return 1\n" },
      async ({ home, repo, warm, currentServer }) => {
        const old = await warm();
        Deno.kill(old, "SIGSTOP");
        Deno.removeSync(join(home, "hookd.spawn"));
        const stuck = await hook(home, payload("prompt", repo));
        assert.equal(stuck.code, 0);
        assert.equal(stuck.stdout, "", "fails open: nothing injected");
        assert.ok(stuck.ms < 5000, `returned in ${stuck.ms.toFixed(0)} ms, not after 9 s`);
        assert.match(
          hooksLog(home),
          new RegExp(`server pid ${old} did not answer within \\d+ ms \\(300 ms budget\\)`),
        );
        await waitFor(
          () => {
            const now = currentServer();
            return now !== null && now !== old;
          },
          30_000,
          "a replacing server",
        );
        await waitFor(() => !pidAlive(old), 10_000, "the stopped server to be gone");
        assert.match(hooksLog(home), new RegExp(`hook server pid ${old} did not answer a ping`));
        await answeredBy(home, repo, serverPid(home)!, "an answer from the fresh server");
      },
    ),
});

/** The files in the home's hook spool (events handed to a server and not yet recorded). */
function spoolFiles(home: string): string[] {
  try {
    return [...Deno.readDirSync(join(home, "hookd.spool"))].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** Attempt memories whose text names `command`, as the journal holds them. */
function attemptsOf(home: string, command: string): number {
  const db = new DatabaseSync(join(home, "journal.db"), { readOnly: true });
  try {
    return (db.prepare(
      "SELECT count(*) AS n FROM memories WHERE kind = 'attempt' AND text LIKE ?",
    ).get(`%${command}%`) as { n: number }).n;
  } finally {
    db.close();
  }
}

Deno.test({
  name:
    "events sent to a stopped warm server are recorded once by the server that replaces it, not lost",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ home, repo, warm, currentServer }) => {
      const old = await warm();
      Deno.kill(old, "SIGSTOP");
      Deno.removeSync(join(home, "hookd.spawn"));
      // The task's prompt, an edit and a failing test run: each hook returns within its wait.
      for (const name of ["prompt", "post_edit", "post_bash_failure"]) {
        const r = await hook(home, payload(name, repo));
        assert.equal(r.code, 0);
        assert.equal(r.stdout, "", "fails open: nothing injected");
        assert.ok(r.ms < 5000, `returned in ${r.ms.toFixed(0)} ms`);
      }
      const state = () => session(home, "s1");
      await waitFor(
        () => {
          currentServer();
          return state()?.task !== null && state()?.task !== undefined &&
            spoolFiles(home).length === 0 && attemptsOf(home, "pytest") > 0;
        },
        60_000,
        "the spooled events recorded",
      );
      assert.ok(!pidAlive(old), "the stopped server was replaced");
      assert.equal(
        state()!.task!.title,
        "Fix compute_total so a negative discount never raises the total",
      );
      assert.equal(state()!.prompts, 1, "the prompt counted once");
      assert.equal(attemptsOf(home, "pytest"), 1, "the test run recorded once");
      assert.match(hooksLog(home), /kept the event for a server to record/);
      assert.match(
        hooksLog(home),
        /recorded spooled claude-code event \S+, which its hook could not hand over/,
      );
    }),
});

Deno.test({
  name:
    "a secret in a prompt sent to a stopped warm server is never written to the spool, and the event is still recorded",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ home, repo, warm }) => {
      // Built from pieces: no credential-shaped literal in this file.
      const token = "gh" + "p_" + "Q7vX2mK9pL4rT8wN3bY6cF1dH5jS0aZeUoIi";
      const password = "k9d2m7q" + "Xw4pZr";
      const url = "https://deploy:" + password + "@git.example.com/shop.git";
      const old = await warm();
      Deno.kill(old, "SIGSTOP");
      // A fresh spawn marker: no replacement starts, so the event waits in the spool.
      Deno.writeTextFileSync(join(home, "hookd.spawn"), "");
      const prompt = JSON.parse(payload("prompt", repo));
      prompt.prompt = `Fix compute_total; push with ${token} to ${url}`;
      const r = await hook(home, JSON.stringify(prompt));
      assert.equal(r.code, 0);
      assert.equal(r.stdout, "", "fails open: nothing injected");
      assert.equal(spoolFiles(home).length, 1, "the event waits in the spool");
      const leaked = () =>
        allEntries(home).filter((p) => {
          try {
            const text = new TextDecoder("latin1").decode(Deno.readFileSync(p));
            return text.includes(token) || text.includes(password);
          } catch {
            return false; // a folder, or gone meanwhile
          }
        });
      assert.deepEqual(leaked(), [], "no file under HEIMDALL_HOME holds the secret");
      // The server goes on: the spooled event is recorded, redacted, once.
      Deno.kill(old, "SIGCONT");
      const state = () => readSession(sessionFile(join(home, "sessions"), "claude-code", "s1"));
      await waitFor(
        () => (state()?.task ?? null) !== null && spoolFiles(home).length === 0,
        60_000,
        "the spooled prompt recorded",
      );
      assert.equal(state()!.prompts, 1);
      assert.match(state()!.task!.title, /^Fix compute_total; push with \[REDACTED:github_token\]/);
      assert.deepEqual(leaked(), []);
    }),
});

Deno.test({
  name: "an event a warm server took and then died on (kill -9) is recorded by the next server",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ home, repo, warm, currentServer }) => {
      // A team store that accepts and never answers: the prompt's task waits 1.5 s on it,
      // long enough to kill the server in the middle of the request.
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const held: Deno.Conn[] = [];
      void (async () => {
        try {
          for await (const conn of listener) held.push(conn);
        } catch { /* closed */ }
      })();
      const teamUrl = `postgres://heimdall@127.0.0.1:${
        (listener.addr as Deno.NetAddr).port
      }/silent`;
      try {
        const old = await warm();
        Deno.removeSync(join(home, "hookd.spawn"));
        const asked = hook(home, payload("prompt", repo), {
          HEIMDALL_HOOK_WAIT_MS: "8000",
          HEIMDALL_TEAM_URL: teamUrl,
        });
        await waitFor(
          () => spoolFiles(home).some((f) => f.endsWith(`.1.${old}.taken`)),
          30_000,
          "the server to take the event",
        );
        Deno.kill(old, "SIGKILL");
        const r = await asked;
        assert.equal(r.code, 0);
        assert.equal(r.stdout, "");
        const state = () => session(home, "s1");
        await waitFor(
          () => {
            currentServer();
            return (state()?.task ?? null) !== null && spoolFiles(home).length === 0;
          },
          60_000,
          "the event recorded by the next server",
        );
        assert.equal(state()!.prompts, 1);
        assert.match(hooksLog(home), /recorded spooled claude-code event/);
      } finally {
        listener.close();
        for (const c of held) {
          try {
            c.close();
          } catch { /* closed */ }
        }
      }
    }),
});

Deno.test({
  name: "a replacing server leaves a live server alone",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome({ "a.py": "def a():\n    return 1\n" }, async ({ home, warm }) => {
      const live = await warm();
      const r = await run([...selfArgv("hook"), "hook", "--serve", "--replace"], home);
      assert.equal(r.code, 0);
      assert.ok(pidAlive(live), "the server that answers its ping stays");
      assert.equal(serverPid(home), live);
    }),
});

Deno.test({
  name: "a journal lock held by another process never stalls a hook, warm or in-process",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome({
      "pkg/billing.py": "def compute_total(items, discount):\n    return sum(items)\n",
    }, async ({ home, repo, warm }) => {
      assert.equal((await heimdall(home, ["index", repo])).code, 0);
      const server = await warm();
      const events = ["session_start", "prompt", "pre_edit", "post_edit", "post_bash_failure"];
      await whileJournalHeld(home, async () => {
        for (const name of events) {
          const served = await hook(home, payload(name, repo, "warm"));
          assert.equal(served.code, 0);
          assert.ok(served.ms < 5000, `${name} via the server: ${served.ms.toFixed(0)} ms`);
          const inProcess = await hook(home, payload(name, repo, "cold"), {
            HEIMDALL_HOOK_SERVER: "0",
          });
          assert.equal(inProcess.code, 0);
          // Well under the 5 s busy wait SQLite would otherwise sit out per write.
          assert.ok(inProcess.ms < 4900, `${name} in-process: ${inProcess.ms.toFixed(0)} ms`);
        }
        // The writes met the lock (and gave up quickly), and the server was not replaced.
        assert.match(hooksLog(home), /database is locked|the journal is locked by another process/);
        assert.equal(serverPid(home), server);
        assert.ok(pidAlive(server));
      });
      // The lock gone, writes land again.
      for (const name of ["post_edit", "post_bash_failure"]) {
        const r = await hook(home, payload(name, repo, "after"), { HEIMDALL_HOOK_WAIT_MS: "5000" });
        assert.equal(r.code, 0);
      }
      assert.ok(
        attemptsOf(home, "pytest") >= 1,
        `the attempt recorded once the lock is gone:\n${hooksLog(home)}`,
      );
    }),
});

/** Resident memory of `pid` in MiB. */
function rssMiB(pid: number): number {
  return Number(ps(pid, "rss") ?? NaN) / 1024;
}

Deno.test({
  name: "slow-loris connections and an oversized request neither grow the server nor keep it busy",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome({ "a.py": "def a():\n    return 1\n" }, async ({ home, repo, warm }) => {
      const conns: Deno.TcpConn[] = [];
      try {
        const server = await warm();
        const [portText, token] = Deno.readTextFileSync(join(home, "hookd.port")).trim().split(" ");
        const port = Number(portText);
        const before = rssMiB(server);
        // 100 clients without the token: half say nothing at all, half start a line and stall.
        for (let i = 0; i < 100; i++) {
          try {
            const c = await Deno.connect({ hostname: "127.0.0.1", port });
            conns.push(c);
            if (i % 2 === 1) await c.write(new TextEncoder().encode('{"tok'));
          } catch { /* turned away */ }
        }
        // A stranger sending 64 MB, and a client with the token sending 40 MB without a newline.
        const big = new Uint8Array(1024 * 1024).fill(0x61);
        const flood = async (head: string) => {
          const c = await Deno.connect({ hostname: "127.0.0.1", port });
          let sent = 0;
          try {
            await c.write(new TextEncoder().encode(head));
            for (let i = 0; i < 64; i++) sent += await c.write(big);
          } catch { /* the server hung up: what it should do */ }
          try {
            c.close();
          } catch { /* closed */ }
          return sent;
        };
        const [stranger, insider] = await Promise.all([
          flood('{"token":"0000'),
          flood(`{"token":${JSON.stringify(token)},"request":"`),
        ]);
        assert.ok(stranger < 16 * big.length, `the stranger was cut off after ${stranger} bytes`);
        assert.ok(
          insider < 32 * big.length,
          `an oversized request was cut off after ${insider} bytes`,
        );
        // Every stalled connection is closed by the server (its frame time is 2 s).
        const closed = await Promise.all(conns.map(async (c) => {
          let timer: ReturnType<typeof setTimeout> | undefined;
          try {
            const r = await Promise.race([
              c.read(new Uint8Array(16)),
              new Promise<"open">((r) => (timer = setTimeout(() => r("open"), 10_000))),
            ]);
            return r === null;
          } catch {
            return true; // reset by the server
          } finally {
            clearTimeout(timer);
          }
        }));
        assert.equal(closed.filter((x) => !x).length, 0, "no stalled connection is kept open");
        const after = rssMiB(server);
        assert.ok(after - before < 150, `RSS ${before.toFixed(0)} → ${after.toFixed(0)} MiB`);
        // It still answers, and it is the same server.
        const r = await hook(home, payload("grep", repo, "after-attack"));
        assert.equal(r.code, 0);
        assert.equal(serverPid(home), server);
        assert.ok(pidAlive(server));
      } finally {
        for (const c of conns) {
          try {
            c.close();
          } catch { /* closed */ }
        }
      }
    }),
});

Deno.test({
  name: "a warm server whose home is removed stops, and does not bring the home back",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome({ "a.ts": "export function a() {}\n" }, async ({ home, warm }) => {
      const pid = await warm();
      // Removed as a person would, not by removeTree(), which stops the server first.
      Deno.removeSync(home, { recursive: true });
      await waitFor(() => !pidAlive(pid), 30_000, "the server to stop");
      assert.throws(() => Deno.statSync(home), Deno.errors.NotFound, "the removed home came back");
    }),
});

Deno.test({
  name:
    "a warm server whose code changes on disk (an upgrade) stops, so the next hook runs the new code",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome({}, async ({ base, home, track }) => {
      // A checkout of its own: the module changed is one a client's build id does not stamp.
      const code = checkoutCopy(join(base, "heimdall"));
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", join(code, "src", "cli", "hook_main.ts"), "hook", "--serve"],
        env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1" },
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      track(child.pid);
      await waitFor(() => /listening on 127\.0\.0\.1:/.test(hooksLog(home)), 30_000, "the server");
      upgradeCheckout(code, join("src", "harness", "services_impl.ts"));
      await waitFor(() => !pidAlive(child.pid), 30_000, "the server to stop");
      await child.status;
      assert.match(hooksLog(home), /stops: its code changed on disk/);
      assert.ok(!exists(join(home, "hookd.port")), "the port file is gone with it");
    }),
});

Deno.test({
  name: "a 10 MB payload on stdin is read to its end (no EPIPE for the harness) and ignored",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const base = tempDir();
    const home = join(base, "home");
    try {
      const huge = JSON.stringify({
        hook_event_name: "PostToolUse",
        session_id: "big",
        cwd: base,
        tool_name: "Read",
        tool_input: { file_path: join(base, "x") },
        tool_response: "x".repeat(10 * 1024 * 1024),
      });
      for (const env of [{ HEIMDALL_HOOK_SERVER: "0" }, {}]) {
        const r = await hook(home, huge, env); // `run` throws if the write meets a closed pipe
        assert.equal(r.code, 0);
        assert.equal(r.stdout, "");
        assert.equal(r.stderr, "");
      }
      assert.match(
        hooksLog(home),
        /payload of 10485\d{3} bytes is over the hook's 8388608-byte cap/,
      );
    } finally {
      removeTree(base);
    }
  },
});

Deno.test({
  name: "a request longer than the server reads is answered in-process, and the server stays",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome({ "a.py": "def a():\n    return 1\n" }, async ({ home, repo, warm }) => {
      const server = await warm();
      // 7 MB of quotes: under the stdin cap, twice as long once escaped into the request line.
      const grep = JSON.parse(payload("grep", repo, "quotes"));
      const stdin = JSON.stringify({ ...grep, tool_response: '"'.repeat(3_500_000) });
      assert.ok(stdin.length < 8 * 1024 * 1024);
      const seen = hooksLog(home).length;
      const r = await hook(home, stdin);
      assert.equal(r.code, 0);
      const tail = hooksLog(home).slice(seen);
      assert.match(tail, /PostToolUse → after_tool in [\d.]+ ms \(in-process\)/);
      assert.doesNotMatch(tail, /did not answer/);
      assert.equal(serverPid(home), server);
    }),
});

Deno.test({
  name: "an answer given up on is not recorded as told: the next call tells it",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ home, repo }) => {
      const request = (): HookRequest => ({
        harness: "claude-code",
        budget: null,
        event: null,
        cwd: repo,
        env: {},
        stdin: payload("session_start", repo, "late"),
      });
      // A deadline that passes before the first await returns: the answer is dropped.
      assert.equal(await answerHook(request(), homePaths(home), "test", 0), null);
      await waitFor(
        () => /SessionStart: gave up after 0 ms/.test(hooksLog(home)),
        10_000,
        "the give-up",
      );
      // Let the abandoned work finish writing the session.
      await new Promise((r) => setTimeout(r, 1000));
      const again = await answerHook(request(), homePaths(home));
      assert.match(again ?? "", /MUST: Round money to cents/);
    }),
});

Deno.test({
  name:
    "a before-edit hook whose claim meets a held journal lock keeps what it saw of the file before the edit",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ home, repo }) => {
      const billing = join(repo, "pkg", "billing.py");
      const env = { HEIMDALL_HOOK_SERVER: "0" };
      await whileJournalHeld(home, async () => {
        const pre = await hook(home, payload("pre_edit", repo, "locked"), env);
        assert.equal(pre.code, 0);
        assert.equal(pre.stdout, "", "fails open: nothing said, nothing denied");
      });
      assert.match(hooksLog(home), /database is locked/, "the claim met the lock");
      const state = () => session(home, "locked");
      const before = state()?.before[billing] ?? {};
      assert.deepEqual(
        Object.values(before).map((s) => s.q).sort(),
        ["apply_discount", "compute_total"],
        "the snapshot taken before the edit survives the failed claim",
      );
      assert.ok(Object.values(before).every((s) => s.h !== null && s.h !== TOUCHED_HASH));
      // The edit lands, the writer catches up before the after-edit hook: the change is
      // the one the snapshot shows, and nothing else.
      const { payload: edit } = JSON.parse(
        Deno.readTextFileSync(join(FIXTURES, "post_edit.json")),
      ) as { payload: { tool_input: { old_string: string; new_string: string } } };
      Deno.writeTextFileSync(
        billing,
        Deno.readTextFileSync(billing).replace(
          edit.tool_input.old_string,
          edit.tool_input.new_string,
        ),
      );
      assert.equal((await heimdall(home, ["reconcile", billing])).code, 0);
      assert.equal((await hook(home, payload("post_edit", repo, "locked"), env)).code, 0);
      assert.deepEqual(state()?.changed.map((c) => [c.qualname, c.change]), [[
        "compute_total",
        "modified",
      ]]);
    }),
});

Deno.test({
  name:
    "a test run the hook could not record while another process held the journal is recorded at the session's next event, in order",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ home, repo }) => {
      const env = { HEIMDALL_HOOK_SERVER: "0" };
      for (const name of ["prompt", "pre_edit", "post_edit"]) {
        assert.equal((await hook(home, payload(name, repo, "held"), env)).code, 0);
      }
      await whileJournalHeld(home, async () => {
        const failed = await hook(home, payload("post_bash_failure", repo, "held"), env);
        assert.equal(failed.code, 0);
        assert.equal(failed.stdout, "");
        // A pass after it waits behind it: recorded first, it would leave the failure open.
        const pass = JSON.parse(payload("post_bash", repo, "held"));
        assert.equal((await hook(home, JSON.stringify(pass), env)).code, 0);
      });
      assert.match(hooksLog(home), /not recorded yet: the journal is locked/);
      assert.equal((await hook(home, payload("stop", repo, "held"), env)).code, 0);
      const why = await heimdall(home, ["why", join(repo, "pkg", "billing.py"), "--json"]);
      assert.equal(why.code, 0, why.stderr);
      type Row = { kind: string; outcome: string | null; resolved_by: string | null };
      const told = JSON.parse(why.stdout) as { current: Row[]; history: Row[] };
      const attempts = [...told.current, ...told.history].filter((m) => m.kind === "attempt");
      // The failure recorded, then resolved by the pass recorded after it.
      assert.deepEqual(
        attempts.map((m) => [m.outcome, m.resolved_by !== null]).sort(),
        [["failed", true], ["passed", false]],
        why.stdout,
      );
      const state = session(home, "held")!;
      assert.deepEqual(state.tests.map((r) => [r.outcome, r.unrecorded ?? false]), [
        ["fail", false],
        ["pass", false],
      ]);
    }),
});

Deno.test({
  name:
    "a prompt whose task met another process's hold on the journal still becomes the session's task, started at its next event",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ home, repo }) => {
      const env = { HEIMDALL_HOOK_SERVER: "0" };
      await whileJournalHeld(home, async () => {
        const prompt = await hook(home, payload("prompt", repo, "held"), env);
        assert.equal(prompt.code, 0);
      });
      assert.match(hooksLog(home), /task .* not started yet: the journal is locked/);
      const state = () => session(home, "held")!;
      assert.equal(
        state().task?.title,
        "Fix compute_total so a negative discount never raises the total",
        "the prompt is the session's task",
      );
      // The lock gone, the next event starts it; what it records belongs to it.
      for (const name of ["pre_edit", "post_edit", "post_bash_failure"]) {
        assert.equal((await hook(home, payload(name, repo, "held"), env)).code, 0);
      }
      const tasks = await heimdall(home, ["task", "list", "--json"]);
      const listed = (JSON.parse(tasks.stdout) as { tasks: { id: string; text: string }[] }).tasks;
      assert.deepEqual(listed.map((t) => t.text), [state().task!.title]);
      assert.equal(state().task!.id, listed[0]!.id);
      assert.equal(state().task!.unstarted, undefined);
      const shown = await heimdall(home, ["task", "show", listed[0]!.id, "--json"]);
      const task = JSON.parse(shown.stdout) as {
        claims: unknown[];
        memories: { kind: string }[];
      };
      assert.ok(task.claims.length > 0, "the edit's claims are the task's");
      assert.deepEqual(task.memories.map((m) => m.kind), ["attempt"]);
    }),
});

Deno.test({
  name:
    "the hooks' log is capped as the daemon's is: a hook failing on every call keeps two files of it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const base = tempDir();
    const home = join(base, "home");
    try {
      Deno.mkdirSync(join(home, "logs"), { recursive: true, mode: 0o700 });
      const log = join(home, "logs", "hooks.log");
      // Months of a harness sending what is not JSON, one line per tool call.
      Deno.writeTextFileSync(log, "x".repeat(LOG_ROTATE_BYTES), { mode: 0o600 });
      const r = await hook(home, "not json", { HEIMDALL_HOOK_SERVER: "0" });
      assert.equal(r.code, 0);
      assert.equal(Deno.statSync(`${log}.1`).size, LOG_ROTATE_BYTES, "the full file moved aside");
      assert.match(Deno.readTextFileSync(log), /stdin is not JSON/);
      assert.ok(Deno.statSync(log).size < 4096);
    } finally {
      removeTree(base);
    }
  },
});

/** A prompt of about `bytes` characters: a question, then a paste of code words in random order. */
function pastedPrompt(bytes: number): string {
  const words = [
    ...new Set(
      ["handler.ts", "hook_server.ts", "services_impl.ts", "region.ts"]
        .flatMap((f) =>
          Deno.readTextFileSync(new URL(`../src/harness/${f}`, import.meta.url)).split(/\s+/)
        )
        .filter((w) => w !== ""),
    ),
  ];
  const random = seededRandom(7);
  const out = ["Fix compute_total so a negative discount never raises the total. Log:"];
  for (let size = out[0]!.length; size < bytes;) {
    const w = words[Math.floor(random() * words.length)]!;
    out.push(w);
    size += w.length + 1;
  }
  return out.join(" ");
}

Deno.test({
  name:
    "a prompt of megabytes is answered within the hook's wait, and other sessions' prompts meanwhile get theirs",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ home, repo, warm }) => {
      const server = await warm();
      // Generous for a loaded machine; searching with the whole paste took seconds.
      const env = { HEIMDALL_HOOK_WAIT_MS: "2000" };
      const big = JSON.parse(payload("prompt", repo, "big"));
      const seen = hooksLog(home).length;
      const bigRun = hook(home, JSON.stringify({ ...big, prompt: pastedPrompt(4_000_000) }), env);
      // Other sessions' prompts, while the server has the paste in hand (searching with
      // all of it took seconds).
      const others: Promise<Run>[] = [];
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, 250));
        others.push(hook(home, payload("prompt", repo, `other-${i}`), env));
      }
      const log = () => hooksLog(home).slice(seen);
      for (const [i, r] of (await Promise.all(others)).entries()) {
        assert.match(r.stdout, /compute_total/, `other-${i}: ${log()}`);
      }
      const answered = await bigRun;
      assert.equal(answered.code, 0);
      assert.match(answered.stdout, /MUST: Round money to cents/, log());
      assert.doesNotMatch(log(), /did not answer|gave up/);
      assert.equal(serverPid(home), server, "the server was not replaced");
    }),
});

Deno.test({
  name:
    "an edit of a named pipe is answered, before and after it, in the hook's own process: the pipe is never read",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ home, repo }) => {
      const pipe = join(repo, "pkg", "events.py");
      assert.ok(new Deno.Command("mkfifo", { args: [pipe] }).outputSync().success);
      const edit = { file_path: pipe, content: "EVENTS = []\n" };
      for (
        const [session, event, extra] of [
          ["before", "PreToolUse", {}],
          ["after", "PostToolUse", { tool_response: { filePath: pipe } }],
        ] as const
      ) {
        // Reading the pipe waits for a writer forever and holds up the whole process: no
        // deadline of its own could end it, so the harness's agent waited with it.
        const out = await run([...selfArgv("hook"), "hook", "--harness", "claude-code"], home, {
          stdin: JSON.stringify({
            session_id: session,
            cwd: repo,
            hook_event_name: event,
            tool_name: "Write",
            tool_input: edit,
            ...extra,
          }),
          env: { HEIMDALL_HOOK_SERVER: "0" },
          cwd: repo,
          timeoutMs: 30_000,
        });
        assert.equal(out.code, 0, `${event}: ${out.stderr}`);
        assert.equal(out.signal, null, `${event} was killed after 30 s`);
      }
      const state = session(home, "after");
      assert.deepEqual(state?.edited, [pipe], "the edit is recorded all the same");
    }),
});

Deno.test({
  name:
    "a stop whose transcript is a named pipe is answered in the hook's own process: the pipe is never opened",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withHome("shop", async ({ base, home, repo }) => {
      const pipe = join(base, "transcript.jsonl");
      assert.ok(new Deno.Command("mkfifo", { args: [pipe] }).outputSync().success);
      // Opening a pipe for reading waits for a writer, synchronously: no deadline ends it.
      const out = await run([...selfArgv("hook"), "hook", "--harness", "claude-code"], home, {
        stdin: JSON.stringify({
          session_id: "piped",
          transcript_path: pipe,
          cwd: repo,
          hook_event_name: "Stop",
          stop_hook_active: false,
        }),
        env: { HEIMDALL_HOOK_SERVER: "0" },
        cwd: repo,
        timeoutMs: 30_000,
      });
      assert.equal(out.signal, null, "the stop hook was killed after 30 s");
      assert.equal(out.code, 0, out.stderr);
    }),
});
