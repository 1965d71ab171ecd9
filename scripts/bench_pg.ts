/**
 * PostgreSQL for the `scripts/bench*` scripts that measure the team store:
 * a fresh database on a given server, or on one scripts/pg_test_server.sh
 * starts. Kept apart from bench_util.ts so that benches without PostgreSQL
 * do not load `pg`.
 */

import { join } from "node:path";
import pg from "pg";
import { type Cleanup, timeCommand } from "./bench_util.ts";

const SCRIPT = new URL("./pg_test_server.sh", import.meta.url).pathname;

/**
 * The URL of a fresh database named `prefix` plus a timestamp on `server`, or,
 * when `server` is "start", on a server scripts/pg_test_server.sh starts in
 * `dir`/pg. `cleanup` drops the database and stops a server it started.
 */
export async function benchDatabase(
  server: string,
  prefix: string,
  cleanup: Cleanup,
  dir: string,
): Promise<string> {
  if (server === "start") {
    const pgDir = join(dir, "pg");
    const out = await timeCommand("bash", [SCRIPT, "start", pgDir]);
    if (out.code !== 0) throw new Error(`pg_test_server.sh start failed: ${out.stderr}`);
    server = out.stdout.trim();
    cleanup.add(
      "stop PostgreSQL",
      async () => void (await timeCommand("bash", [SCRIPT, "stop", pgDir])),
    );
  }
  const name = `${prefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const at = server;
  cleanup.add(`drop database ${name}`, async () => {
    const c = new pg.Client({ connectionString: at });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}
