/**
 * The package a Go file belongs to, read from its package clause (pure). A
 * Go package is the files of one folder that name one package: an external
 * test (`package store_test` beside `package store`) and a file kept out of
 * the build (`//go:build ignore` with `package main`) share the folder, not
 * the package, and see none of its unexported names.
 */

/**
 * The package clause of Go source `text` (`"package store"`), or null when
 * it has none: the clause comes first, after comments and blank space only,
 * so one that a comment or a string holds further down is never taken.
 *
 * @example
 * ```ts
 * import { goPackageClause } from "./go_package.ts";
 * goPackageClause("//go:build ignore\n\n// Gen writes.\npackage main\n"); // "package main"
 * goPackageClause("func f() {}\n"); // null
 * ```
 */
export function goPackageClause(text: string): string | null {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith("//", i)) {
      const end = text.indexOf("\n", i);
      if (end < 0) return null;
      i = end + 1;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return null;
      i = end + 2;
    } else break;
  }
  const clause = /^package[ \t]+([\p{L}_][\p{L}\p{N}_]*)/u.exec(text.slice(i, i + 300));
  return clause ? `package ${clause[1]}` : null;
}
