/**
 * The call graph against real type checkers on small pinned projects
 * (`tests/fixtures/callgraph/oracle/`): every call Heimdall resolves is
 * checked against the declaration the TypeScript checker (`typescript`
 * 5.9.3) or Jedi (`python3-jedi`) gives for the same call site, as
 * `scripts/bench_callgraph.ts` does on larger projects. Precision must be at
 * least 97% (issue 13), and recall high enough that precision is not bought
 * by resolving nothing. Outside CI, a missing checker is ignored with one
 * line naming it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { compareCalls, type OracleCall, type Score } from "../scripts/callgraph/compare.ts";
import {
  heimdallCalls,
  jediCalls,
  OracleUnavailableError,
  pythonWithJedi,
  tscCalls,
} from "../scripts/callgraph/run.ts";
import { copyDir, removeTree, tempDir, withoutTool } from "./helpers.ts";

const FIXTURES = new URL("./fixtures/callgraph/oracle/", import.meta.url).pathname;
const REPO = new URL("..", import.meta.url).pathname;

const hasJedi = () => pythonWithJedi() !== undefined;

/** Heimdall's calls on a copy of fixture `name`, scored against `oracle` run on the same copy. */
async function score(
  name: string,
  oracle: (root: string) => Promise<OracleCall[]>,
): Promise<Score | undefined> {
  const base = tempDir();
  try {
    const root = join(base, name);
    copyDir(join(FIXTURES, name), root);
    let said: OracleCall[];
    try {
      said = await oracle(root);
    } catch (e) {
      if (!(e instanceof OracleUnavailableError)) throw e;
      if (withoutTool(e.tool, false, `network access for npm, or ${e.reason}`)) return undefined;
      throw e;
    }
    const scratch = join(base, "scratch");
    Deno.mkdirSync(scratch);
    return compareCalls(await heimdallCalls(root, REPO, scratch), said);
  } finally {
    removeTree(base);
  }
}

function explain(s: Score): string {
  return `precision ${s.correct}/${s.judged}, recall ${s.found}/${s.inRepo}; wrong: ${
    s.wrong.join("; ") || "none"
  }; missed: ${s.missed.join("; ") || "none"}`;
}

Deno.test("every call Heimdall resolves in a TypeScript project is where the TypeScript checker says", async () => {
  const s = await score("ts", tscCalls);
  if (!s) return;
  assert.ok(s.judged >= 15, explain(s));
  assert.equal(s.unjudged, 0, explain(s));
  assert.ok(s.precision >= 0.97, explain(s));
  assert.ok(s.recall >= 0.6, explain(s));
});

Deno.test(
  "every call Heimdall resolves in a Python project is where Jedi says",
  { ignore: withoutTool("python3-jedi", hasJedi(), "apt-get install -y python3-jedi") },
  async () => {
    const s = await score("py", jediCalls);
    if (!s) return;
    assert.ok(s.judged >= 10, explain(s));
    assert.equal(s.unjudged, 0, explain(s));
    assert.ok(s.precision >= 0.97, explain(s));
    assert.ok(s.recall >= 0.6, explain(s));
  },
);
