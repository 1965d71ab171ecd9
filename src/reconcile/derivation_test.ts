/** Derivation versions: a release that changes how rows are derived re-derives exactly those files. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import {
  compareStructHashes,
  DERIVATION,
  derivationOf,
  type DerivationVersions,
} from "../extract/mod.ts";
import { versionedStructHash } from "../extract/struct_hash.ts";
import { dumpIndex, Journal } from "../store/mod.ts";
import { Reconciler } from "./reconciler.ts";
import { LineExtractor } from "../../tests/line_extractor.ts";

const FILES: Record<string, string> = {
  "a.ts": "function one() {}\n",
  "lib/b.ts": "function two() {}\nfunction three() {}\n",
  "c.py": "def four():\n    pass\n",
  "notes.md": "# Notes\n\nSome prose.\n",
  "data.txt": "plain\n",
};

function setup(base: string, name: string, derivations?: DerivationVersions) {
  const root = join(base, "repo");
  const home = homePaths(join(base, name));
  const journal = Journal.open(home.journal);
  const config = { ...defaultConfig(), roots: [{ path: root, depth: "max" as const }] };
  const r = new Reconciler(journal, home, config, new LineExtractor());
  if (derivations) r.derivations = derivations;
  r.syncRoots();
  return { journal, r };
}

function rows(j: Journal): Map<string, { generation: number; derivation: string | null }> {
  return new Map(
    j.all<{ rel: string; generation: number; derivation: string | null }>(
      "SELECT rel, generation, derivation FROM paths ORDER BY rel",
    ).map((r) => [r.rel, { generation: r.generation, derivation: r.derivation }]),
  );
}

Deno.test("a bumped language version re-derives exactly that language's files at the next audit", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-derivation-" });
  for (const [rel, text] of Object.entries(FILES)) {
    Deno.mkdirSync(join(base, "repo", rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(base, "repo", rel), text);
  }
  const t = setup(base, "home");
  await t.r.audit();
  const before = rows(t.journal);
  assert.equal(before.get("a.ts")!.derivation, derivationOf("typescript"));
  // Nothing changed on disk and nothing in the code: the audit costs a stat.
  assert.equal((await t.r.audit()).changed, 0);

  const bumped = { ...DERIVATION, languages: { ...DERIVATION.languages, typescript: 7 } };
  t.r.derivations = bumped;
  const stats = await t.r.audit();
  assert.equal(stats.changed, 2, "the two TypeScript files, and only they");
  const after = rows(t.journal);
  for (const [rel, row] of after) {
    const ts = rel.endsWith(".ts");
    assert.equal(row.generation, before.get(rel)!.generation + (ts ? 1 : 0), rel);
    const was = before.get(rel)!.derivation!;
    assert.equal(row.derivation, ts ? was.replace(/\.\d+$/, ".7") : was, rel);
  }
  // Settled again: the next audit re-derives nothing.
  assert.equal((await t.r.audit()).changed, 0);
  // And the re-derived journal is the one a fresh index by that build makes.
  const fresh = setup(base, "fresh", bumped);
  await fresh.r.audit();
  assert.equal(dumpIndex(t.journal), dumpIndex(fresh.journal));

  // A bump of the extractor's own version reaches every file.
  t.r.derivations = { ...bumped, base: bumped.base + 1 };
  assert.equal((await t.r.audit()).changed, Object.keys(FILES).length);
  t.journal.close();
  fresh.journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("rows from before derivations were recorded count as 1.1.0: a build at 1.1.0 leaves them, any other re-derives them", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-derivation-" });
  for (const [rel, text] of Object.entries(FILES)) {
    Deno.mkdirSync(join(base, "repo", rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(base, "repo", rel), text);
  }
  const legacy = { base: 1, structHash: 1, languages: {} };
  const t = setup(base, "home", legacy);
  await t.r.audit();
  t.journal.run("UPDATE paths SET derivation = NULL");
  assert.equal((await t.r.audit()).changed, 0);
  t.r.derivations = { ...legacy, structHash: 2 };
  assert.equal((await t.r.audit()).changed, Object.keys(FILES).length);
  t.journal.close();
  Deno.removeSync(base, { recursive: true });
});

Deno.test("compareStructHashes() calls hashes of different versions unknown, never diverged", () => {
  const a = "0123456789abcdef";
  const b = "fedcba9876543210";
  assert.equal(compareStructHashes(a, a), "same");
  assert.equal(compareStructHashes(a, b), "diverged");
  assert.equal(
    compareStructHashes(versionedStructHash(a, 2), versionedStructHash(b, 2)),
    "diverged",
  );
  // A teammate on a release whose hash is version 2, comparing with a version-1 hash.
  assert.equal(compareStructHashes(a, versionedStructHash(a, 2)), "unknown");
  assert.equal(compareStructHashes(a, versionedStructHash(b, 2)), "unknown");
  assert.equal(compareStructHashes(null, a), "unknown");
});
