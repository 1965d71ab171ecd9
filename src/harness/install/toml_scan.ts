/**
 * A lexical scan of a TOML document into its statements (pure): table
 * headers, key/value pairs and trivia (blank and comment-only lines), each
 * with the exact span of whole lines it covers, so an edit can replace one
 * value or drop one table and leave every other byte as it was.
 *
 * It reads TOML the way a parser does (comments, basic and literal strings,
 * multi-line strings that open and close anywhere, escapes, arrays and inline
 * tables that span lines), so a `"""` in a comment or a `[x]` inside an array
 * is never taken for what it is not. It checks syntax, not semantics: a key
 * defined twice is not its concern.
 */
import { UsageError } from "../../errors/mod.ts";

/** A value, as much of it as an edit needs: strings decoded, arrays and inline tables walked. */
export type TomlValue =
  | { kind: "string"; value: string }
  | { kind: "array"; items: TomlValue[] }
  | { kind: "table"; entries: TomlEntry[] }
  | { kind: "other"; text: string };

/** One `key = value` of an inline table, with its source text (`KEY = VALUE`). */
export interface TomlEntry {
  key: string[];
  value: TomlValue;
  text: string;
}

/** One statement: whole lines, [start, end) in UTF-16 offsets; `end` is past its newline (or at the end). */
export type TomlStatement =
  | { kind: "trivia"; start: number; end: number; line: number; blank: boolean }
  | { kind: "header"; start: number; end: number; line: number; key: string[]; array: boolean }
  | {
    kind: "keyval";
    start: number;
    end: number;
    line: number;
    key: string[];
    value: TomlValue;
    /** Where the value's text starts and ends (a trailing comment is after `valueEnd`). */
    valueStart: number;
    valueEnd: number;
  };

/** Text that is not TOML; `line` and `column` are 1-based. */
export class TomlSyntaxError extends UsageError {
  constructor(readonly line: number, readonly column: number, message: string) {
    super(`line ${line}, column ${column}: ${message}`);
  }
}

const BARE_KEY = /[A-Za-z0-9_-]/;
const ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  e: "\x1b",
  '"': '"',
  "\\": "\\",
};

class Cursor {
  i = 0;
  constructor(readonly s: string) {}

  /** The character at the cursor (a method, so a check of it never narrows a later one). */
  ch(): string | undefined {
    return this.s[this.i];
  }

  at(t: string): boolean {
    return this.s.startsWith(t, this.i);
  }

  fail(message: string, at = this.i): never {
    const before = this.s.slice(0, at);
    const line = before.split("\n").length;
    throw new TomlSyntaxError(line, at - (before.lastIndexOf("\n") + 1) + 1, message);
  }

  ws(): void {
    while (this.ch() === " " || this.ch() === "\t") this.i++;
  }

  /** True (and consumed) at a newline: `\n` or `\r\n`. */
  newline(): boolean {
    if (this.ch() === "\n") {
      this.i++;
      return true;
    }
    if (this.at("\r\n")) {
      this.i += 2;
      return true;
    }
    return false;
  }

  comment(): void {
    if (this.ch() !== "#") return;
    while (this.i < this.s.length && this.ch() !== "\n" && !this.at("\r\n")) this.i++;
  }

  /** Whitespace, newlines and comments (between the items of an array or inline table). */
  gap(): void {
    for (;;) {
      this.ws();
      this.comment();
      if (!this.newline()) return;
    }
  }

  /** The end of a statement: spaces, an optional comment, then a newline or the end of the text. */
  eol(): void {
    this.ws();
    this.comment();
    if (!this.newline() && this.i < this.s.length) {
      this.fail(`expected the end of the line, found ${JSON.stringify(this.ch())}`);
    }
  }
}

function key(cur: Cursor): string[] {
  const parts = [simpleKey(cur)];
  for (;;) {
    const save = cur.i;
    cur.ws();
    if (cur.ch() !== ".") {
      cur.i = save;
      return parts;
    }
    cur.i++;
    cur.ws();
    parts.push(simpleKey(cur));
  }
}

