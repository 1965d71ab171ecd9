/**
 * Prose chunking as a user meets it: files of every prose format written to
 * a real folder, indexed by the CLI, and each question answered by the
 * section that holds its answer, named by its heading path, at its lines.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { SearchResult } from "../src/search/mod.ts";
import { cli, removeTree, tempDir, writeTree } from "./helpers.ts";

/** A file, a question only one of its sections answers, and the hit it must give. */
interface ProseCase {
  file: string;
  text: string;
  query: string;
  symbol: string;
  line: number;
  endLine: number;
}

const CASES: ProseCase[] = [
  {
    // Hugo's TOML front matter: a commented-out key is no heading.
    file: "content/deploy.md",
    text: '+++\ntitle = "Deploy"\n# weight = 10\n+++\n\nIntro.\n\n## Rollback\n\n' +
      "Revert the quasar release first.\n",
    query: "revert quasar release",
    symbol: "Rollback",
    line: 8,
    endLine: 10,
  },
];

Deno.test("each prose file's answer is named by its own heading path, at its lines", async () => {
  const base = tempDir("heimdall-prose-");
  try {
    const repo = join(base, "repo");
    writeTree(repo, Object.fromEntries(CASES.map((c) => [c.file, c.text])));
    const home = join(base, "home");
    const idx = await cli(home, ["index", repo]);
    assert.equal(idx.code, 0, idx.stderr);
    const root = Deno.realPathSync(repo);
    for (const c of CASES) {
      const r = await cli(home, ["search", "--json", c.query]);
      assert.equal(r.code, 0, `${c.file}: ${r.stderr}`);
      const hit = (JSON.parse(r.stdout) as SearchResult).hits[0]!;
      assert.deepEqual(
        [hit.path?.slice(root.length + 1), hit.symbol, hit.line, hit.end_line],
        [c.file, c.symbol, c.line, c.endLine],
        c.query,
      );
    }
  } finally {
    removeTree(base);
  }
});
