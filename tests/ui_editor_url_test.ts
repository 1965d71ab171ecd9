/**
 * The dashboard's editor links (`src/ui/app/editor_url.ts`): whatever a
 * repository names its files, the link opens that file, parsed as the
 * editor's URL handler parses it.
 */
import assert from "node:assert/strict";
import { DEFAULT_EDITOR, fillEditorUrl } from "../src/ui/app/editor_url.ts";

const PATHS = [
  "/repo/src/parse.ts",
  "/repo/src/C#/Program.cs",
  "/repo/docs/why?.md",
  "/repo/lib/c++/a&b.cpp",
  "/repo/notes/100% done.md",
  "/repo/src/é ü.ts",
];

Deno.test("a vscode:// link names the whole path, whatever characters it holds", () => {
  for (const path of PATHS) {
    const url = new URL(fillEditorUrl(DEFAULT_EDITOR, path, 12));
    assert.equal(url.hash, "", path);
    assert.equal(url.search, "", path);
    assert.equal(decodeURIComponent(url.pathname), `/${path}:12`, path);
  }
  assert.equal(
    fillEditorUrl(DEFAULT_EDITOR, "/repo/src/parse.ts", null),
    "vscode://file//repo/src/parse.ts:1",
  );
});

Deno.test("an idea:// link's file= parameter is the whole path", () => {
  for (const path of PATHS) {
    const url = new URL(fillEditorUrl("idea://open?file={path}&line={line}", path, 7));
    assert.equal(url.searchParams.get("file"), path);
    assert.equal(url.searchParams.get("line"), "7");
  }
});
