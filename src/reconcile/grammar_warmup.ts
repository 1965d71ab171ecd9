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
 */
import type { Extractor } from "../extract/mod.ts";
import { type Journal, recentCodeLanguages } from "../store/mod.ts";
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
 * A background work that loads, one language a step, the grammars of the
 * code files changed last (at most {@link MOST_LANGUAGES}), into
 * `extractor`: the one the daemon's own thread parses edits with. Its
 * first step reads which; it is done after the last language (or at once
 * for an extractor that loads nothing lazily).
 */
export function grammarWarmup(journal: Journal, extractor: Extractor): BackgroundWork {
  let left: string[] | undefined;
  return {
    async step() {
      if (extractor.warm === undefined) return false;
      left ??= recentCodeLanguages(journal, RECENT_FILES, MOST_LANGUAGES);
      const language = left.shift();
      if (language === undefined) return false;
      await extractor.warm(language);
      return left.length > 0;
    },
  };
}
