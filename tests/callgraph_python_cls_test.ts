/**
 * In a Python classmethod, `c = cls()` makes an instance of the enclosing
 * class: `c.open()` lands on its `open` as `cls.open()` would, and a name
 * bound otherwise (a parameter, `make()`) stays unknown.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Journal } from "../src/store/mod.ts";
import { indexer } from "./graph_compare.ts";
import { removeTree, tempDir } from "./helpers.ts";

const SOURCE = `class Conn:
    def open(self):
        return 1

    @classmethod
    def make(cls, other):
        c = cls()
        c.open()
        other.open()
        return c


class Pool(Conn):
    @classmethod
    def fill(cls):
        p = cls()
        return p.open()


def open():
    return 0
`;

/** Every resolved call as `caller -> callee:line`. */
function calls(j: Journal): string[] {
  return j.all<{ e: string }>(
    `SELECT DISTINCT s.qualname || ' -> ' || d.qualname || ':' || d.start_line AS e
     FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
     WHERE e.kind = 'calls' ORDER BY 1`,
  ).map((r) => r.e);
}

Deno.test("a Python classmethod's `c = cls()` is an instance of its class: c.open() lands on its open", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  Deno.mkdirSync(repo, { recursive: true });
  Deno.writeTextFileSync(join(repo, "conn.py"), SOURCE);
  const live = indexer(join(base, "home"), repo);
  try {
    await live.r.audit();
    assert.deepEqual(calls(live.journal), [
      "Conn.make -> Conn.open:2",
      "Pool.fill -> Conn.open:2",
    ]);
  } finally {
    live.journal.close();
    removeTree(base);
  }
});

const STATIC = `class Base:
    def close(self):
        pass


class Conn(Base):
    def open(self):
        return 1

    @staticmethod
    def parse(self, text):
        self.open()

    @staticmethod
    def build():
        cls.open()

    @staticmethod
    def clone(cls):
        c = cls()
        c.open()

    @classmethod
    def make(cls):
        cls.open()
        cls.close()

    def later(self):
        def run():
            self.close()

        def hook(self):
            self.open()

        return run, hook

    def get(  # type: ignore[override]
        self,
        name,
    ):
        return self.open()
`;

Deno.test("a Python static method's `self` and a `cls` no parameter binds are not the class; a classmethod's `cls` is, with its bases", async () => {
  const base = tempDir();
  const repo = join(base, "repo");
  Deno.mkdirSync(repo, { recursive: true });
  Deno.writeTextFileSync(join(repo, "conn.py"), STATIC);
  const live = indexer(join(base, "home"), repo);
  try {
    await live.r.audit();
    assert.deepEqual(calls(live.journal), [
      // A comment in the parameter list (requests' `def get(  # type: ignore[override]`) is no parameter.
      "Conn.get -> Conn.open:7",
      "Conn.later.run -> Base.close:2",
      "Conn.make -> Base.close:2",
      "Conn.make -> Conn.open:7",
    ]);
  } finally {
    live.journal.close();
    removeTree(base);
  }
});
