import assert from "node:assert/strict";
import type { NodeRecord } from "../store/mod.ts";
import { chunkRows, pathText } from "./chunk_rows.ts";

function node(
  id: string,
  kind: string,
  name: string,
  parent: string | null,
  start: number,
  end: number,
): NodeRecord {
  return {
    id,
    parent_id: parent,
    kind,
    name,
    qualname: kind === "file" ? "" : parent && parent !== "f" ? `C.${name}` : name,
    start_line: start,
    end_line: end,
    signature: kind === "file" ? null : `${kind} ${name}`,
    doc: name === "run" ? "Runs the retry loop." : null,
    struct_hash: null,
    partial: 0,
  };
}

const TEXT = [
  "import x from 'y';", // 1
  "class Scheduler {", // 2
  "  queueDepth = 0;", // 3
  "  run() {", // 4
  "    retryLater();", // 5
  "  }", // 6
  "}", // 7
].join("\n");

Deno.test("chunkRows() gives the file and each symbol a chunk of its own text, children excluded", () => {
  const nodes = [
    node("f", "file", "sched.ts", null, 1, 7),
    node("c", "class", "Scheduler", "f", 2, 7),
    node("m", "method", "run", "c", 4, 6),
  ];
  const rows = chunkRows({
    rel: "src/jobs/sched.ts",
    language: "typescript",
    summary: "Jobs.",
    text: TEXT,
    nodes,
    sections: [],
  });
  assert.deepEqual(rows.map((r) => [r.node_id, r.title, r.start_line, r.end_line, r.source]), [
    ["f", "src/jobs/sched.ts", 1, 7, "code"],
    ["c", "Scheduler", 2, 7, "code"],
    ["m", "C.run", 4, 6, "code"],
  ]);
  const [file, cls, method] = rows;
  assert.equal(
    file!.fts.body,
    "import x from y",
    "the file's own text: outside its top-level symbols",
  );
  assert.equal(file!.fts.name, "sched");
  assert.equal(file!.fts.path, "src jobs sched");
  assert.match(cls!.fts.body, /queue depth queuedepth/);
  assert.doesNotMatch(cls!.fts.body, /retry/, "a method's body belongs to the method");
  assert.match(method!.fts.body, /retry later retrylater/);
  assert.equal(method!.fts.qual, "c");
  assert.equal(method!.fts.doc, "runs the retry loop");
  assert.deepEqual(
    chunkRows({
      rel: "src/jobs/sched.ts",
      language: "typescript",
      summary: "Jobs.",
      text: TEXT,
      nodes,
      sections: [],
    }),
    rows,
    "deterministic",
  );
  assert.notEqual(cls!.text_hash, method!.text_hash);
});

Deno.test("chunkRows() chunks markdown by section and an unparsed file as a whole", () => {
  const md = "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n";
  const rows = chunkRows({
    rel: "docs/guide.md",
    language: "markdown",
    summary: "Guide",
    text: md,
    nodes: [node("f", "file", "guide.md", null, 1, 7), {
      ...node("h1", "heading", "Guide", "f", 1, 7),
      qualname: "Guide",
    }],
    sections: [
      { heading: "Guide", startLine: 1, endLine: 3, text: "# Guide\n\nIntro." },
      { heading: "Guide > Install", startLine: 5, endLine: 7, text: "## Install\n\nRun it." },
    ],
  });
  assert.deepEqual(rows.map((r) => [r.title, r.source, r.node_id, r.fts.name]), [
    ["docs/guide.md", "docs", "f", "guide"],
    ["Guide", "docs", "h1", "guide"],
    ["Guide > Install", "docs", null, "install"],
  ]);
  const plain = chunkRows({
    rel: "notes.txt",
    language: "text",
    summary: null,
    text: "alpha beta",
    nodes: [],
    sections: [],
  });
  assert.equal(plain.length, 1);
  assert.equal(plain[0]!.fts.body, "alpha beta");
  assert.equal(plain[0]!.node_id, null);
  assert.equal(pathText("a/b_c/d-e.test.ts"), "a b c bc d e de");
});
