import assert from "node:assert/strict";
import { join } from "node:path";
import { activeAnchor, type AnchorRow } from "../memory/mod.ts";
import {
  parsePlaceholder,
  placeholderPath,
  type PortableAnchor,
  portableKey,
  portableLabel,
  portableOf,
  portableSet,
} from "./memory_anchor.ts";
import { RepoResolver } from "./symbol_key.ts";
import { AnchorPlacer } from "./anchor_place.ts";
import { Journal } from "../store/mod.ts";

const symbol = (qualname: string, path = "src/store.ts"): PortableAnchor => ({
  target: "symbol",
  repo: "shop",
  path,
  qualname,
  kind: "function",
  name: qualname.split(".").pop()!,
  structHash: "h1",
  shape: "s1",
});
const folder: PortableAnchor = {
  target: "folder",
  repo: "shop",
  path: "",
  qualname: "",
  kind: "folder",
  name: "shop",
  structHash: null,
  shape: null,
};

/** An active anchor on `path` (a symbol named `f` when `target` is one), as of time 0. */
function anchorRow(target: AnchorRow["target"], path: string, root: string | null): AnchorRow {
  return activeAnchor({
    ord: 0,
    target,
    original: path,
    path,
    root,
    symbol: target === "symbol" ? "f" : null,
    symbol_kind: target === "symbol" ? "function" : null,
    name: "f",
    node_id: null,
    struct_hash: null,
    shape: null,
    start_line: null,
    end_line: null,
  }, 0);
}

Deno.test("portableSet() is the same for the same anchors in any order, and differs otherwise", () => {
  const a = symbol("store"), b = symbol("Store.open"), c = symbol("store", "src/other.ts");
  assert.equal(portableSet([a, b]), portableSet([b, a]));
  assert.equal(portableSet([a, a, b]), portableSet([a, b]));
  assert.notEqual(portableSet([a, b]), portableSet([a, c]));
  assert.notEqual(portableSet([a]), portableSet([a, b]));
  // Hashes are what the code looked like, not which code it is.
  assert.equal(portableSet([{ ...a, structHash: "other" }]), portableSet([a]));
  assert.match(portableSet([a]), /^[0-9a-f]{40}$/);
});

Deno.test("portableKey() and portableLabel() name symbols, files and folders", () => {
  const table: [PortableAnchor, string, string][] = [
    [symbol("Store.open"), "symbol:shop:src/store.ts:Store.open", "src/store.ts:Store.open"],
    [
      { ...folder, target: "file", path: "src/store.ts", kind: "file", name: "store.ts" },
      "file:shop:src/store.ts",
      "src/store.ts",
    ],
    [folder, "folder:shop:", "."],
  ];
  for (const [p, key, label] of table) {
    assert.equal(portableKey(p), key);
    assert.equal(portableLabel(p), label);
  }
});

Deno.test("a placeholder path turns back into the portable anchor it stands for", () => {
  for (const p of [symbol("Store.open"), folder, { ...folder, path: "src/deep/er" }]) {
    const row = {
      target: p.target,
      path: placeholderPath(p),
      symbol: p.target === "symbol" ? p.qualname : null,
      symbol_kind: p.target === "symbol" ? p.kind : null,
      name: p.name,
      struct_hash: p.structHash,
      shape: p.shape,
    } as AnchorRow;
    assert.deepEqual(parsePlaceholder(row), p);
  }
});

Deno.test("portableOf() names a clone's files and folders by the repository's origin", async () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-anchor-" });
  try {
    const top = join(base, "any-folder-name");
    Deno.mkdirSync(join(top, "src"), { recursive: true });
    Deno.writeTextFileSync(join(top, "src", "a.ts"), "");
    await new Deno.Command("git", {
      args: ["init", "-q"],
      cwd: top,
    }).output();
    await new Deno.Command("git", {
      args: ["remote", "add", "origin", "git@example.com:acme/Shop.git"],
      cwd: top,
    }).output();
    const row = (target: AnchorRow["target"], path: string) => anchorRow(target, path, top);
    const repos = new RepoResolver();
    const at = (a: AnchorRow) => {
      const p = portableOf(a, repos);
      return [p.repo, p.path, p.qualname, p.kind];
    };
    assert.deepEqual(at(row("symbol", join(top, "src", "a.ts"))), [
      "shop",
      "src/a.ts",
      "f",
      "function",
    ]);
    assert.deepEqual(at(row("folder", top)), ["shop", "", "", "folder"]);
    assert.deepEqual(at(row("folder", join(top, "src"))), ["shop", "src", "", "folder"]);
    // Outside any repository and any root, the path stays absolute, but for the home's part.
    const loose = { ...row("file", join(base, "loose.ts")), root: null };
    assert.deepEqual(at(loose), ["", join(base, "loose.ts"), "", "file"]);
    const home = Deno.env.get("HOME");
    try {
      Deno.env.set("HOME", base);
      assert.deepEqual(at(loose), ["", "~/loose.ts", "", "file"]);
    } finally {
      if (home === undefined) Deno.env.delete("HOME");
      else Deno.env.set("HOME", home);
    }
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});

Deno.test("a file in no repository leaves as ~/… from its home, never with the login name, and is placed under the home of the machine that reads it", () => {
  const base = Deno.makeTempDirSync({ prefix: "heimdall-anchor-" });
  const home = Deno.env.get("HOME");
  const j = Journal.open(join(base, "journal.db"));
  try {
    for (const who of ["ann", "bob"]) {
      Deno.mkdirSync(join(base, who, "notes"), { recursive: true });
      Deno.writeTextFileSync(join(base, who, "notes", "db.md"), "# db\n");
    }
    Deno.env.set("HOME", join(base, "ann"));
    const anns = anchorRow("file", join(base, "ann", "notes", "db.md"), null);
    const sent = portableOf(anns, new RepoResolver());
    assert.equal(sent.path, "~/notes/db.md");
    assert.ok(!JSON.stringify(sent).includes("ann"), JSON.stringify(sent));
    Deno.env.set("HOME", join(base, "bob"));
    assert.equal(new AnchorPlacer(j).place(sent, 0, 0).path, join(base, "bob", "notes", "db.md"));
    // A path outside any home stays as it was, on every machine.
    const etc = { ...sent, path: "/etc/hosts" };
    assert.equal(new AnchorPlacer(j).place(etc, 0, 0).path, "/etc/hosts");
  } finally {
    j.close();
    if (home === undefined) Deno.env.delete("HOME");
    else Deno.env.set("HOME", home);
    Deno.removeSync(base, { recursive: true });
  }
});