function simpleKey(cur: Cursor): string {
  if (cur.ch() === '"') return basicString(cur);
  if (cur.ch() === "'") return literalString(cur);
  const start = cur.i;
  while (BARE_KEY.test(cur.ch() ?? "")) cur.i++;
  if (cur.i === start) cur.fail(`expected a key, found ${JSON.stringify(cur.ch() ?? "the end")}`);
  return cur.s.slice(start, cur.i);
}

function escape(cur: Cursor): string {
  const at = cur.i;
  cur.i++; // the backslash
  const e = cur.ch();
  if (e !== undefined && e in ESCAPES) {
    cur.i++;
    return ESCAPES[e]!;
  }
  const width = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
  const hex = cur.s.slice(cur.i + 1, cur.i + 1 + width);
  if (width === 0 || !new RegExp(`^[0-9A-Fa-f]{${width}}$`).test(hex)) {
    cur.fail(`invalid escape "\\${e ?? ""}"`, at);
  }
  const code = parseInt(hex, 16);
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) cur.fail(`invalid escape`, at);
  cur.i += 1 + width;
  return String.fromCodePoint(code);
}

function basicString(cur: Cursor): string {
  const start = cur.i;
  cur.i++;
  let out = "";
  for (;;) {
    const c = cur.ch();
    if (c === undefined || c === "\n" || cur.at("\r\n")) cur.fail("unterminated string", start);
    if (c === '"') {
      cur.i++;
      return out;
    }
    if (c === "\\") out += escape(cur);
    else {
      out += c;
      cur.i++;
    }
  }
}

function literalString(cur: Cursor): string {
  const start = cur.i;
  const end = cur.s.indexOf("'", start + 1);
  const nl = cur.s.indexOf("\n", start + 1);
  if (end < 0 || (nl >= 0 && nl < end)) cur.fail("unterminated string", start);
  cur.i = end + 1;
  return cur.s.slice(start + 1, end);
}

/** A `"""` or `'''` string: up to two quotes may end its content before the closing three. */
function multiLineString(cur: Cursor, q: '"' | "'"): string {
  const start = cur.i;
  cur.i += 3;
  cur.newline(); // a newline right after the opening quotes is not content
  let out = "";
  for (;;) {
    const c = cur.ch();
    if (c === undefined) cur.fail("unterminated multi-line string", start);
    if (cur.at(q.repeat(3))) {
      let n = 3;
      while (cur.s[cur.i + n] === q) n++;
      if (n > 5) cur.fail("too many quotes closing a multi-line string");
      out += q.repeat(n - 3);
      cur.i += n;
      return out;
    }
    if (q === '"' && c === "\\") {
      // A backslash ending a line trims the newline and the whitespace after it.
      let j = cur.i + 1;
      while (cur.s[j] === " " || cur.s[j] === "\t") j++;
      if (cur.s[j] === "\n" || cur.s.startsWith("\r\n", j)) {
        cur.i = j;
        while (cur.newline() || cur.ch() === " " || cur.ch() === "\t") {
          if (cur.ch() === " " || cur.ch() === "\t") cur.i++;
        }
        continue;
      }
      out += escape(cur);
      continue;
    }
    if (cur.at("\r\n")) {
      out += "\n";
      cur.i += 2;
      continue;
    }
    out += c;
    cur.i++;
  }
}

