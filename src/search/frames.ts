/**
 * Stack frames in a question (pure parsing, one journal lookup a frame): a
 * pasted traceback names the files and functions the error went through,
 * which say more about where its answer is than its words do ("Traceback",
 * "most", "recent", "usr", "lib"). The names leg ranks the definitions the
 * frames name, innermost frame first.
 */
import type { Journal } from "../store/mod.ts";

/** One frame of a stack trace: the file as the trace spells it, the function, the line. */
export interface StackFrame {
  /** The file as the trace spells it (`/usr/lib/python3.11/json/decoder.py`, `Session.java`). */
  path: string;
  /** The function's or method's own name; null for an anonymous one (`at /app/x.js:3:1`). */
  name: string | null;
  /** The line the frame was at, 1-based. */
  line: number;
}

/** A trace's frames in the order it prints them, and whether that order ends at the innermost. */
interface Format {
  /** The frame line's expression (flags `gu`), compiled by {@link frameExpression}. */
  source: string;
  /**
   * What a text must hold for the frame's expression to find anything in
   * it, tested first: a plain expression compiles in microseconds, the
   * frame's (Unicode classes) in a millisecond or so, so it is compiled
   * only for a question that passes this test. Compiled when this module
   * loaded, the nine took 5 ms of every search process's start, whose
   * question holds no trace at all most of the time.
   */
  hint: RegExp;
  innermostLast: boolean;
}

/** Each format's expression, compiled the first time a question passes its hint. */
const compiled = new Map<Format, RegExp>();

/** The expression of `format`, compiled once (`matchAll` copies it, so one is shared). */
function frameExpression(format: Format): RegExp {
  let re = compiled.get(format);
  if (re === undefined) compiled.set(format, re = new RegExp(format.source, "gu"));
  return re;
}

const ID = String.raw`[\p{L}_$][\p{L}\p{N}_$]*`;

/**
 * A line (and column) after a file's path, as a compiler, a linter or a link
 * gives it: `:42`, `:42:7`, `(42,7)`, `#L42-L50`; the line in `line`, `at`
 * or `row`.
 */
const LINE_AT = String
  .raw`(?::(?<line>\d+)(?::\d+)?|\((?<at>\d+)(?:,\s*\d+)?\)|#L(?<row>\d+)(?:-L?\d+)?)`;

/** {@link LINE_AT} ending a text: what `typedPath` cuts off a file typed with its line. */
export const LOCATION_SUFFIX = new RegExp(`${LINE_AT}$`, "u");

/**
 * Each language's frame line, as its runtime prints it. A frame names a
 * file with an extension and a line number; the function is its last
 * name (`send` of `com.acme.Session.send`, of `Acme\Session->send`).
 */
