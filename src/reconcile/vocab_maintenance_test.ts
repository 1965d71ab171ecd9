import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import { createExtractor } from "../extract/mod.ts";
import { decodeVocabSets, dumpIndex, Journal, retractPath } from "../store/mod.ts";
import { Reconciler } from "./reconciler.ts";
import { verifyJournal } from "./verify.ts";

/** A real reconciler over real temp folders (one per root), with the real extractor. */
function setup(roots: Record<string, Record<string, string>>) {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-vocab-" });
  const paths: Record<string, string> = {};
  for (const [name, files] of Object.entries(roots)) {
    paths[name] = join(base, name);
    Deno.mkdirSync(paths[name], { recursive: true });
    write(paths[name], files);
  }
  const home = homePaths(join(base, "home"));
  const journal = Journal.open(home.journal);
  const config = {
    ...defaultConfig(),
    roots: Object.values(paths).map((path) => ({ path, depth: "max" as const })),
  };
  const r = new Reconciler(journal, home, config, createExtractor());
  r.syncRoots();
  return {
    base,
    roots: paths,
    journal,
    r,
    [Symbol.dispose]() {
      journal.close();
      Deno.removeSync(base, { recursive: true });
    },
  };
}

function write(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    Deno.mkdirSync(join(root, rel, ".."), { recursive: true });
    Deno.writeTextFileSync(join(root, rel), content);
  }
}

/** The vocabulary tables of a canonical dump (what follows from the disk alone). */
function vocabDump(j: Journal): string {
  const dump = dumpIndex(j);
  return dump.slice(dump.indexOf("# vocab_sets"));
}

/** The counts recomputed from every path's stored sets, as the tables should hold them. */
function recount(j: Journal): { pairs: string[]; words: string[] } {
  const pairs = new Map<string, number>();
  const words = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const { sets } of j.all<{ sets: string }>("SELECT sets FROM vocab_sets")) {
    for (const s of decodeVocabSets(sets)) {
      bump(words, "symbols\t");
      for (const c of s.code) bump(words, `code\t${c}`);
      for (const p of s.prose) {
        bump(words, `prose\t${p}`);
        for (const c of s.code) if (c !== p) bump(pairs, `${p}\t${c}`);
      }
    }
  }
  const lines = (m: Map<string, number>) => [...m].map(([k, n]) => `${k}\t${n}`).sort();
  return { pairs: lines(pairs), words: lines(words) };
}

function stored(j: Journal): { pairs: string[]; words: string[] } {
  return {
    pairs: j.all<{ l: string }>(
      "SELECT prose || char(9) || code || char(9) || n AS l FROM vocab_pairs",
    )
      .map((r) => r.l).sort(),
    words: j.all<{ l: string }>(
      "SELECT side || char(9) || word || char(9) || n AS l FROM vocab_words",
    )
      .map((r) => r.l).sort(),
  };
}

const PASSWORD_TS = `/** Checks the password a user typed against the stored hash. */
export function checkPassword(user: User, typed: string): boolean {
  return verifyHash(user.passwordHash, typed);
}

/** Hashes a new password for storage with a fresh salt. */
export function hashPassword(plain: string): string {
  const salt = randomSalt();
  return digest(salt + plain) + ":" + salt;
}
`;

const QUEUE_TS = `/** Schedules a job to run later, after a delay. */
export function schedule(job: Job, delayMs: number): Timer {
  return setTimeout(() => job.run(), delayMs);
}
`;

const PARSE_PY = `def parse_header(line):
    """Splits one header line into its name and value."""
    name, _, value = line.partition(":")
    return name.strip().lower(), value.strip()
`;

