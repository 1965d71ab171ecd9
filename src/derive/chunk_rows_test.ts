import assert from "node:assert/strict";
import type { NodeRecord } from "../store/mod.ts";
import {
  chunkRows,
  linePieces,
  pathText,
  textWindows,
  WINDOW_MAX_CHARS,
  WINDOW_MAX_COUNT,
  WINDOW_MAX_LINES,
} from "./chunk_rows.ts";
import { chunkMarkdown } from "../extract/markdown.ts";

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
    scoped: 0,
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
  const input = {
    rel: "src/jobs/sched.ts",
    language: "typescript",
    summary: "Jobs.",
    text: TEXT,
    nodes,
    sections: [],
  };
  const rows = chunkRows(input);
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
  assert.deepEqual(chunkRows(input), rows, "deterministic");
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

Deno.test("chunkRows() makes the sections of every prose language docs chunks", () => {
  for (const language of ["rst", "asciidoc", "org", "man", "text"]) {
    const rows = chunkRows({
      rel: "docs/guide.x",
      language,
      summary: null,
      text: "Guide\n=====\n\nRun it.\n",
      nodes: [node("f", "file", "guide.x", null, 1, 4), {
        ...node("h1", "heading", "Guide", "f", 1, 4),
        qualname: "Guide",
      }],
      sections: [{ heading: "Guide", startLine: 1, endLine: 4, text: "Guide\n=====\n\nRun it." }],
    });
    assert.deepEqual(rows.map((r) => [r.title, r.source, r.node_id]), [
      ["docs/guide.x", "docs", "f"],
      ["Guide", "docs", "h1"],
    ], language);
  }
});

/** A 500-line Makefile-like text, every line numbered so a window's coverage can be read off. */
function makefile(lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) =>
      i % 10 === 9
        ? ""
        : `target_${i}: dep_${i}.o\n\t$(CC) -o word${i} $(CFLAGS)`.split("\n")[i % 2]!,
  ).join("\n");
}

Deno.test("chunkRows() indexes an unparsed file past its file chunk in bounded windows", () => {
  for (const rel of ["build/Makefile", "site/index.html"]) {
    const text = makefile(500);
    const rows = chunkRows({ rel, language: null, summary: null, text, nodes: [], sections: [] });
    const [file, ...windows] = rows;
    assert.equal(file!.title, rel);
    assert.ok(windows.length > 1, rel);
    const lines = text.split("\n");
    for (const w of windows) {
      assert.equal(w.node_id, null);
      assert.equal(w.source, "code");
      assert.equal(w.title, `${rel} § line ${w.start_line}`, "never the file chunk's title");
      assert.notEqual(w.title, rel);
      assert.ok(w.end_line! - w.start_line! < WINDOW_MAX_LINES);
      assert.ok(lines.slice(w.start_line! - 1, w.end_line!).join("\n").length <= WINDOW_MAX_CHARS);
      assert.equal(w.fts.path, pathText(rel));
    }
    assert.ok(!file!.fts.body.includes("word497"), "the file chunk stops at its bound");
    assert.ok(windows.some((w) => w.fts.body.includes("word497")), "the end of the file is found");
    assert.ok(windows.some((w) => w.fts.body.includes("word161")));
    // Every non-blank line past the file chunk's text is in some window.
    const covered = new Set(windows.flatMap((w) => range(w.start_line!, w.end_line!)));
    const firstUncovered = windows[0]!.start_line!;
    assert.ok(text.split("\n").slice(0, firstUncovered - 1).join("\n").length <= 3000);
    for (let l = firstUncovered; l <= lines.length; l++) {
      if (lines[l - 1]!.trim() !== "") assert.ok(covered.has(l), `line ${l} of ${rel}`);
    }
    assert.deepEqual(
      chunkRows({ rel, language: null, summary: null, text, nodes: [], sections: [] }),
      rows,
    );
  }
});

Deno.test("chunkRows() stops windows at their bound and leaves symbols and sections alone", () => {
  const huge = Array.from({ length: 20_000 }, (_, i) => `row ${i} ${"x".repeat(60)}`).join("\n");
  const rows = chunkRows({
    rel: "data.csv",
    language: null,
    summary: null,
    text: huge,
    nodes: [],
    sections: [],
  });
  assert.equal(rows.length, 1 + WINDOW_MAX_COUNT);
  const indexed = rows.slice(1).reduce((n, r) => n + r.fts.body.length, 0);
  assert.ok(indexed <= WINDOW_MAX_COUNT * WINDOW_MAX_CHARS * 1.5);

  const oneLine = "x".repeat(50_000);
  const long = chunkRows({
    rel: "min.css",
    language: "css",
    summary: null,
    text: `a {}\n${oneLine}\nb {}`,
    nodes: [],
    sections: [],
  });
  const pieces = long.slice(1, -1);
  assert.ok(pieces.length > 1 && pieces.every((r) => r.start_line === 2 && r.end_line === 2));
  assert.deepEqual([long.at(-1)!.start_line, long.at(-1)!.end_line], [3, 3]);
  assert.ok(pieces.every((r) => r.fts.body.length <= WINDOW_MAX_CHARS), "cut at the cap");
  // The long line is indexed whole: what the file chunk holds of it, then windows of the rest.
  const inFileChunk = 3000 - "a {}\n".length;
  assert.equal(pieces.length, Math.ceil((oneLine.length - inFileChunk) / WINDOW_MAX_CHARS));

  const small = chunkRows({
    rel: "a.html",
    language: "html",
    summary: null,
    text: "<p>hi</p>",
    nodes: [],
    sections: [],
  });
  assert.equal(small.length, 1, "a short file is all in its file chunk");

  const withSymbols = chunkRows({
    rel: "src/big.ts",
    language: "typescript",
    summary: null,
    text: makefile(500),
    nodes: [node("f", "file", "big.ts", null, 1, 500), node("c", "class", "Big", "f", 2, 499)],
    sections: [],
  });
  assert.deepEqual(withSymbols.map((r) => r.title), ["src/big.ts", "Big"], "its symbols hold it");
});

