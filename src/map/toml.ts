/**
 * A small TOML subset, enough for `.heimdall/map.toml`. Pure.
 *
 * Supported: comments, `[table]` and `[[array.of.tables]]` headers, bare,
 * quoted and dotted keys, basic strings (with `\" \\ \n \t \r \uXXXX`
 * escapes), literal strings, integers, floats, booleans, arrays (across lines,
 * trailing comma, comments inside) and one-line inline tables. Not supported,
 * and reported as such with the line: multi-line strings, dates and times.
 */

import { UsageError } from "../errors/mod.ts";

/** A TOML value as parsed. */
export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
/** A TOML table. */
export interface TomlTable {
  [key: string]: TomlValue;
}

/** A file that does not parse: `line` is 1-based. */
export class TomlError extends UsageError {
  /** Parsing stopped at `line` (1-based) for `reason`. */
  constructor(readonly reason: string, readonly line: number) {
    super(`line ${line}: ${reason}`);
    this.name = "TomlError";
  }
}

/**
 * The parsed document and the line on which each key path (`a.b.c`, arrays as `a.b[0]`) was set.
 *
 * @internal
 */
export interface TomlDocument {
  value: TomlTable;
  lines: Map<string, number>;
}

const BARE_KEY = /^[A-Za-z0-9_-]+/;

class Cursor {
  pos = 0;
  line = 1;
  constructor(readonly text: string) {}

  peek(n = 0): string {
    return this.text[this.pos + n] ?? "";
  }

  done(): boolean {
    return this.pos >= this.text.length;
  }

  fail(reason: string, line = this.line): never {
    throw new TomlError(reason, line);
  }

  /** Skips spaces and tabs (not newlines). */
  spaces(): void {
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
  }

  /** Skips whitespace, newlines and comments (inside arrays). */
  blanks(): void {
    for (;;) {
      this.spaces();
      const c = this.peek();
      if (c === "#") this.comment();
      else if (c === "\n") {
        this.pos++;
        this.line++;
      } else if (c === "\r" && this.peek(1) === "\n") this.pos++;
      else return;
    }
  }

  comment(): void {
    while (!this.done() && this.peek() !== "\n") this.pos++;
  }

  /** After a value or header: only spaces and a comment may follow on the line. */
  endOfLine(): void {
    this.spaces();
    if (this.peek() === "#") this.comment();
    if (this.peek() === "\r") this.pos++;
    if (this.done()) return;
    if (this.peek() !== "\n") this.fail(`unexpected "${this.rest()}" after the value`);
    this.pos++;
    this.line++;
  }

  rest(): string {
    const end = this.text.indexOf("\n", this.pos);
    return this.text.slice(this.pos, end < 0 ? undefined : end).trim().slice(0, 30);
  }

  expect(c: string, what: string): void {
    if (this.peek() !== c) this.fail(`expected ${what}, found "${this.rest() || "end of line"}"`);
    this.pos++;
  }
}

function key(c: Cursor): string[] {
  const parts: string[] = [];
  for (;;) {
    c.spaces();
    const ch = c.peek();
    if (ch === '"') parts.push(basicString(c));
    else if (ch === "'") parts.push(literalString(c));
    else {
      const m = BARE_KEY.exec(c.text.slice(c.pos));
      if (!m) c.fail(`expected a key, found "${c.rest() || "end of line"}"`);
      parts.push(m[0]);
      c.pos += m[0].length;
    }
    c.spaces();
    if (c.peek() !== ".") return parts;
    c.pos++;
  }
}

