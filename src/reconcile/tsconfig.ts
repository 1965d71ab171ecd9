import { join, posix } from "../files/mod.ts";

/**
 * The `compilerOptions.paths` aliases of a root's `tsconfig.json` (or
 * `jsconfig.json`) as prefix → root-relative folder: `"@/*": ["src/*"]` gives
 * `@/` → `src/`. A missing or unreadable file gives no aliases.
 */
export function readTsconfigAliases(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of ["tsconfig.json", "jsconfig.json"]) {
    let raw: unknown;
    try {
      const text = Deno.readTextFileSync(join(root, name));
      raw = JSON.parse(
        text.replace(/\/\*[\s\S]*?\*\/|(^|[^:"])\/\/.*$/gm, "$1").replace(/,(\s*[}\]])/g, "$1"),
      );
    } catch {
      continue;
    }
    const opts =
      (raw as { compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } })
        ?.compilerOptions;
    const base = opts?.baseUrl ?? ".";
    for (const [pattern, targets] of Object.entries(opts?.paths ?? {})) {
      const first = targets?.[0];
      if (typeof first !== "string") continue;
      out.set(
        pattern.replace(/\*$/, ""),
        posix.normalize(posix.join(base, first.replace(/\*$/, ""))),
      );
    }
    break;
  }
  return out;
}