Deno.test("chunkRows() indexes a file's own text around its symbols past its file chunk in windows", () => {
  // A script: commands, one function, more commands. Its file chunk holds its first 3,000 own
  // characters; windows hold the rest, never the function's lines (its own chunk holds them).
  const text = makefile(500);
  const fn: [number, number] = [200, 260];
  const rows = chunkRows({
    rel: "deploy.sh",
    language: "bash",
    summary: null,
    text,
    nodes: [node("f", "file", "deploy.sh", null, 1, 500), node("g", "function", "log", "f", ...fn)],
    sections: [],
  });
  assert.deepEqual(rows.slice(0, 2).map((r) => r.title), ["deploy.sh", "log"]);
  const windows = rows.slice(2);
  assert.ok(windows.length > 1);
  const lines = text.split("\n");
  const covered = new Set(windows.flatMap((w) => range(w.start_line!, w.end_line!)));
  for (let l = windows[0]!.start_line!; l <= lines.length; l++) {
    const inFn = fn[0] <= l && l <= fn[1];
    if (inFn) assert.ok(!covered.has(l), `line ${l} is the function's`);
    else if (lines[l - 1]!.trim() !== "") assert.ok(covered.has(l), `line ${l}`);
  }
  assert.ok(windows.some((w) => w.fts.body.includes("word497")), "the end of the script is found");
  assert.ok(windows.every((w) => w.title === `deploy.sh § line ${w.start_line}`));
});

Deno.test("textWindows() cuts a line longer than a window into windows of that line, at spaces", () => {
  const words = Array.from({ length: 4000 }, (_, i) => `w${i}`).join(" ");
  const windows = textWindows(["short", words, "after"], 0);
  const pieces = windows.filter((w) => w.startLine === 2);
  assert.deepEqual(windows[0]!.text, "short");
  assert.ok(pieces.length > 1 && pieces.every((w) => w.endLine === 2));
  assert.ok(pieces.every((w) => w.text.length <= WINDOW_MAX_CHARS));
  assert.equal(pieces.map((w) => w.text).join(""), words, "every word, none cut in two");
  assert.ok(pieces.every((w, i) => i === pieces.length - 1 || w.text.endsWith(" ")));
  assert.deepEqual(windows.at(-1), { startLine: 3, endLine: 3, text: "after" });
  // Text another chunk already holds is skipped: from the 100th character of a long line.
  assert.equal(textWindows([words], 0, 100).map((w) => w.text).join(""), words.slice(100));
  // And the count stays bounded: a line is cut no further than the windows it may still fill.
  assert.equal(textWindows(["x".repeat(WINDOW_MAX_CHARS * 100)], 0).length, WINDOW_MAX_COUNT);
  assert.deepEqual(linePieces("x".repeat(WINDOW_MAX_CHARS * 10), 0, 3).map((p) => p.length), [
    WINDOW_MAX_CHARS,
    WINDOW_MAX_CHARS,
    WINDOW_MAX_CHARS,
  ]);
});

Deno.test("textWindows() cuts at blank lines when a window is full", () => {
  const lines = [
    ...Array.from({ length: 50 }, (_, i) => `a${i}`),
    "",
    ...Array.from({ length: 30 }, (_, i) => `b${i}`),
  ];
  assert.deepEqual(textWindows(lines, 0).map((w) => [w.startLine, w.endLine]), [[1, 50], [52, 81]]);
  assert.deepEqual(textWindows(["", "", "x"], 0).map((w) => [w.startLine, w.endLine, w.text]), [[
    3,
    3,
    "x",
  ]]);
  assert.deepEqual(textWindows(["x"], 1), []);
});

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

Deno.test("chunkRows() indexes all of a prose chunk, one with no blank line to cut at too", () => {
  const rows = Array.from({ length: 170 }, (_, i) => `| row ${i} | some filler cell text here |`);
  const text = `# Matrix\n\n| a | b |\n|---|---|\n${rows.join("\n")}\n| last | zebra |\n`;
  const { chunks } = chunkMarkdown(text);
  const sectionRows = chunkRows({
    rel: "table.md",
    language: "markdown",
    summary: null,
    text,
    nodes: [],
    sections: chunks,
  });
  assert.ok(chunks.some((c) => c.text.length > 6000), "one chunk past markdown's cap");
  assert.ok(sectionRows.some((r) => r.fts.body.includes("zebra")), "its last row is indexed");
});