function basicString(c: Cursor): string {
  if (c.text.startsWith('"""', c.pos)) c.fail("multi-line strings are not supported; use one line");
  c.pos++;
  let out = "";
  for (;;) {
    const ch = c.peek();
    if (ch === "" || ch === "\n") c.fail('unterminated string: close it with " on the same line');
    c.pos++;
    if (ch === '"') return out;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = c.peek();
    c.pos++;
    const simple: Record<string, string> = {
      '"': '"',
      "\\": "\\",
      n: "\n",
      t: "\t",
      r: "\r",
      b: "\b",
      f: "\f",
    };
    if (e in simple) out += simple[e];
    else if (e === "u" || e === "U") {
      const len = e === "u" ? 4 : 8;
      const hex = c.text.slice(c.pos, c.pos + len);
      if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) {
        c.fail(`bad escape "\\${e}${hex}": expected ${len} hex digits`);
      }
      const code = parseInt(hex, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        c.fail(
          `bad escape "\\${e}${hex}": not a Unicode character (U+0000–U+10FFFF, no surrogates)`,
        );
      }
      out += String.fromCodePoint(code);
      c.pos += len;
    } else c.fail(`unknown escape "\\${e}" in a string`);
  }
}

function literalString(c: Cursor): string {
  if (c.text.startsWith("'''", c.pos)) c.fail("multi-line strings are not supported; use one line");
  c.pos++;
  const end = c.text.indexOf("'", c.pos);
  const nl = c.text.indexOf("\n", c.pos);
  if (end < 0 || (nl >= 0 && nl < end)) {
    c.fail("unterminated string: close it with ' on the same line");
  }
  const s = c.text.slice(c.pos, end);
  c.pos = end + 1;
  return s;
}

/** How deep arrays and inline tables may nest (a map needs two or three). */
const MAX_DEPTH = 64;

function value(c: Cursor, path: string, lines: Map<string, number>, depth = 0): TomlValue {
  c.spaces();
  if (depth > MAX_DEPTH) c.fail(`arrays or inline tables nested more than ${MAX_DEPTH} deep`);
  lines.set(path, c.line);
  const ch = c.peek();
  if (ch === '"') return basicString(c);
  if (ch === "'") return literalString(c);
  if (ch === "[") {
    c.pos++;
    const out: TomlValue[] = [];
    for (;;) {
      c.blanks();
      if (c.peek() === "]") {
        c.pos++;
        return out;
      }
      out.push(value(c, `${path}[${out.length}]`, lines, depth + 1));
      c.blanks();
      if (c.peek() === ",") c.pos++;
      else if (c.peek() !== "]") {
        c.fail(`expected "," or "]" in the array, found "${c.rest() || "end of file"}"`);
      }
    }
  }
  if (ch === "{") {
    c.pos++;
    const out: TomlTable = {};
    c.spaces();
    if (c.peek() === "}") {
      c.pos++;
      return out;
    }
    for (;;) {
      const k = key(c);
      c.expect("=", `"=" after the key "${k.join(".")}"`);
      const line = c.line;
      setPath(out, k, value(c, `${path}.${k.join(".")}`, lines, depth + 1), c, line);
      c.spaces();
      if (c.peek() === ",") {
        c.pos++;
        continue;
      }
      c.expect("}", `"," or "}" in the inline table`);
      return out;
    }
  }
  const m = /^[^\s,\]}#]+/.exec(c.text.slice(c.pos));
  if (!m) c.fail(`expected a value, found "${c.rest() || "end of line"}"`);
  const word = m[0];
  c.pos += word.length;
  if (word === "true") return true;
  if (word === "false") return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(word)) c.fail(`dates are not supported ("${word}"); quote it`);
  const num = word.replaceAll("_", "");
  if (/^[+-]?(\d+|0x[0-9A-Fa-f]+|0o[0-7]+|0b[01]+)$/.test(num)) {
    const sign = num.startsWith("-") ? -1 : 1;
    return sign * Number(num.replace(/^[+-]/, ""));
  }
  if (/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(num)) return Number(num);
  if (/^[+-]?(inf|nan)$/.test(num)) {
    return Number(num.replace("inf", "Infinity").replace("nan", "NaN"));
  }
  c.fail(
    `expected a value (a "string", a number, true/false, [array] or {table}), found "${word}"`,
  );
}