Deno.test("the learned vocabulary after edits and deletions equals a fresh index of the final tree", async () => {
  using t = setup({ repo: { "auth.ts": PASSWORD_TS, "queue.ts": QUEUE_TS, "parse.py": PARSE_PY } });
  const root = t.roots.repo!;
  await t.r.audit();
  assert.ok(t.journal.get<{ n: number }>("SELECT count(*) AS n FROM vocab_pairs")!.n > 0);
  assert.deepEqual(stored(t.journal), recount(t.journal));
  // An edit that changes a doc comment, a deletion, a new file, one at a time.
  write(root, {
    "auth.ts": PASSWORD_TS.replace("Checks the password", "Compares the secret"),
  });
  await t.r.reconcilePaths([join(root, "auth.ts")]);
  assert.deepEqual(stored(t.journal), recount(t.journal));
  Deno.removeSync(join(root, "queue.ts"));
  await t.r.reconcilePaths([join(root, "queue.ts")]);
  write(root, { "more/cache.ts": QUEUE_TS.replace("Schedules a job", "Evicts a cache entry") });
  await t.r.audit();
  assert.deepEqual(stored(t.journal), recount(t.journal));
  const incremental = vocabDump(t.journal);
  assert.match(incremental, /"prose":"secret"/);
  assert.doesNotMatch(incremental, /"prose":"schedul"/);

  using fresh = setup({ repo: {} });
  write(fresh.roots.repo!, {
    "auth.ts": Deno.readTextFileSync(join(root, "auth.ts")),
    "parse.py": PARSE_PY,
    "more/cache.ts": Deno.readTextFileSync(join(root, "more/cache.ts")),
  });
  await fresh.r.audit();
  // Owners differ only by the temp folder's name.
  assert.equal(
    vocabDump(fresh.journal).replaceAll(fresh.base, ""),
    incremental.replaceAll(t.base, ""),
  );
});

Deno.test("reconciling twice leaves the learned vocabulary byte-identical", async () => {
  using t = setup({ repo: { "auth.ts": PASSWORD_TS, "parse.py": PARSE_PY } });
  await t.r.audit();
  const once = dumpIndex(t.journal, "raw");
  assert.match(once, /# vocab_pairs\n\{"prose"/);
  await t.r.audit();
  await t.r.audit({ deep: true });
  await t.r.reconcilePaths([join(t.roots.repo!, "auth.ts")], true);
  assert.equal(dumpIndex(t.journal, "raw"), once);
});

Deno.test("removing a root or retracting a path uncounts exactly what it taught", async () => {
  using t = setup({
    a: { "auth.ts": PASSWORD_TS },
    b: { "queue.ts": QUEUE_TS, "parse.py": PARSE_PY },
  });
  await t.r.audit();
  using onlyB = setup({ b: { "queue.ts": QUEUE_TS, "parse.py": PARSE_PY } });
  await onlyB.r.audit();
  t.r.syncRoots({ ...t.r.config, roots: t.r.config.roots.filter((r) => r.path === t.roots.b) });
  assert.deepEqual(stored(t.journal), stored(onlyB.journal));
  // A retraction outside any batch (as `heimdall rebuild` does) writes its own counts.
  const paths = t.journal.all<{ path: string; generation: number }>(
    "SELECT path, generation FROM paths",
  );
  t.journal.tx(() => {
    for (const p of paths) retractPath(t.journal, p.path, p.generation);
  });
  assert.deepEqual(stored(t.journal), { pairs: [], words: [] });
  assert.equal(t.journal.get<{ n: number }>("SELECT count(*) AS n FROM vocab_sets")!.n, 0);
});

Deno.test("verify reports learned-vocabulary counts that drifted from the paths' sets", async () => {
  using t = setup({ repo: { "auth.ts": PASSWORD_TS, "parse.py": PARSE_PY } });
  await t.r.audit();
  const audit = () =>
    verifyJournal(t.journal, { deep: false, extractor: createExtractor(), globalIgnore: "" })
      .drift.filter((d) => d.kind === "vocabulary" || d.path === "vocab_sets");
  assert.deepEqual(audit(), []);
  const first =
    "(prose, code) IN (SELECT prose, code FROM vocab_pairs ORDER BY prose, code LIMIT 1)";
  t.journal.run(`UPDATE vocab_pairs SET n = n + 1 WHERE ${first}`);
  assert.deepEqual(audit().map((d) => d.path), ["vocab_pairs"]);
  t.journal.run(`UPDATE vocab_pairs SET n = n - 1 WHERE ${first}`);
  assert.deepEqual(audit(), []);
  t.journal.run("DELETE FROM vocab_words WHERE side = 'code' AND word = 'check'");
  assert.deepEqual(audit().map((d) => d.path), ["vocab_words"]);
  t.journal.run("INSERT INTO vocab_sets (path_id, sets) VALUES (999, 'a\tb')");
  assert.deepEqual(audit().map((d) => d.path).sort(), ["vocab_pairs", "vocab_sets", "vocab_words"]);
});
