/**
 * TypeScript overloads are one function: the bodiless signatures written
 * before an implementation (`function each(o: T): void` then
 * `function each(o: any) {…}`) fold into that implementation, so a call of
 * `each` imported from the file lands on it instead of counting as ambiguous
 * between two definitions of one name (immer's `utils/common.ts`). Python's
 * `@overload` stubs fold the same way, so `callers conv` names one function.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Journal } from "../src/store/mod.ts";
import { indexer } from "./graph_compare.ts";
import { removeTree, tempDir, writeTree } from "./helpers.ts";

const FILES: Record<string, string> = {
  "src/common.ts": `/** Calls iter on each own key. */
export function each<T>(obj: T, iter: (k: string) => void): void
export function each(obj: any, iter: any, strict?: boolean): void
export function each(obj: any, iter: any, strict = true) {
  Object.keys(obj).forEach((k) => iter(k))
}

export function freeze<T>(obj: T, deep?: boolean): T
export function freeze(obj: any, deep = false) {
  if (deep) each(obj, (k: string) => freeze(obj[k], true))
  return obj
}

declare function later(a: number): void
declare function later(a: number, b: number): void

export class Box {
  put(a: number): void
  put(a: string): void
  put(a: any) {
    freeze(a)
  }
  run() {
    this.put(1)
  }
}

export interface Sink {
  take(a: number): void
  take(a: string, b: number): void
}
`,
  "src/use.ts": `import { each, freeze } from "./common"

export function go(o: object) {
  each(o, () => {})
  return freeze(o)
}
`,
};

/** Every resolved call as `file:caller -> file:callee:line`. */
function calls(j: Journal): string[] {
  return j.all<{ e: string }>(
    `SELECT DISTINCT ps.rel || ':' || s.qualname || ' -> ' || pd.rel || ':' || d.qualname || ':'
       || d.start_line AS e
     FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
     JOIN paths ps ON ps.id = s.path_id JOIN paths pd ON pd.id = d.path_id
     WHERE e.kind = 'calls' ORDER BY 1`,
  ).map((r) => r.e);
}

/** Every symbol as `file:qualname:start-end`, with its doc when it has one. */
function symbols(j: Journal): string[] {
  return j.all<{ s: string }>(
    `SELECT p.rel || ':' || n.qualname || ':' || n.start_line || '-' || n.end_line
       || coalesce(' ' || n.doc, '') AS s
     FROM nodes n JOIN paths p ON p.id = n.path_id
     WHERE n.kind IN ('function', 'method') ORDER BY 1`,
  ).map((r) => r.s);
}

Deno.test("a TypeScript function's overload signatures fold into its implementation", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  writeTree(repo, FILES);
  const live = indexer(join(base, "home"), repo);
  try {
    await live.r.audit();
    assert.deepEqual(symbols(live.journal), [
      "src/common.ts:Box.put:18-22",
      "src/common.ts:Box.run:23-25",
      "src/common.ts:Sink.take:29-30",
      "src/common.ts:each:2-6 Calls iter on each own key.",
      "src/common.ts:freeze:8-12",
      "src/common.ts:later:14-15",
      "src/use.ts:go:3-6",
    ]);
    assert.deepEqual(calls(live.journal), [
      "src/common.ts:Box.put -> src/common.ts:freeze:8",
      "src/common.ts:Box.run -> src/common.ts:Box.put:18",
      "src/common.ts:freeze -> src/common.ts:each:2",
      "src/common.ts:freeze -> src/common.ts:freeze:8",
      "src/use.ts:go -> src/common.ts:each:2",
      "src/use.ts:go -> src/common.ts:freeze:8",
    ]);
  } finally {
    live.journal.close();
    removeTree(base);
  }
});

const PY_FILES: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/core.py": `import typing
from typing import overload


@overload
def conv(x: int) -> int: ...
@typing.overload
def conv(x: str) -> str: ...
def conv(x):
    return x


class Thing:
    @overload
    def get(self, k: int) -> int: ...
    @overload
    def get(self, k: str) -> str: ...
    def get(self, k):
        return k

    @property
    def size(self):
        return self.get(1)
`,
  "pkg/use.py": `from pkg.core import conv, Thing


def go():
    t = Thing()
    t.get(2)
    return conv(1)
`,
};

Deno.test("a Python function's @overload stubs fold into its implementation", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  writeTree(repo, PY_FILES);
  const live = indexer(join(base, "home"), repo);
  try {
    await live.r.audit();
    assert.deepEqual(symbols(live.journal), [
      "pkg/core.py:Thing.get:14-19",
      "pkg/core.py:Thing.size:21-23",
      "pkg/core.py:conv:5-10",
      "pkg/use.py:go:4-7",
    ]);
    assert.deepEqual(calls(live.journal), [
      "pkg/core.py:Thing.size -> pkg/core.py:Thing.get:14",
      "pkg/use.py:go -> pkg/core.py:Thing.get:14",
      "pkg/use.py:go -> pkg/core.py:Thing:13",
      "pkg/use.py:go -> pkg/core.py:conv:5",
    ]);
  } finally {
    live.journal.close();
    removeTree(base);
  }
});