const FORMATS: readonly Format[] = [
  // Python: `File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode`.
  {
    source: String.raw`File "(?<path>[^"\n]+)", line (?<line>\d+), in (?<name>${ID})`,
    hint: /File "[^"\n]+", line \d/,
    innermostLast: true,
  },
  // V8 (Node, Deno, Chrome): `at Session.send (/app/src/session.js:10:5)`, `at async send (file:///…)`,
  // `at /app/src/x.js:3:1`.
  {
    source: String.raw`\bat (?:async )?(?:(?:new )?(?<qual>${ID}(?:\.${ID}|\.<anonymous>)*) \()?` +
      String.raw`(?:file://)?(?<path>[^\s()]+\.[\p{L}\p{N}]+):(?<line>\d+):\d+\)?`,
    hint: /:\d+:\d/,
    innermostLast: false,
  },
  // Firefox and Safari: `send@http://localhost/app.js:10:5`.
  {
    source: String
      .raw`(?:^|\n)\s*(?<qual>${ID}(?:[./<]+${ID})*)[/<]*@(?:[a-z]+://[^/\s]*)?(?<path>[^\s@]+\.[\p{L}\p{N}]+):(?<line>\d+):\d+`,
    hint: /@[^\n]*:\d+:\d/,
    innermostLast: false,
  },
  // JVM: `at com.acme.Session.send(Session.java:42)`.
  {
    source: String
      .raw`\bat (?<qual>${ID}(?:\.(?:${ID}|<init>|<clinit>))*)\((?<path>[\p{L}\p{N}_$-]+\.(?:java|kt|scala|groovy|clj)):(?<line>\d+)\)`,
    hint: /\.(?:java|kt|scala|groovy|clj):\d/,
    innermostLast: false,
  },
  // .NET: `at Acme.Session.Send(String url) in /src/Session.cs:line 42`.
  {
    source: String
      .raw`\bat (?<qual>${ID}(?:[.+]${ID})*)(?:\[[^\]]*\])?\([^)\n]*\) in (?<path>[^\n]+?\.(?:cs|fs|vb)):line (?<line>\d+)`,
    hint: /:line \d/,
    innermostLast: false,
  },
  // Ruby: `/app/lib/session.rb:42:in 'Session#send'`, or with a backtick before the name.
  {
    source: String
      .raw`(?<path>[^\s:'"\x60]+\.(?:rb|rake)):(?<line>\d+):in [\x60'](?:block (?:\(\d+ levels\) )?in )?(?:[\p{L}\p{N}_:]*[#.])?(?<name>[\p{L}_][\p{L}\p{N}_]*[?!=]?)'`,
    hint: /\.(?:rb|rake):\d+:in /,
    innermostLast: false,
  },
  // PHP: `Uncaught Exception: closed in /app/src/Session.php:42`, then `#0
  // /app/src/Main.php(7): Acme\Session->send()`, which names the function called
  // from that line, not the one holding it: the frame is its line alone.
  {
    source: String.raw`(?:\bin |#\d+ )(?<path>[^\s(]+\.php)(?::(?<at>\d+)|\((?<line>\d+)\): )`,
    hint: /\.php(?::\d|\(\d)/,
    innermostLast: false,
  },
  // Go: `main.(*Session).Send(…)` then, indented, `/app/session.go:42 +0x1d`.
  {
    source: String
      .raw`(?:^|\n)(?:[\p{L}\p{N}_./-]*\.)?(?:\(\*?${ID}\)\.)?(?<name>${ID})(?:\.func\d+)*\([^\n]*\)\n\s+(?<path>[^\s:]+\.go):(?<line>\d+)`,
    hint: /\.go:\d/,
    innermostLast: false,
  },
  // Rust: `3: app::session::send` then `at ./src/session.rs:42:5`.
  {
    source: String
      .raw`\d+: (?:[\p{L}\p{N}_<>]+::)*(?<name>${ID})(?:::h[0-9a-f]{16})?\s+at (?<path>[^\s:]+\.rs):(?<line>\d+):\d+`,
    hint: /\.rs:\d+:\d/,
    innermostLast: false,
  },
  // A location alone, as compilers, linters, test runners and `grep -n` print one and as
  // people paste it (`src/pool.ts:42`, `pool.ts:42:7`, `Pool.cs(42,7)`, a link's
  // `pool.ts#L42`): a frame with no function, whose line says which definition is meant. Last,
  // so that a runtime's frame read above keeps its name.
  {
    source: String.raw`(?<![^\s(\[{"'\x60=,;])(?:(?:file|https?):\/\/[^\/\s]*|[A-Za-z]:)?` +
      String.raw`(?<path>[\p{L}\p{N}_.~\/\\-]*[\p{L}\p{N}_-]\.\p{L}[\p{L}\p{N}]{0,9})` +
      LINE_AT +
      String.raw`(?![\p{L}\p{N}_])`,
    hint: /[:(]\d|#L\d/,
    innermostLast: false,
  },
];

/** Characters of a question read for frames (its start and end), and the longest line that can be one. */
const MAX_TEXT = 64 * 1024;
const MAX_LINE = 500;

/** Frames looked up per question at most: the innermost ones, where an error is met. */
export const MAX_FRAMES = 12;

/**
 * The stack frames a question holds (pure), innermost first, each file and
 * line once (a frame two formats both read keeps its name). Python prints
 * the innermost call last ("most recent call last"), every other runtime
 * first. Empty for a question that holds none.
 *
 * @example
 * ```ts
 * import { stackFrames } from "./frames.ts";
 * import assert from "node:assert/strict";
 * const py = 'Traceback (most recent call last):\n  File "/app/cli.py", line 9, in main\n' +
 *   '    run()\n  File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode\n';
 * assert.deepEqual(stackFrames(py).map((f) => `${f.path}:${f.line} ${f.name}`), [
 *   "/usr/lib/python3.11/json/decoder.py:355 raw_decode",
 *   "/app/cli.py:9 main",
 * ]);
 * assert.deepEqual(stackFrames("    at Session.send (/app/src/session.js:10:5)"), [
 *   { path: "/app/src/session.js", name: "send", line: 10 },
 * ]);
 * assert.deepEqual(stackFrames("parse the header"), []);
 * ```
 */
export function stackFrames(question: string): StackFrame[] {
  // A long paste is read at its start and its end, where a trace's outermost and innermost
  // frames are.
  const bounded = question.length <= MAX_TEXT
    ? question
    : `${question.slice(0, MAX_TEXT / 2)}\n${question.slice(-MAX_TEXT / 2)}`;
  // A frame is a short line: a long one (minified code, a pasted blob) is none, and the
  // formats' backtracking grows with a line's length.
  const text = bounded.split("\n")
    .map((line) => line.length > MAX_LINE ? "" : line).join("\n");
  // By file and line, in the order first found (a frame named later keeps that place).
  const found = new Map<string, StackFrame>();
  for (const format of FORMATS) {
    if (!format.hint.test(text)) continue;
    const frames: StackFrame[] = [];
    for (const m of text.matchAll(frameExpression(format))) {
      const g = m.groups!;
      frames.push({
        path: g.path!,
        name: g.name ?? lastName(g.qual),
        line: Number(g.line ?? g.at ?? g.row),
      });
    }
    if (format.innermostLast) frames.reverse();
    for (const f of frames) {
      const key = `${f.path}:${f.line}`;
      const had = found.get(key);
      if (had === undefined || (had.name === null && f.name !== null)) found.set(key, f);
    }
  }
  return [...found.values()].slice(0, MAX_FRAMES);
}

/** The function's own name of a qualified one (`Session.send` → `send`); null for none. */
function lastName(qual: string | undefined): string | null {
  if (qual === undefined) return null;
  // `Object.<anonymous>`, a JVM constructor's `<init>`: no name of the source's own.
  const last = qual.split(/[./+]/).filter((p) => p !== "" && p !== "<").pop() ?? "";
  return last === "" || last.startsWith("<") ? null : last;
}

/**
 * The end of a frame's path that an indexed file's path must end with: its
 * last two segments (`json/decoder.py` of `/usr/lib/python3.11/json/decoder.py`),
 * or its name alone when the trace gives no folder (`Session.java`).
 */
export function pathTail(path: string): string {
  const parts = path.replaceAll("\\", "/").split("/").filter((p) => p !== "" && p !== ".");
  return parts.slice(-2).join("/");
}

/**
 * The definitions of a frame's file (its path ending in `?1`): named `?2`,
 * looked up by name (indexed); or, for an anonymous frame, holding line
 * `?2`, looked up by the file's path (a scan of the paths' table).
 */
const FRAME_FILE = `(p.rel = ?1 OR substr(p.rel, -1 - length(?1)) = '/' || ?1)
  AND n.kind NOT IN ('file', 'heading') AND n.start_line IS NOT NULL`;
const BY_NAME = `SELECT c.id, n.start_line AS start, n.end_line AS "end"
  FROM nodes n CROSS JOIN paths p ON p.id = n.path_id
  JOIN chunks c ON c.path_id = n.path_id AND c.node_id = n.id
  WHERE n.name = ?2 AND ${FRAME_FILE} LIMIT 200`;
const BY_LINE = `SELECT c.id, n.start_line AS start, n.end_line AS "end"
  FROM paths p CROSS JOIN nodes n ON n.path_id = p.id
  JOIN chunks c ON c.path_id = n.path_id AND c.node_id = n.id
  WHERE n.start_line <= ?2 AND ?2 <= n.end_line AND ${FRAME_FILE} LIMIT 200`;

/** Anonymous frames looked up at most: each scans the paths' table (a few ms on 31,000 files). */
const MAX_ANONYMOUS = 3;

/**
 * The chunks of the definitions the frames name, innermost frame first, at
 * most `limit`: in a file whose path ends with the frame's {@link pathTail},
 * the definition of the frame's function (the one holding its line first,
 * when the file defines that name twice), or for an anonymous frame the
 * smallest definition holding its line. A frame in a file the index does not
 * hold (the standard library's) adds nothing.
 */
export function framesRanking(
  j: Journal,
  frames: readonly StackFrame[],
  limit: number,
): number[] {
  const out: number[] = [];
  let anonymous = 0;
  for (const f of frames) {
    if (out.length >= limit) break;
    const tail = pathTail(f.path);
    if (tail === "") continue;
    if (f.name === null && ++anonymous > MAX_ANONYMOUS) continue;
    const rows = j.all<{ id: number; start: number; end: number }>(
      f.name === null ? BY_LINE : BY_NAME,
      tail,
      f.name ?? f.line,
    );
    const holds = (r: { start: number; end: number }) => r.start <= f.line && f.line <= r.end;
    rows.sort((a, b) =>
      Number(holds(b)) - Number(holds(a)) || (a.end - a.start) - (b.end - b.start) || a.id - b.id
    );
    for (const r of rows.slice(0, f.name === null ? 1 : 3)) {
      if (!out.includes(r.id)) out.push(r.id);
    }
  }
  return out.slice(0, limit);
}

/**
 * True when a hit is what one of `frames` names (pure): its file's path
 * ends with the frame's {@link pathTail}, and its symbol is the frame's
 * function (its qualified name ends in it), or the frame has no name and
 * the hit's lines hold the frame's line. The prompt hook injects such a hit
 * whatever its confidence: the trace named it, nothing was guessed.
 *
 * @example
 * ```ts
 * import { framedBy, stackFrames } from "./frames.ts";
 * import assert from "node:assert/strict";
 * const frames = stackFrames('  File "/srv/app/conf.py", line 6, in load');
 * const hit = { path: "/home/me/app/conf.py", symbol: "load", line: 4, end_line: 6 };
 * assert.ok(framedBy(frames, hit));
 * assert.ok(!framedBy(frames, { ...hit, symbol: "Config.dump" }));
 * ```
 */
export function framedBy(
  frames: readonly StackFrame[],
  hit: { path: string | null; symbol: string | null; line: number | null; end_line: number | null },
): boolean {
  return frames.some((f) => {
    const tail = pathTail(f.path);
    if (hit.path === null || tail === "" || !hit.path.replaceAll("\\", "/").endsWith(`/${tail}`)) {
      return false;
    }
    if (f.name !== null) {
      return hit.symbol !== null && hit.symbol.split(/\.|::|#/).at(-1) === f.name;
    }
    return hit.line !== null && hit.end_line !== null && hit.line <= f.line &&
      f.line <= hit.end_line;
  });
}
