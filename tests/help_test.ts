/**
 * `heimdall help`: the overview names every command without loading any of
 * them, and each command's own text begins with its name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { commandHelp, SUMMARIES } from "../src/cli/mod.ts";
import { cli, withTempDir } from "./helpers.ts";

Deno.test("the overview lists every command once, and each command's help begins with its own name", async () => {
  const listed = SUMMARIES.flatMap(([, list]) => list.map(([name]) => name));
  const commands = commandHelp();
  assert.deepEqual([...listed].sort(), [...commands.keys()].sort());
  assert.equal(new Set(listed).size, listed.length);
  for (const [name, help] of commands) {
    const text = await help();
    assert.ok(text.startsWith(`heimdall ${name}`), `${name}: ${text.slice(0, 40)}`);
  }
});

Deno.test("help with no topic prints the overview, help COMMAND that command's text, no command exits 2", () =>
  withTempDir(async (base) => {
    const home = join(base, "home");
    const overview = await cli(home, ["--help"]);
    assert.equal(overview.code, 0);
    assert.match(overview.stdout, /^ {2}blast-radius {2}what may break when a symbol changes$/m);
    const verify = await cli(home, ["help", "verify"]);
    assert.equal(verify.code, 0);
    assert.match(verify.stdout, /^heimdall verify \[--deep\] \[--json\]/);
    // The overview says "`heimdall help COMMAND`": help is one of them ("Unknown command", exit 2).
    const help = await cli(home, ["help", "help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Usage: heimdall COMMAND/);
    assert.equal(help.stderr, "");
    const none = await cli(home, []);
    assert.equal(none.code, 2);
    assert.match(none.stdout, /Usage: heimdall COMMAND/);
  }));

Deno.test("a word that names no command is one, with help or without: Object's own names too", () =>
  withTempDir(async (base) => {
    const home = join(base, "home");
    for (const word of ["nosuchcmd", "toString", "constructor", "__proto__"]) {
      const help = await cli(home, ["help", word]);
      assert.equal(help.code, 2, `help ${word}: ${help.stdout}`);
      assert.match(help.stderr, new RegExp(`Unknown command "${word}"`));
      assert.match(help.stdout, /Usage: heimdall COMMAND/, "and the commands there are");
      const run = await cli(home, [word]);
      assert.equal(run.code, 2, `${word}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`Unknown command "${word}"`));
    }
  }));

Deno.test("every option a command parses is named in its help", () => {
  const dir = new URL("../src/cli/", import.meta.url).pathname;
  const missing: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    if (!e.name.endsWith(".ts") || e.name.endsWith("_test.ts")) continue;
    const src = Deno.readTextFileSync(join(dir, e.name));
    const help = [...src.matchAll(/export const \w*HELP\w* =\s*`((?:\\[\s\S]|[^`\\])*)`/g)].map((
      m,
    ) => m[1])
      .join("\n");
    // A file without help of its own (search_view.ts) reads flags its command's help names.
    if (help === "") continue;
    for (const call of src.matchAll(/parseFlags\(\w+, \{([\s\S]*?)\}\)/g)) {
      for (const [, option] of call[1]!.matchAll(/"([a-z][a-z0-9-]*)"/g)) {
        if (!help.includes(`--${option}`)) missing.push(`${e.name}: --${option}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("hook --help prints the hook's help, as every command's --help does, without reading stdin", () =>
  withTempDir(async (base) => {
    const home = join(base, "home");
    for (const flag of ["--help", "-h"]) {
      // A terminal's stdin is never closed: the help must not wait for it.
      const r = await cli(home, ["hook", flag], {
        env: { HEIMDALL_HOOK_SERVER: "0" },
        stdin: "",
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^heimdall hook --harness NAME/, `hook ${flag}`);
      assert.equal(r.stderr, "");
    }
  }));

Deno.test("the hook's help says what the hook does to a tool call: never an approval, one pause for a teammate's claim", async () => {
  const text = await commandHelp().get("hook")!();
  assert.doesNotMatch(text, /never (?:approves or )?blocks/i);
  assert.match(text, /Never approves a tool call; pauses an edit once/);
});
