import assert from "node:assert/strict";
import { moduleCandidates, packageDirSuffixes } from "./modules.ts";

Deno.test("moduleCandidates() maps specifiers to repository files per language", () => {
  const ts = moduleCandidates("typescript", "src/cli/main.ts", "../store/mod.ts");
  assert.equal(ts[0], "src/store/mod.ts");
  assert.ok(moduleCandidates("typescript", "src/a.ts", "./util").includes("src/util.ts"));
  assert.ok(moduleCandidates("javascript", "src/a.js", "./lib").includes("src/lib/index.js"));
  assert.ok(moduleCandidates("typescript", "src/a.ts", "./x.js").includes("src/x.ts"));
  assert.deepEqual(moduleCandidates("typescript", "src/a.ts", "node:fs"), []);
  const aliased = moduleCandidates("typescript", "app/a.ts", "@/lib/db", new Map([["@/", "src/"]]));
  assert.ok(aliased.includes("src/lib/db.ts"));
  assert.deepEqual(moduleCandidates("python", "pkg/sub/a.py", ".util"), [
    "pkg/sub/util.py",
    "pkg/sub/util/__init__.py",
  ]);
  assert.ok(
    moduleCandidates("python", "pkg/sub/a.py", "..core.models").includes("pkg/core/models.py"),
  );
  assert.ok(moduleCandidates("python", "x.py", "pkg.core").includes("pkg/core/__init__.py"));
  assert.ok(
    moduleCandidates("rust", "src/cli/mod.rs", "crate::store::paths").includes(
      "src/store/paths.rs",
    ),
  );
  assert.ok(
    moduleCandidates("rust", "src/cli/mod.rs", "crate::store::Journal").includes("src/store.rs"),
  );
  assert.deepEqual(moduleCandidates("rust", "src/a.rs", "std::fs"), []);
  // A workspace member's `crate::` is its own crate's src, not the root's.
  const member = moduleCandidates("rust", "compiler/rustc_x/src/a/b.rs", "crate::store::Journal");
  assert.ok(member.includes("compiler/rustc_x/src/store.rs"), member.join(" "));
  assert.ok(member.includes("compiler/rustc_x/src/lib.rs"), member.join(" "));
  assert.ok(!member.some((c) => c.startsWith("src/")), member.join(" "));
  // Another crate of the workspace, where the resolver finds its folder; none, no candidates.
  const crates = new Map([["text_util", "crates/text-util"]]);
  const other = moduleCandidates(
    "rust",
    "app/src/main.rs",
    "text_util::shout",
    new Map(),
    (n) => crates.get(n),
  );
  assert.deepEqual(other, [
    "crates/text-util/src/shout.rs",
    "crates/text-util/src/shout/mod.rs",
    "crates/text-util/src/lib.rs",
  ]);
  assert.deepEqual(
    moduleCandidates("rust", "app/src/main.rs", "serde::de", new Map(), (n) => crates.get(n)),
    [],
  );
  // `super` and `self` as the file's place in the module tree says.
  assert.deepEqual(moduleCandidates("rust", "src/a/b.rs", "super::x"), [
    "src/a/x.rs",
    "src/a/x/mod.rs",
    "src/a.rs",
    "src/a/mod.rs",
  ]);
  assert.deepEqual(moduleCandidates("rust", "src/a/mod.rs", "super::x"), [
    "src/x.rs",
    "src/x/mod.rs",
    "src/lib.rs",
    "src/main.rs",
  ]);
  assert.deepEqual(moduleCandidates("rust", "src/a/b.rs", "self::y"), [
    "src/a/b/y.rs",
    "src/a/b/y/mod.rs",
    "src/a/b.rs",
  ]);
  assert.deepEqual(moduleCandidates("rust", "src/a.rs", "super"), ["src/lib.rs", "src/main.rs"]);
  assert.ok(moduleCandidates("c", "src/a.c", "util.h").includes("src/util.h"));
});

Deno.test("packageDirSuffixes() lists folder suffixes of Go and Java packages", () => {
  assert.deepEqual(packageDirSuffixes("go", "github.com/acme/lib/store").slice(-2), [
    "lib/store",
    "store",
  ]);
  assert.deepEqual(packageDirSuffixes("java", "com.acme.store.Paths").at(-1), "store");
  assert.deepEqual(packageDirSuffixes("python", "x"), []);
});

Deno.test("moduleTail() is the segment a file is imported by", async () => {
  const { moduleTail } = await import("./desired.ts");
  const cases: [string, string][] = [
    ["./util/mod.ts", "mod"],
    ["../x.js", "x"],
    ["./lib", "lib"],
    ["pkg.core.models", "models"],
    ["github.com/acme/app/internal/store", "store"],
    ["crate::store::paths", "paths"],
    ['"util.h"', "util"],
    ["<sys/types.h>", "types"],
    ["os", "os"],
  ];
  for (const [spec, want] of cases) assert.equal(moduleTail(spec), want, spec);
});
