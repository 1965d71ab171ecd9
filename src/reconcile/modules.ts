import { posix } from "../files/mod.ts";

const JS_EXT = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];

/**
 * The root-relative files a module specifier may name, most likely first
 * (pure). `fromRel` is the importing file; `aliases` maps tsconfig `paths`
 * prefixes (`@/` → `src/`); `crateFolder` finds a Rust workspace's other
 * crates (`use util::text` in `app/src/main.rs`). Returns [] for a package
 * outside the repository (`node:fs`, `numpy`, `serde` from crates.io), which
 * then never resolves to a guess.
 */
export function moduleCandidates(
  language: string,
  fromRel: string,
  module: string,
  aliases: ReadonlyMap<string, string> = new Map(),
  crateFolder: CrateFolder = () => undefined,
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
      let crate = src > 0 ? segments.slice(0, src).join("/") : "";
      // This file's module and its parent, as folders: `a/b.rs` is module
      // `a::b`, its submodules in `a/b/`, its `super` is `a` (`a/mod.rs`,
      // `a.rs`); `a/mod.rs` and a crate root are their folder's module.
      const file = lastPart(fromRel);
      const ownFolder = file === "mod.rs" ||
        ((file === "lib.rs" || file === "main.rs") && lastPart(dir) === "src");
      const selfDir = ownFolder ? dir : posix.join(dir, file.replace(/\.rs$/, ""));
      const superDir = ownFolder ? posix.dirname(dir) : dir;
      let base: string[];
      // The file of the module the path starts in, when the path names no deeper one.
      let last: string[];
      if (head === "crate") {
        base = [posix.join(crate, "src"), ...parts.slice(1)];
        last = ["src/lib.rs", "src/main.rs"].map((r) => posix.join(crate, r));
      } else if (head === "self") {
        base = [selfDir, ...parts.slice(1)];
        last = [fromRel];
      } else if (head === "super") {
        base = [superDir, ...parts.slice(1)];
        last = lastPart(superDir) === "src"
          ? [posix.join(superDir, "lib.rs"), posix.join(superDir, "main.rs")]
          : [superDir + ".rs", posix.join(superDir, "mod.rs")];
      } else {
        // Another crate of the workspace, by name (`use util::text::shout`).
        const folder = head === undefined ? undefined : crateFolder(head);
        if (folder === undefined) return [];
        crate = folder;
        base = [posix.join(crate, "src"), ...parts.slice(1)];
        // A binary's items are no other crate's to import.
        last = [posix.join(crate, "src/lib.rs")];
      }
      const out: string[] = [];
      // `crate::a::b::Item`: the item may live in a/b.rs, or b may be the item in a.rs.
      for (let n = base.length; n >= 2; n--) {
        const p = posix.join(...base.slice(0, n));
        out.push(p + ".rs", posix.join(p, "mod.rs"));
      }
      out.push(...last);
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
 * A Rust path as the file it is written in reads it, when it is written
 * inside `depth` inline modules (`mod tests { use super::*; }`) (pure):
 * each `super` such a module's nesting answers is dropped, and a path whose
 * every `super` is answered names the file's own module (`self`).
 *
 * @example
 * ```ts
 * import { rustPathInFile } from "./modules.ts";
 * import assert from "node:assert/strict";
 * assert.equal(rustPathInFile("super", 1), "self");
 * assert.equal(rustPathInFile("super::helpers", 1), "self::helpers");
 * assert.equal(rustPathInFile("super::super::x", 1), "super::x");
 * assert.equal(rustPathInFile("super::x", 0), "super::x");
 * assert.equal(rustPathInFile("crate::x", 2), "crate::x");
 * ```
 */
export function rustPathInFile(module: string, depth: number): string {
  const parts = module.split("::");
  let supers = 0;
  while (parts[supers] === "super") supers++;
  if (depth === 0 || supers === 0) return module;
  return supers <= depth
    ? ["self", ...parts.slice(supers)].join("::")
    : parts.slice(depth).join("::");
}

/**
 * Finds the folder of a Rust crate by the name code uses for it (`util` of
 * `use util::text`), root-relative; undefined when the repository holds no
 * such crate, or several.
 */
export type CrateFolder = (name: string) => string | undefined;

/**
 * The folder names a Rust crate called `name` in code may have: the name
 * itself and, since Cargo turns a package's `-` into `_`, with `-` (pure).
 * A standard crate (`std`, `core`, `alloc`, …) and a path's own anchors
 * (`crate`, `self`, `super`) have none.
 *
 * @example
 * ```ts
 * import { crateFolderNames } from "./modules.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(crateFolderNames("grep_searcher"), ["grep_searcher", "grep-searcher"]);
 * assert.deepEqual(crateFolderNames("util"), ["util"]);
 * assert.deepEqual(crateFolderNames("std"), []);
 * ```
 */
export function crateFolderNames(name: string): string[] {
  if (RUST_ANCHORS.has(name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return [];
  const dashed = name.replaceAll("_", "-");
  return dashed === name ? [name] : [name, dashed];
}

/** First segments of a Rust path that never name a workspace crate. */
const RUST_ANCHORS = new Set([
  "crate",
  "self",
  "super",
  "Self",
  "std",
  "core",
  "alloc",
  "proc_macro",
  "test",
]);

/**
 * The folder suffixes that hold the files a Rust path into another crate of
 * the workspace may name (pure): `util/src/text` and `util/src` for
 * `util::text::shout` (its `text.rs`, `text/mod.rs`, `lib.rs`); also
 * `src/text` and `src` when `util` is `rootCrate`, the root's own crate. A
 * file appearing in such a folder may be what an import of the path was
 * waiting for. Empty for any other language or path.
 *
 * @example
 * ```ts
 * import { crateDirSuffixes } from "./modules.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(crateDirSuffixes("rust", "util::text"), ["util/src", "util/src/text"]);
 * assert.deepEqual(crateDirSuffixes("rust", "crate::text"), []);
 * ```
 */
export function crateDirSuffixes(language: string, module: string, rootCrate = ""): string[] {
  if (language !== "rust") return [];
  const [head, ...rest] = module.split("::");
  // The root's own crate lives in the root's `src/` (folder "").
  const folders = [
    ...crateFolderNames(head ?? ""),
    ...(head === rootCrate && rootCrate !== "" ? [""] : []),
  ];
  return folders.flatMap((folder) =>
    rest.length === 0
      ? [`${folder}/src`]
      : rest.map((_, i) => posix.join(folder, "src", ...rest.slice(0, i))).concat(
        posix.join(folder, "src", ...rest),
      )
  );
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
    // `a.b.Store`, `a.b.Outer.Inner`: the classes are files and what they hold.
    while (language === "java" && parts.length > 1 && /^[A-Z]/.test(parts.at(-1)!)) parts.pop();
  } else return [];
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) out.push(parts.slice(i).join("/"));
  return out;
}

/** The last segment of a `/` path. */
function lastPart(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function unique(list: string[]): string[] {
  return [...new Set(list.map((p) => posix.normalize(p)).filter((p) => !p.startsWith("..")))];
}