function value(cur: Cursor): TomlValue {
  const c = cur.ch();
  if (cur.at('"""')) return { kind: "string", value: multiLineString(cur, '"') };
  if (cur.at("'''")) return { kind: "string", value: multiLineString(cur, "'") };
  if (c === '"') return { kind: "string", value: basicString(cur) };
  if (c === "'") return { kind: "string", value: literalString(cur) };
  if (c === "[") {
    cur.i++;
    const items: TomlValue[] = [];
    for (;;) {
      cur.gap();
      if (cur.ch() === "]") {
        cur.i++;
        return { kind: "array", items };
      }
      items.push(value(cur));
      cur.gap();
      if (cur.ch() === ",") cur.i++;
      else if (cur.ch() !== "]") cur.fail(`expected "," or "]" in an array`);
    }
  }
  if (c === "{") {
    cur.i++;
    const entries: TomlEntry[] = [];
    for (;;) {
      // Newlines and a trailing comma are TOML 1.1; accepted so such a file is still read.
      cur.gap();
      if (cur.ch() === "}") {
        cur.i++;
        return { kind: "table", entries };
      }
      const from = cur.i;
      const k = key(cur);
      cur.ws();
      if (cur.ch() !== "=") cur.fail(`expected "=" after a key`);
      cur.i++;
      cur.ws();
      const v = value(cur);
      entries.push({ key: k, value: v, text: cur.s.slice(from, cur.i) });
      cur.gap();
      if (cur.ch() === ",") cur.i++;
      else if (cur.ch() !== "}") cur.fail(`expected "," or "}" in an inline table`);
    }
  }
  // Numbers, booleans, dates and times: their text, up to what ends a value.
  const start = cur.i;
  for (;;) {
    while (cur.ch() !== undefined && !/[\s,\]}#]/.test(cur.ch()!)) cur.i++;
    // A date and a time may be separated by one space (`1979-05-27 07:32:00`).
    if (
      cur.ch() === " " && /^\d{4}-\d{2}-\d{2}$/.test(cur.s.slice(start, cur.i)) &&
      /\d/.test(cur.s[cur.i + 1] ?? "")
    ) {
      cur.i++;
      continue;
    }
    break;
  }
  if (cur.i === start) cur.fail(`expected a value, found ${JSON.stringify(c ?? "the end")}`);
  return { kind: "other", text: cur.s.slice(start, cur.i) };
}

/**
 * The statements of `text`, in order, covering it whole. Throws
 * {@link TomlSyntaxError} where the text is not TOML. Linear in the text's size.
 *
 * @example
 * ```ts
 * import { scanToml } from "./toml_scan.ts";
 * const s = scanToml('# a """ in a comment\n[a]\nx = """\n[b]\n"""\n');
 * console.assert(s.filter((t) => t.kind === "header").length === 1);
 * ```
 */
export function scanToml(text: string): TomlStatement[] {
  const cur = new Cursor(text);
  const out: TomlStatement[] = [];
  let line = 1;
  while (cur.i < text.length) {
    const start = cur.i;
    cur.ws();
    let st: TomlStatement;
    if (cur.ch() === undefined || cur.ch() === "\n" || cur.at("\r\n") || cur.ch() === "#") {
      const blank = cur.ch() !== "#";
      cur.eol();
      st = { kind: "trivia", start, end: cur.i, line, blank };
    } else if (cur.ch() === "[") {
      const array = cur.at("[[");
      cur.i += array ? 2 : 1;
      cur.ws();
      const k = key(cur);
      cur.ws();
      if (!cur.at(array ? "]]" : "]")) cur.fail(`expected "${array ? "]]" : "]"}" closing a table`);
      cur.i += array ? 2 : 1;
      cur.eol();
      st = { kind: "header", start, end: cur.i, line, key: k, array };
    } else {
      const k = key(cur);
      cur.ws();
      if (cur.ch() !== "=") cur.fail(`expected "=" after a key`);
      cur.i++;
      cur.ws();
      const valueStart = cur.i;
      const v = value(cur);
      const valueEnd = cur.i;
      cur.eol();
      st = { kind: "keyval", start, end: cur.i, line, key: k, value: v, valueStart, valueEnd };
    }
    out.push(st);
    for (let j = start; j < cur.i; j++) if (text.charCodeAt(j) === 10) line++;
  }
  return out;
}
