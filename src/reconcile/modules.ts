import { posix } from "../files/mod.ts";

const JS_EXT = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];

/**
 * The root-relative files a module specifier may name, most likely first
 * (pure). `fromRel` is the importing file; `aliases` maps tsconfig `paths`
 * prefixes (`@/` → `src/`). Returns [] for a package outside the
 * repository (`node:fs`, `numpy`), which then never resolves to a guess.
 */
export function moduleCandidates(
  language: string,
  fromRel: string,
  module: string,
  aliases: ReadonlyMap<string, string> = new Map(),
): string[] {
  const dir = posix.dirname(fromRel) === "." ? "" : posix.dirname(fromRel);
  switch (language) {
    case "typescript":
    case "tsx":
    case "javascript": {
      let base: string | undefined;
      if (module.startsWith(".")) base = posix.join(dir, module);
      else {
        for (const [prefix, target] of aliases) {
          if (module === prefix.replace(/\/$/, "") || module.startsWith(prefix)) {
            base = posix.join(target, module.slice(prefix.length));
            break;
          }
        }
      }
      if (base === undefined) return [];
      const stem = base.replace(/\.(m|c)?js$/, "");
      return unique([
        base,
        ...JS_EXT.map((e) => stem + e),
        ...JS_EXT.map((e) => posix.join(base!, "index" + e)),
      ]);
    }
    case "python": {
      const m = /^(\.*)(.*)$/.exec(module)!;
      const dots = m[1]!.length;
      const parts = m[2] ? m[2].split(".") : [];
      const bases: string[] = [];
      if (dots > 0) {
        let d = dir;
        for (let i = 1; i < dots; i++) d = posix.dirname(d) === "." ? "" : posix.dirname(d);
        bases.push(posix.join(d, ...parts));
      } else if (parts.length > 0) {
        bases.push(posix.join(...parts), posix.join("src", ...parts));
      }
      return unique(bases.flatMap((b) => [b + ".py", posix.join(b, "__init__.py")]));
    }
    case "rust": {
      const parts = module.split("::");
      const head = parts[0];
      // The crate the importing file is in: the folder above its `src`
      // (`compiler/rustc_x` of `compiler/rustc_x/src/a/b.rs`, a workspace
      // member), else the root.
      const segments = dir === "" ? [] : dir.split("/");
      const src = segments.lastIndexOf("src");
      const crate = src > 0 ? segments.slice(0, src).join("/") : "";
      let base: string[];
      if (head === "crate") base = [posix.join(crate, "src"), ...parts.slice(1)];
      else if (head === "self") base = [dir, ...parts.slice(1)];
      else if (head === "super") base = [posix.dirname(dir), ...parts.slice(1)];
      else return [];
      const out: string[] = [];
      // `crate::a::b::Item`: the item may live in a/b.rs, or b may be the item in a.rs.
      for (let n = base.length; n >= 2; n--) {
        const p = posix.join(...base.slice(0, n));
        out.push(p + ".rs", posix.join(p, "mod.rs"));
      }
      out.push(posix.join(crate, "src/lib.rs"), posix.join(crate, "src/main.rs"));
      return unique(out);
    }
    case "c":
    case "cpp":
      return unique([posix.join(dir, module), module, posix.join("include", module)]);
    case "ruby":
      return module.startsWith(".")
        ? unique([posix.join(dir, module) + ".rb", posix.join(dir, module)])
        : unique([posix.join("lib", module) + ".rb"]);
    case "bash":
      return unique([posix.join(dir, module), module]);
    default:
      return [];
  }
}

/**
 * Folder suffixes a package-style import names (pure): Go import paths
 * (`github.com/acme/lib/store` → `store`, `lib/store`…), Java/C# packages
 * (`com.acme.store.Paths` → `com/acme/store`). Matched against folders of
 * the same repository, longest suffix first.
 */
export function packageDirSuffixes(language: string, module: string): string[] {
  let parts: string[];
  if (language === "go") parts = module.split("/");
  else if (language === "java" || language === "csharp" || language === "php") {
    parts = module.split(/[.\\]/).filter((p) => p !== "" && p !== "*");
    if (language === "java" && parts.length > 1 && /^[A-Z]/.test(parts.at(-1)!)) parts.pop();
  } else return [];
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) out.push(parts.slice(i).join("/"));
  return out;
}

function unique(list: string[]): string[] {
  return [...new Set(list.map((p) => posix.normalize(p)).filter((p) => !p.startsWith("..")))];
}
