/**
 * What the team tests share: a small repository with a call chain, indexed
 * by the real CLI, a runner of the CLI allowed to reach a loopback
 * PostgreSQL, and that PostgreSQL with a fresh database per test step.
 *
 *   main → handleRequest → route → dispatch → store       (audit → store)
 */
import { join } from "node:path";
import type pg from "pg";
import { existsSync } from "node:fs";
import {
  type CliResult,
  hasCommand,
  MAIN,
  removeTree,
  sh,
  tempDir,
  withoutTool,
  writeTree,
} from "./helpers.ts";

const DENO = Deno.execPath();

/** The call chain, one function per file but the first two. */
export const CHAIN_FILES: Record<string, string> = {
  "src/app.ts": `import { route } from "./router.ts";

export function handleRequest(req: string): string {
  return route(req);
}

export function main(): void {
  handleRequest("x");
}
`,
  "src/router.ts": `import { dispatch } from "./dispatch.ts";

export function route(req: string): string {
  return dispatch(req);
}
`,
  "src/dispatch.ts": `import { store } from "./store.ts";

export function dispatch(req: string): string {
  return store(req);
}
`,
  "src/store.ts": `export function store(req: string): string {
  return req.toUpperCase();
}

export function audit(): string {
  return store("audit");
}
`,
};

/** Runs `heimdall ARGS` as `author` (HEIMDALL_AUTHOR), with loopback network for PostgreSQL. */
export async function heimdall(
  home: string,
  args: string[],
  options: { cwd?: string; author?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const out = await new Deno.Command(DENO, {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      "--allow-sys",
      "--allow-net=127.0.0.1,localhost",
      MAIN,
      ...args,
    ],
    env: {
      HEIMDALL_HOME: home,
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
      HEIMDALL_AUTHOR: options.author ?? "tester",
      HEIMDALL_AGENT: "",
      HEIMDALL_SESSION: "",
      ...options.env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    ...(options.cwd ? { cwd: options.cwd } : {}),
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

/** Runs the CLI and parses its `--json` output; fails with its stderr on an unexpected exit. */
export async function heimdallJson<T>(
  home: string,
  args: string[],
  options: { cwd?: string; author?: string; expect?: number } = {},
): Promise<T> {
  const r = await heimdall(home, [...args, "--json"], options);
  if (r.code !== (options.expect ?? 0)) {
    throw new Error(`heimdall ${args.join(" ")} exited ${r.code}: ${r.stderr}${r.stdout}`);
  }
  return JSON.parse(r.stdout) as T;
}

/** One machine: a clone of the chain repository in `folder`, indexed in its own home. */
export interface Machine extends Disposable {
  base: string;
  repo: string;
  home: string;
}

/**
 * Writes the chain repository (a git repository with an origin, so its
 * portable name is "shop" whatever the folder is called) and indexes it.
 * Disposing the machine (`using m = await machine()`) removes it all.
 */
export async function machine(folder = "shop"): Promise<Machine> {
  const base = tempDir("heimdall-team-");
  const repo = join(base, folder);
  writeTree(repo, CHAIN_FILES);
  await sh("git init -q && git remote add origin https://example.com/acme/shop.git", repo);
  const home = join(base, "home");
  const dispose = () => removeTree(base);
  const r = await heimdall(home, ["index", repo]);
  if (r.code !== 0) {
    dispose();
    throw new Error(`index failed: ${r.stderr}`);
  }
  return { base, repo, home, [Symbol.dispose]: dispose };
}

/**
 * Runs `fn` with every clock reading of this process (`Date.now()`,
 * `new Date()`) `behindMs` behind the real one, to show that a store does not
 * take its times from the client.
 */
export async function withClockBehind<T>(behindMs: number, fn: () => Promise<T>): Promise<T> {
  const RealDate = Date;
  globalThis.Date = class extends RealDate {
    constructor(...args: unknown[]) {
      super(...(args.length === 0 ? [RealDate.now() - behindMs] : args) as [number]);
    }
    static override now() {
      return RealDate.now() - behindMs;
    }
  } as DateConstructor;
  try {
    return await fn();
  } finally {
    globalThis.Date = RealDate;
  }
}

const PG_SCRIPT = new URL("../scripts/pg_test_server.sh", import.meta.url).pathname;

/**
 * True when the team-store tests can have a PostgreSQL here: a given
 * $HEIMDALL_TEST_PG_URL, an installed server, or root with apt-get (the
 * script installs one). Pass to `withoutTool` as a test's `ignore`.
 */
export function hasPostgres(): boolean {
  if (Deno.env.get("HEIMDALL_TEST_PG_URL")) return true;
  try {
    for (const v of Deno.readDirSync("/usr/lib/postgresql")) {
      if (existsSync(`/usr/lib/postgresql/${v.name}/bin/initdb`)) return true;
    }
  } catch {
    // no server installed
  }
  return Deno.uid() === 0 && hasCommand("apt-get");
}

/** `ignore` for a test that needs PostgreSQL (see `withoutTool`). */
export function noPostgres(): boolean {
  return withoutTool("PostgreSQL", hasPostgres(), "sudo apt-get install -y postgresql");
}

/** A PostgreSQL server for tests: its URL, and how to stop it (when the test started it). */
export interface PgServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * The PostgreSQL the team tests run against: $HEIMDALL_TEST_PG_URL (CI's
 * `.ci/run` starts one with scripts/pg_test_server.sh); without it, one
 * started here through the same script (stopped and deleted by `stop`),
 * except under CI=true, where a missing server is a failure.
 */
export async function pgServer(): Promise<PgServer> {
  const given = Deno.env.get("HEIMDALL_TEST_PG_URL");
  if (given) return { url: given, stop: () => Promise.resolve() };
  if (Deno.env.get("CI") === "true") {
    throw new Error(
      "HEIMDALL_TEST_PG_URL is not set: under CI the team-store tests need the PostgreSQL that .ci/run starts with `scripts/pg_test_server.sh start DIR`",
    );
  }
  const parent = tempDir("heimdall-pg-");
  const dir = join(parent, "pg");
  const run = async (verb: string) => {
    const out = await new Deno.Command("bash", {
      args: [PG_SCRIPT, verb, dir],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.code !== 0) {
      throw new Error(`pg_test_server.sh ${verb} failed: ${new TextDecoder().decode(out.stderr)}`);
    }
    return new TextDecoder().decode(out.stdout).trim();
  };
  const url = await run("start");
  return {
    url,
    stop: async () => {
      await run("stop");
      Deno.removeSync(parent, { recursive: true });
    },
  };
}

/** Runs `fn` on a new connection to `url`, closed afterwards. */
export async function withPg<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const { default: pgLib } = await import("pg");
  const c = new pgLib.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The rows of one statement, on a connection of its own. */
export function sql<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  return withPg(url, async (c) => (await c.query(text, params)).rows as T[]);
}

/**
 * A new empty database on the server at `server`, named `PREFIX_<random>`;
 * returns its URL and a disposer that drops it (closing its connections).
 */
export async function freshDatabase(
  server: string,
  prefix = "heimdall_t",
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await sql(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => sql(server, `DROP DATABASE ${name} WITH (FORCE)`).then(() => {}),
  };
}
