/**
 * What a one-shot `heimdall search` process loads before it answers: the
 * modules reached without a dynamic import from the client that asks the
 * warm server (`search_client.ts`), the CLI, the search command,
 * the search module and the model registry (the dynamic imports a search
 * with no model takes, src/cli/mod.ts `wireSemanticLeg`). Each of Deno's
 * Node modules and npm packages costs a process's start milliseconds
 * (`node:crypto` alone about 25 ms of a 230 ms search, measured with
 * `--cpu-prof`), so none may come in through a static import there; a module
 * that needs one loads it on first use.
 */
import assert from "node:assert/strict";

const ROOT = new URL("..", import.meta.url).pathname;
const SEARCH_MODULES = [
  "src/cli/search_client.ts",
  "src/cli/mod.ts",
  "src/cli/search_cmd.ts",
  "src/search/mod.ts",
  "src/embed/registry.ts",
];
/** What the search process may load besides its own modules: the journal's driver. */
const ALLOWED = new Set(["node:sqlite"]);

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier?: string }; isDynamic?: boolean }[];
}

Deno.test("a one-shot search loads no Node module but node:sqlite and no npm package", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const modules = new Map<string, InfoModule>();
  for (
    const m of (JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] })
      .modules
  ) {
    modules.set(m.specifier, m);
  }
  // Each module reached statically, with the module that imports it.
  const via = new Map<string, string>();
  const todo = SEARCH_MODULES.map((m) => `file://${ROOT}${m}`);
  for (const root of todo) {
    assert.ok(modules.has(root), `${root} is not in main.ts's module graph`);
    via.set(root, "(entry)");
  }
  while (todo.length > 0) {
    const from = todo.pop()!;
    for (const d of modules.get(from)?.dependencies ?? []) {
      const to = d.code?.specifier;
      if (d.isDynamic || to === undefined || via.has(to)) continue;
      via.set(to, from);
      todo.push(to);
    }
  }
  assert.ok(
    via.size > SEARCH_MODULES.length,
    "the closure found no module: deno info's format changed",
  );
  const foreign = [...via]
    .filter(([s]) => !s.startsWith("file://") && !ALLOWED.has(s))
    .map(([s, from]) => `${s} (imported by ${from.replace(`file://${ROOT}`, "")})`);
  assert.deepEqual(foreign, [], "load these on first use instead (see src/files/content_hash.ts)");
});
