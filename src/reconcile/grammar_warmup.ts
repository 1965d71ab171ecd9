/**
 * The daemon's grammars, loaded before an edit needs them. The daemon
 * re-parses an edited file on its own thread, whose extractor loads a
 * language's grammar and compiles its queries on the first file of it: 10
 * to 800 ms (TypeScript about 400, C++ 600–800 on the machines measured),
 * which the first edit of each language in a session waited for, on top
 * of the 100 ms or so every edit takes. Loaded while the daemon is idle,
 * in the order its files last changed, the first edit finds them ready
 * (`scripts/bench_edit.ts`: a TypeScript file's first edit 700–1,060 ms
 * without, 330–410 ms with, 2026-12-07).
 *
 * Loading is not all a first edit waited for: its file was parsed whole
 * (no earlier tree to re-parse from) by extraction code that had never
 * run, so V8 ran it unoptimised (a 1,000-line file's first edit: 236 ms of
 * CPU against 80 for the next). So after loading a language, the same
 * step rehearses: it extracts that language's newest file, discarding
 * what it finds. The extractor keeps the file's tree, so an edit of it
 * re-parses only what changed, and the code that turns a tree into
 * symbols is compiled by then.
 */
import { decodeText } from "../files/mod.ts";
import type { Extractor } from "../extract/mod.ts";
import { type Journal, recentCodeFiles } from "../store/mod.ts";
import type { BackgroundWork } from "./daemon.ts";

/**
 * The files whose languages are read: the last ones changed, which is where
 * a session's edits go next.
 */
const RECENT_FILES = 200;
/**
 * Languages loaded at most: each costs the daemon 3–15 MiB of memory for as
 * long as it runs (all thirteen: 60 MiB), and a language nobody edits is
 * loaded when a file of it first changes, as before.
 */
const MOST_LANGUAGES = 3;
/**
 * The largest file rehearsed. A step holds the daemon's loop, so an edit
 * of another file that comes meanwhile waits for it: a first extraction
 * of 256 KiB of TypeScript takes about 300 ms (of a 437 KiB `.d.ts`, 640).
 */
const MOST_REHEARSED_BYTES = 256 * 1024;

/**
 * A background work that, one language a step, loads the grammar of each
 * language of the code files changed last (at most {@link MOST_LANGUAGES})
 * into `extractor`, the one the daemon's own thread parses edits with, and
 * rehearses an extraction of that language's newest file. Its first step
 * reads which; it is done after the last language (or at once for an
 * extractor that loads nothing lazily). Never throws: a file gone or
 * unreadable is simply not rehearsed.
 */
export function grammarWarmup(journal: Journal, extractor: Extractor): BackgroundWork {
  let left: { language: string; path: string }[] | undefined;
  return {
    async step() {
      if (extractor.warm === undefined) return false;
      left ??= recentCodeFiles(journal, RECENT_FILES, MOST_LANGUAGES);
      const next = left.shift();
      if (next === undefined) return false;
      await extractor.warm(next.language);
      await rehearse(extractor, next.language, next.path);
      return left.length > 0;
    },
  };
}

/** Extracts `path` as an edit of it would, keeping nothing but what `extractor` caches. */
async function rehearse(extractor: Extractor, language: string, path: string): Promise<void> {
  try {
    if (Deno.statSync(path).size > MOST_REHEARSED_BYTES) return;
    const text = decodeText(Deno.readFileSync(path));
    await extractor.extract({ path, language, text, depth: 3 });
  } catch {
    // Gone, unreadable or unparsable: the edit that comes pays as before.
  }
}
