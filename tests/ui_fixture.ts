/**
 * The dashboard tests' fixture: a small TypeScript repository indexed in a
 * temporary HEIMDALL_HOME, with claims by two developers (a conflict two
 * calls away, and two claimed functions whose closest shared caller is
 * `main`), a task handed off, a failure recorded twice (×2) and a decision
 * superseded a second later (for the as-of query). Built through the real
 * CLI, in subprocesses.
 */
import { join } from "node:path";
import { cli, tempDir, writeTree } from "./helpers.ts";

/** Where the fixture lives, and the ids the tests look for. */
export interface UiFixture {
  dir: string;
  home: string;
  repo: string;
  oldDecision: string;
  newDecision: string;
  /** The instant between the two decisions. */
  between: number;
}

const FILES: Record<string, string> = {
  "src/api.ts": `import { validate } from "./validate.ts";

/** Answers one request. */
export function handleRequest(body: string): string {
  return validate(body) ? "ok" : "bad";
}
`,
  "src/validate.ts": `import { parseInput } from "./parse.ts";

/** Whether a body is acceptable. */
export function validate(body: string): boolean {
  return parseInput(body).length > 0;
}
`,
  "src/parse.ts": `/** Splits a body into fields. */
export function parseInput(body: string): string[] {
  return body.split(",").filter((f) => f !== "");
}
`,
  "src/render.ts": `/** Draws the page. */
export function renderPage(title: string): string {
  return "<h1>" + title + "</h1>";
}
`,
  "src/store.ts": `/** Saves a user. */
export function saveUser(name: string): number {
  return name.length;
}
`,
  "src/main.ts": `import { handleRequest } from "./api.ts";
import { renderPage } from "./render.ts";
import { saveUser } from "./store.ts";

/** Starts everything. */
export function main(): void {
  saveUser("ada");
  renderPage("home");
  handleRequest("a,b");
}
`,
  "README.md": "# shop\n\nA tiny shop used by the dashboard tests.\n",
  ".heimdall/map.toml": `[component.api]
description = "Request handling"
paths = ["src/api.ts", "src/validate.ts", "src/parse.ts"]
must = ["Every request body is validated before use"]

[component.ui]
paths = ["src/render.ts", "src/main.ts"]
depends_on = ["api"]
should = ["No I/O while rendering"]
`,
};

async function ok(home: string, args: string[], opts: Parameters<typeof cli>[2] = {}) {
  const r = await cli(home, args, opts);
  if (r.code !== 0) {
    throw new Error(`heimdall ${args.join(" ")} → ${r.code}\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

/** Builds the fixture in a new temp folder (remove `dir` when done). */
export async function buildUiFixture(): Promise<UiFixture> {
  const dir = tempDir("heimdall-ui-");
  const home = join(dir, "home");
  const repo = join(dir, "shop");
  writeTree(repo, FILES);
  await ok(home, ["index", repo]);
  const as = (who: string) => ({ cwd: repo, env: { HEIMDALL_AUTHOR: who, HEIMDALL_SESSION: who } });
  // Carol starts a task and hands it to Bob; Alice and Bob claim code on either end of a call chain.
  const task = JSON.parse(
    await ok(home, ["task", "start", "Harden request parsing", "--json"], as("carol")),
  );
  const taskId = (task.task ?? task).id as string;
  await ok(
    home,
    ["task", "handoff", taskId, "--to", "bob", "--note", "parsing is yours"],
    as("carol"),
  );
  await ok(home, ["claim", "handleRequest", "renderPage", "--ttl", "1d"], as("alice"));
  await ok(home, ["claim", "parseInput", "saveUser", "--ttl", "1d"], as("bob"));
  for (let i = 0; i < 2; i++) {
    await ok(home, [
      "attempt",
      "--about",
      "src/parse.ts:parseInput",
      "--failed",
      "--tests",
      "parse_empty",
      "parseInput crashes on an empty body",
    ], as("bob"));
  }
  const old = JSON.parse(
    await ok(home, [
      "remember",
      "--kind",
      "decision",
      "--about",
      "src/validate.ts:validate",
      "--json",
      "Validate request bodies with hand-written checks",
    ], as("alice")),
  );
  await new Promise((r) => setTimeout(r, 1200));
  const between = Date.now() - 600;
  const fresh = JSON.parse(
    await ok(home, [
      "remember",
      "--kind",
      "decision",
      "--about",
      "src/validate.ts:validate",
      "--supersedes",
      old.memory.id,
      "--json",
      "Validate request bodies with a schema library",
    ], as("bob")),
  );
  return {
    dir,
    home,
    repo,
    oldDecision: old.memory.id,
    newDecision: fresh.memory.id,
    between,
  };
}

if (import.meta.main) {
  const f = await buildUiFixture();
  console.log(JSON.stringify(f));
}