function setPath(table: TomlTable, keys: string[], v: TomlValue, c: Cursor, line: number): void {
  let t = table;
  for (const k of keys.slice(0, -1)) {
    const next = own(t, k);
    if (next === undefined) t = put(t, k, {});
    else if (isTable(next)) t = next;
    else c.fail(`"${k}" is already a value, not a table`, line);
  }
  const last = keys[keys.length - 1]!;
  if (Object.hasOwn(t, last)) c.fail(`"${keys.join(".")}" is defined twice`, line);
  put(t, last, v);
}

/**
 * `t[k]` when `t` itself has it: a key named `constructor` or `toString` is a
 * key like any other, never something inherited.
 */
function own(t: TomlTable, k: string): TomlValue | undefined {
  return Object.hasOwn(t, k) ? t[k] : undefined;
}

/** Sets `t[k]` as an own property (so `__proto__` is a key, not the prototype); returns `v`. */
function put<V extends TomlValue>(t: TomlTable, k: string, v: V): V {
  Object.defineProperty(t, k, { value: v, enumerable: true, writable: true, configurable: true });
  return v;
}

function isTable(v: TomlValue | undefined): v is TomlTable {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parses `text`; throws {@link TomlError} with the 1-based line of the first problem. */
export function parseToml(text: string): TomlDocument {
  // A byte order mark (Notepad writes one) is not part of the first key.
  const c: Cursor = new Cursor(text.startsWith("\uFEFF") ? text.slice(1) : text);
  // A carriage return not before a newline (old Mac line endings) is never valid TOML; left
  // in, a first comment line would swallow the whole file.
  const cr = /\r(?!\n)/.exec(c.text);
  if (cr) {
    c.fail(
      'a lone carriage return ends a line; save the file with "\\n" or "\\r\\n" line endings',
      c.text.slice(0, cr.index).split("\n").length,
    );
  }
  const root: TomlTable = {};
  const lines = new Map<string, number>();
  let current = root;
  let prefix = "";
  const explicit = new Set<string>();
  for (;;) {
    c.blanks();
    if (c.done()) return { value: root, lines };
    if (c.peek() === "[") {
      const line = c.line;
      const array = c.peek(1) === "[";
      c.pos += array ? 2 : 1;
      const k = key(c);
      c.expect("]", `"]" to close the table header`);
      if (array) c.expect("]", `"]]" to close the array-of-tables header`);
      c.endOfLine();
      let t = root;
      let path = "";
      for (const [i, part] of k.entries()) {
        const last = i === k.length - 1;
        path = path ? `${path}.${part}` : part;
        let next = own(t, part);
        if (last && array) {
          if (next === undefined) next = put(t, part, []);
          if (!Array.isArray(next)) {
            c.fail(`"${path}" is already a table, not an array of tables`, line);
          }
          const fresh: TomlTable = {};
          next.push(fresh);
          path = `${path}[${next.length - 1}]`;
          t = fresh;
          break;
        }
        if (next === undefined) next = put(t, part, {});
        if (Array.isArray(next)) {
          const tail = next[next.length - 1];
          if (!isTable(tail)) c.fail(`"${path}" is not a table`, line);
          path = `${path}[${next.length - 1}]`;
          t = tail;
          continue;
        }
        if (!isTable(next)) c.fail(`"${path}" is already a value, not a table`, line);
        t = next;
      }
      if (!array) {
        if (explicit.has(path)) c.fail(`table [${k.join(".")}] is defined twice`, line);
        explicit.add(path);
      }
      lines.set(path, line);
      current = t;
      prefix = path;
      continue;
    }
    const line = c.line;
    const k = key(c);
    c.expect("=", `"=" after the key "${k.join(".")}"`);
    const path = prefix ? `${prefix}.${k.join(".")}` : k.join(".");
    const v = value(c, path, lines);
    lines.set(path, line);
    setPath(current, k, v, c, line);
    c.endOfLine();
  }
}
