import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import { createExtractor } from "../extract/mod.ts";
import { dumpIndex, Journal, retractPath, vocabDrift } from "../store/mod.ts";
import { Reconciler } from "./reconciler.ts";
import { verifyJournal } from "./verify.ts";

/**
 * A real reconciler over real temp folders (one per root), with the real
 * extractor, learning the vocabulary (its weight above 0) unless told `weight` 0.
 */
function setup(roots: Record<string, Record<string, string>>, weight = 0.03) {
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
    vocabularyWeight: weight,
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

/** The learned vocabulary's rows, by what they say (not by row id). */
function stored(j: Journal): { postings: string[]; words: string[] } {
  return {
    postings: j.all<{ l: string }>(
      `SELECT v.prose || char(9) || v.mix || char(9) || p.path || char(9) || v.codes AS l
       FROM vocab_postings v JOIN paths p ON p.id = v.path_id`,
    ).map((r) => r.l).sort(),
    words: j.all<{ l: string }>(
      "SELECT side || char(9) || word || char(9) || n AS l FROM vocab_words",
    ).map((r) => r.l).sort(),
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
  assert.ok(t.journal.get<{ n: number }>("SELECT count(*) AS n FROM vocab_postings")!.n > 0);
  assert.deepEqual(vocabDrift(t.journal), []);
  // An edit that changes a doc comment, a deletion, a new file, one at a time.
  write(root, {
    "auth.ts": PASSWORD_TS.replace("Checks the password", "Compares the secret"),
  });
  await t.r.reconcilePaths([join(root, "auth.ts")]);
  assert.deepEqual(vocabDrift(t.journal), []);
  Deno.removeSync(join(root, "queue.ts"));
  await t.r.reconcilePaths([join(root, "queue.ts")]);
  write(root, { "more/cache.ts": QUEUE_TS.replace("Schedules a job", "Evicts a cache entry") });
  await t.r.audit();
  assert.deepEqual(vocabDrift(t.journal), []);
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

Deno.test("the vocabulary is learned only while its weight is above 0; turning it on or off re-derives every file", async () => {
  const files = { "auth.ts": PASSWORD_TS, "queue.ts": QUEUE_TS, "parse.py": PARSE_PY };
  using t = setup({ repo: files }, 0);
  await t.r.audit();
  const count = (table: string) =>
    t.journal.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)!.n;
  assert.equal(count("vocab_sets") + count("vocab_postings") + count("vocab_words"), 0);
  const unlearned = dumpIndex(t.journal);
  // On: the next audit re-derives every file and learns what a fresh index learns.
  t.r.syncRoots({ ...t.r.config, vocabularyWeight: 0.03 });
  await t.r.audit();
  using fresh = setup({ repo: files });
  await fresh.r.audit();
  assert.ok(count("vocab_postings") > 0);
  assert.equal(
    vocabDump(t.journal).replaceAll(t.base, ""),
    vocabDump(fresh.journal).replaceAll(fresh.base, ""),
  );
  assert.deepEqual(vocabDrift(t.journal), []);
  // Off again: every count it added is gone, the rest as it was.
  t.r.syncRoots({ ...t.r.config, vocabularyWeight: 0 });
  await t.r.audit();
  assert.equal(count("vocab_sets") + count("vocab_postings") + count("vocab_words"), 0);
  assert.equal(dumpIndex(t.journal), unlearned);
});

Deno.test("reconciling twice leaves the learned vocabulary byte-identical", async () => {
  using t = setup({ repo: { "auth.ts": PASSWORD_TS, "parse.py": PARSE_PY } });
  await t.r.audit();
  const once = dumpIndex(t.journal, "raw");
  assert.match(once, /# vocab_postings\n\{"prose"/);
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
  const strip = (rows: { postings: string[]; words: string[] }, base: string) => ({
    postings: rows.postings.map((l) => l.replace(base, "")),
    words: rows.words,
  });
  assert.deepEqual(strip(stored(t.journal), t.base), strip(stored(onlyB.journal), onlyB.base));
  // A retraction outside any batch (as `heimdall rebuild` does) writes its own counts.
  const paths = t.journal.all<{ path: string; generation: number }>(
    "SELECT path, generation FROM paths",
  );
  t.journal.tx(() => {
    for (const p of paths) retractPath(t.journal, p.path, p.generation);
  });
  assert.deepEqual(stored(t.journal), { postings: [], words: [] });
  assert.equal(t.journal.get<{ n: number }>("SELECT count(*) AS n FROM vocab_sets")!.n, 0);
});

Deno.test("verify reports learned-vocabulary rows that drifted from the paths' sets", async () => {
  using t = setup({ repo: { "auth.ts": PASSWORD_TS, "parse.py": PARSE_PY } });
  await t.r.audit();
  const audit = () =>
    verifyJournal(t.journal, { deep: false, extractor: createExtractor(), globalIgnore: "" })
      .drift.filter((d) => d.kind === "vocabulary" || d.path === "vocab_sets");
  assert.deepEqual(audit(), []);
  const first = "(prose, mix, path_id) IN (SELECT prose, mix, path_id FROM vocab_postings LIMIT 1)";
  t.journal.run(`UPDATE vocab_postings SET codes = codes || ' extra' WHERE ${first}`);
  assert.deepEqual(audit().map((d) => d.path), ["vocab_postings"]);
  t.journal.run(
    `UPDATE vocab_postings SET codes = substr(codes, 1, length(codes) - 6) WHERE ${first}`,
  );
  assert.deepEqual(audit(), []);
  t.journal.run("DELETE FROM vocab_words WHERE side = 'code' AND word = 'check'");
  assert.deepEqual(audit().map((d) => d.path), ["vocab_words"]);
  t.journal.run("INSERT INTO vocab_sets (path_id, mix, sets) VALUES (999, 1, 'a\tb')");
  assert.deepEqual(audit().map((d) => d.path).sort(), [
    "vocab_postings",
    "vocab_sets",
    "vocab_words",
  ]);
});

Deno.test("a file whose commit spans transactions teaches what it teaches in one", async () => {
  // Enough documented functions that the file's rows are written in parts,
  // and a transaction budget of 0, so that every part ends a transaction.
  const big = Array.from(
    { length: 700 },
    (_, i) =>
      `/** Checks token number ${i} against the stored hash. */\nexport function check${i}() {}\n`,
  ).join("");
  const files = { "auth.ts": PASSWORD_TS, "big.ts": big, "queue.ts": QUEUE_TS };
  using t = setup({ repo: files }, 0);
  t.r.txBudgetMs = 0;
  await t.r.audit();
  t.r.syncRoots({ ...t.r.config, vocabularyWeight: 0.03 });
  await t.r.audit();
  assert.deepEqual(vocabDrift(t.journal), []);
  using fresh = setup({ repo: files });
  await fresh.r.audit();
  assert.equal(
    vocabDump(t.journal).replaceAll(t.base, ""),
    vocabDump(fresh.journal).replaceAll(fresh.base, ""),
  );
});
