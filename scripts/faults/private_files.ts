/**
 * Files are private, measured with the real CLI and real hook processes
 * under `umask 022` (the usual default, which leaves new files 0644):
 *
 * - a session that indexes a repository, inserts a note, searches, hints,
 *   rebuilds (a backup), runs hooks (sessions, the hook log, the warm
 *   server's files) and, while another process holds the journal open
 *   mid-write (so its -wal and -shm exist), every file and folder under the
 *   home is counted, and those open to group or others;
 * - a home as an older version left it (0755 folders, 0644 files) after one
 *   `heimdall roots`: entries still open to others.
 *
 * Run alone: `deno run -A scripts/faults/private_files.ts`.
 */
import { join } from "node:path";
import { selfArgv } from "../../src/harness/install/command.ts";
import type { FaultRow } from "./row.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const FIXTURES = new URL("../../tests/fixtures/harness/claude-code/", import.meta.url).pathname;

async function under022(argv: string[], home: string, stdin?: string): Promise<number> {
  const child = new Deno.Command("sh", {
    args: ["-c", 'umask 022; exec "$@"', "sh", ...argv],
    env: { HEIMDALL_HOME: home, DENO_NO_UPDATE_CHECK: "1", HEIMDALL_HOOK_WAIT_MS: "5000" },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  return (await child.status).code;
}

/** [all entries, entries with group/other bits] under `dir` (itself included). */
function census(dir: string): [number, string[]] {
  let all = 0;
  const loose: string[] = [];
  const walk = (p: string) => {
    all++;
    const st = Deno.lstatSync(p);
    if ((st.mode! & 0o077) !== 0) loose.push(`${p} ${(st.mode! & 0o777).toString(8)}`);
    if (st.isDirectory) { for (const e of Deno.readDirSync(p)) walk(join(p, e.name)); }
  };
  walk(dir);
  return [all, loose];
}

function payload(name: string, repo: string): string {
  const f = JSON.parse(Deno.readTextFileSync(join(FIXTURES, `${name}.json`)));
  return JSON.stringify(f.payload).replaceAll("{{repo}}", repo);
}

/** Measures both figures; returns the rows. */
export async function run(): Promise<FaultRow[]> {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-faults-private-" });
  const home = join(base, "home");
  const repo = join(base, "repo");
  const cli = (args: string[]) => under022([Deno.execPath(), "run", "-A", MAIN, ...args], home);
  const hook = (stdin: string) =>
    under022([...selfArgv("hook"), "hook", "--harness", "claude-code"], home, stdin);
  let holder: Deno.ChildProcess | undefined;
  try {
    Deno.mkdirSync(join(repo, "pkg"), { recursive: true });
    Deno.writeTextFileSync(join(repo, "pkg", "billing.py"), "def total(xs):\n    return sum(xs)\n");
    await cli(["index", repo]);
    await cli(["insert", "--title", "cents", "--body", "Money is integer cents."]);
    await cli(["search", "total"]);
    await cli(["hint", join(repo, "pkg", "billing.py")]);
    await cli(["rebuild"]);
    for (const e of ["session_start", "prompt", "post_edit", "post_bash_failure", "grep"]) {
      await hook(payload(e, repo));
    }
    const script = join(base, "hold.ts");
    Deno.writeTextFileSync(
      script,
      `import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(Deno.args[0]);
db.exec("BEGIN EXCLUSIVE");
db.exec("CREATE TABLE IF NOT EXISTS held (x)");
console.log("locked");
await new Promise((r) => setTimeout(r, 600_000));
`,
    );
    holder = new Deno.Command("sh", {
      args: [
        "-c",
        'umask 022; exec "$@"',
        "sh",
        Deno.execPath(),
        "run",
        "-A",
        script,
        join(
          home,
          "journal.db",
        ),
      ],
      env: { DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = holder.stdout.getReader();
    await reader.read();
    reader.releaseLock();
    const [all, loose] = census(home);
    const sides = ["journal.db-wal", "journal.db-shm"].filter((f) => {
      try {
        return Deno.statSync(join(home, f)).isFile;
      } catch {
        return false;
      }
    }).length;
    holder.kill();
    await holder.status;
    holder = undefined;

    // A home as an older version left it.
    const old = join(base, "old");
    for (const d of ["", "logs", "sessions", "hints"]) {
      Deno.mkdirSync(join(old, d), { mode: 0o755 });
    }
    for (
      const f of [
        "config.json",
        "logs/daemon.log",
        "sessions/claude-code--a--1.json",
        "hints/1.hint",
      ]
    ) {
      Deno.writeTextFileSync(join(old, f), "{}\n");
    }
    for (const d of ["", "logs", "sessions", "hints"]) Deno.chmodSync(join(old, d), 0o755);
    for (const f of Deno.readDirSync(old)) {
      if (f.isFile) Deno.chmodSync(join(old, f.name), 0o644);
    }
    for (const d of ["logs", "sessions", "hints"]) {
      for (const f of Deno.readDirSync(join(old, d))) Deno.chmodSync(join(old, d, f.name), 0o644);
    }
    const [oldAll, oldLooseBefore] = census(old);
    await under022([Deno.execPath(), "run", "-A", MAIN, "roots"], old).catch(() => 0);
    const [, oldLoose] = census(old);
    await Deno.remove(join(old), { recursive: true });

    const server = (() => {
      try {
        return Number(Deno.readTextFileSync(join(home, "hookd.pid")).trim()) || null;
      } catch {
        return null;
      }
    })();
    if (server !== null) {
      try {
        Deno.kill(server, "SIGTERM");
      } catch { /* gone */ }
    }
    return [
      {
        figure:
          `entries under a home open to others after a umask-022 session (WAL and SHM: ${sides} of 2 present)`,
        value: `${loose.length} of ${all}`,
        target: "0",
        met: loose.length === 0 && sides === 2,
      },
      {
        figure: "entries of an older version's 0755/0644 home left open after one command",
        value: `${oldLoose.length} of ${oldAll} (were ${oldLooseBefore.length})`,
        target: "0",
        met: oldLoose.length === 0,
      },
    ];
  } finally {
    if (holder) {
      holder.kill();
      await holder.status;
    }
    Deno.removeSync(base, { recursive: true });
  }
}

if (import.meta.main) console.table(await run());
