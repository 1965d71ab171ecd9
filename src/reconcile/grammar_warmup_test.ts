import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { defaultConfig, homePaths } from "../config/mod.ts";
import { createExtractor, type Extractor } from "../extract/mod.ts";
import { Journal } from "../store/mod.ts";
import { runDaemon } from "./daemon.ts";
import { grammarWarmup } from "./grammar_warmup.ts";
import { Reconciler } from "./reconciler.ts";
import { removeTree, tempDir, waitFor, writeTree } from "../../tests/helpers.ts";

/**
 * `inner`, recording the languages it is asked to warm, in order, and the
 * files it is asked to extract from the first warming on (by file name).
 */
function recording(
  inner: Extractor,
): { extractor: Extractor; warmed: string[]; extracted: string[] } {
  const warmed: string[] = [];
  const extracted: string[] = [];
  return {
    warmed,
    extracted,
    extractor: {
      capability: (language) => inner.capability(language),
      extract: (input) => {
        if (warmed.length > 0) extracted.push(basename(input.path));
        return inner.extract(input);
      },
      warm: (language) => {
        warmed.push(language);
        return inner.warm!(language);
      },
    },
  };
}

/** Writes `files` under `root`, each modified a minute after the one before it, in the order listed. */
function writeInOrder(root: string, files: Record<string, string>): void {
  writeTree(root, files);
  const t = Date.now() / 1000 - 3600;
  Object.keys(files).forEach((f, i) => Deno.utimeSync(join(root, f), t + i * 60, t + i * 60));
}

Deno.test("an idle daemon loads the grammars of the code files changed last, newest first, three at most, and rehearses each one's newest file", async () => {
  const base = tempDir();
  const root = join(base, "proj");
  const home = homePaths(join(base, "home"));
  // The notes changed last of all.
  writeInOrder(root, {
    "old.py": "def old():\n    return 1\n",
    "older.ts": "export function stale(): number {\n  return 0;\n}\n",
    "mid.go": "package mid\n\nfunc Mid() int { return 2 }\n",
    "new.ts": "export function fresh(): number {\n  return 3;\n}\n",
    "newest.rb": "def newest\n  4\nend\n",
    "notes.md": "# Notes\n\nProse is no code: no grammar to load.\n",
  });
  Deno.mkdirSync(home.home, { mode: 0o700 });
  Deno.writeTextFileSync(
    home.config,
    JSON.stringify({ roots: [{ path: root, depth: "max" }], auditIntervalSeconds: 3600 }),
    { mode: 0o600 },
  );
  const { extractor, warmed, extracted } = recording(createExtractor());
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let ready = false;
  const daemon = runDaemon({
    home,
    extractor,
    log: { info: () => {}, warn: () => {} },
    stop: stopped,
    pollMs: 50,
    onReady: () => (ready = true),
  });
  try {
    await waitFor(() => ready, 30_000, "the daemon ready");
    await waitFor(() => warmed.length >= 3, 30_000, "three grammars loaded");
    // A beat more: a fourth would come now.
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(warmed, ["ruby", "typescript", "go"]);
    // Each language's newest file, as an edit of it would be parsed; no other.
    assert.deepEqual(extracted, ["newest.rb", "new.ts", "mid.go"]);
  } finally {
    stop();
    await daemon;
    removeTree(base);
  }
});

Deno.test("warming an extractor never throws for a language it cannot load, and leaves one it can ready to extract", async () => {
  const extractor = createExtractor();
  await extractor.warm!("cobol");
  await extractor.warm!("markdown");
  await extractor.warm!("typescript");
  const out = await extractor.extract({
    path: "/x/a.ts",
    language: "typescript",
    text: "export function warmed() {}\n",
    depth: 3,
  });
  assert.deepEqual(out.symbols.map((s) => s.name), ["warmed"]);
});

Deno.test("a newest file gone since it was indexed still has its grammar loaded, and is not rehearsed", async () => {
  const base = tempDir();
  const root = join(base, "proj");
  const home = homePaths(join(base, "home"));
  writeInOrder(root, {
    "kept.go": "package kept\n\nfunc Kept() int { return 1 }\n",
    "gone.py": "def gone():\n    return 2\n",
  });
  const journal = Journal.open(home.journal);
  try {
    const config = { ...defaultConfig(), roots: [{ path: root, depth: "max" as const }] };
    const r = new Reconciler(journal, home, config, createExtractor());
    r.syncRoots();
    await r.audit();
    Deno.removeSync(join(root, "gone.py"));
    const { extractor, warmed, extracted } = recording(createExtractor());
    const warmup = grammarWarmup(journal, extractor);
    while (await warmup.step()) { /* one language a step */ }
    assert.deepEqual(warmed, ["python", "go"]);
    assert.deepEqual(extracted, ["kept.go"]);
  } finally {
    journal.close();
    removeTree(base);
  }
});
