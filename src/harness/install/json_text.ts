/**
 * Writing an edited JSON value back into the text it was read from (pure),
 * so that everything the edit did not touch keeps its exact text: numbers
 * JavaScript cannot hold (`12345678901234567890`, `1.0`, `1e2`), string
 * escapes, compact arrays, spacing. Only an object or array that gains, loses
 * or reorders members is laid out again, and then only its own gaps: each
 * member it keeps keeps its own text, and new members follow the layout of
 * their neighbours (or the file's indentation).
 */
import { UsageError } from "../../errors/mod.ts";

/** Where a value sits in the text. */
type JsonNode =
  | { kind: "object"; start: number; end: number; members: Member[]; tail: string }
  | { kind: "array"; start: number; end: number; items: Item[]; tail: string }
  | { kind: "scalar"; start: number; end: number };

/** An array item: the whitespace before it, itself, and the whitespace before its comma. */
interface Item {
  gap: string;
  value: JsonNode;
  after: string;
}

/** An object member: an item with its key's text and the `:` with its spacing. */
interface Member extends Item {
  key: string;
  keyText: string;
  colon: string;
}

/** An edit that would have to pick one of a key's two definitions to keep. */
export class JsonDuplicateKeyError extends UsageError {
  constructor(readonly key: string) {
    super(`the key ${JSON.stringify(key)} appears twice in one object; remove one`);
  }
}

/** Parses `text`, which must be valid JSON (check it with `JSON.parse` first), into nodes. */
function parseNodes(text: string): JsonNode {
  let i = 0;
  const ws = () => {
    const from = i;
    while (/[ \t\n\r]/.test(text[i] ?? "")) i++;
    return text.slice(from, i);
  };
  const string = () => {
    const from = i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return text.slice(from, i);
  };
  const value = (): JsonNode => {
    const start = i;
    const c = text[i];
    if (c === "{" || c === "[") {
      i++;
      const members: Member[] = [];
      const items: Item[] = [];
      let gap = ws();
      if (text[i] === (c === "{" ? "}" : "]")) {
        i++;
        return c === "{"
          ? { kind: "object", start, end: i, members, tail: gap }
          : { kind: "array", start, end: i, items, tail: gap };
      }
      for (;;) {
        let item: Item;
        if (c === "{") {
          const keyText = string();
          const colonFrom = i;
          ws();
          i++; // ':'
          ws();
          const colon = text.slice(colonFrom, i);
          const v = value();
          const m: Member = { gap, key: JSON.parse(keyText), keyText, colon, value: v, after: "" };
          members.push(m);
          item = m;
        } else {
          item = { gap, value: value(), after: "" };
          items.push(item);
        }
        const after = ws();
        if (text[i] === ",") {
          item.after = after;
          i++;
          gap = ws();
          continue;
        }
        i++; // '}' or ']'
        return c === "{"
          ? { kind: "object", start, end: i, members, tail: after }
          : { kind: "array", start, end: i, items, tail: after };
      }
    }
    if (c === '"') string();
    else while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
    return { kind: "scalar", start, end: i };
  };
  ws();
  return value();
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Pairs of indexes of equal items, in order (longest common subsequence; config lists are short). */
function matches(a: readonly unknown[], b: readonly unknown[]): [number, number][] {
  const n = a.length, m = b.length;
  const bs = b.map((y) => JSON.stringify(y));
  const eq = a.map((x) => JSON.stringify(x)).map((x) => bs.map((y) => x === y));
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = eq[i]![j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (eq[i]![j] && lcs[i]![j] === lcs[i + 1]![j + 1]! + 1) out.push([i++, j++]);
    else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/**
 * `text` (valid JSON whose value was `before`) with its value replaced by
 * `after`, keeping the text of everything `after` shares with `before`. New
 * values in a multi-line container are indented with `indent` (spaces or a
 * tab) from their line's indentation; in a one-line container they are
 * written compactly. Throws {@link JsonDuplicateKeyError} when an object that
 * must be laid out again has a key twice.
 *
 * @example
 * ```ts
 * import { editJsonText } from "./json_text.ts";
 * const text = '{"n": 12345678901234567890, "list": [1,2]}\n';
 * const value = JSON.parse(text);
 * value.added = true;
 * const out = editJsonText(text, JSON.parse(text), value, 2);
 * console.assert(out === '{"n": 12345678901234567890, "list": [1,2], "added": true}\n');
 * ```
 */
export function editJsonText(
  text: string,
  before: unknown,
  after: unknown,
  indent: string | number,
): string {
  const root = parseNodes(text);
  const unit = typeof indent === "number" ? " ".repeat(indent) : indent;
  const colonOf = (n: JsonNode): string | null => {
    if (n.kind === "object" && n.members[0]) return n.members[0].colon;
    for (const k of n.kind === "array" ? n.items : n.kind === "object" ? n.members : []) {
      const c = colonOf(k.value);
      if (c !== null) return c;
    }
    return null;
  };
  const docColon = colonOf(root) ?? ": ";

  /** The indentation of the line `at` is on. */
  const lineIndent = (at: number): string => {
    const from = text.lastIndexOf("\n", at - 1) + 1;
    return /^[ \t]*/.exec(text.slice(from, at))![0];
  };
  /** One line, spaced like the file (`JSON.stringify`'s own when the file has no space after `:`). */
  const compact = (v: unknown): string => {
    if (docColon === ":") return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(compact).join(", ")}]`;
    if (isObj(v)) {
      const kv = Object.entries(v).filter(([, x]) => x !== undefined);
      return `{${kv.map(([k, x]) => `${JSON.stringify(k)}${docColon}${compact(x)}`).join(", ")}}`;
    }
    return JSON.stringify(v);
  };
  const fresh = (v: unknown, multiline: boolean, at: string): string =>
    multiline ? JSON.stringify(v, null, unit).replaceAll("\n", "\n" + at) : compact(v);

  /**
   * The text of `v` where `old` was (node `n`). `multiline`: whether new values there are
   * laid out on lines of their own (a container with members follows its own members;
   * an empty one, its parent).
   */
  const render = (v: unknown, old: unknown, n: JsonNode, multiline: boolean): string => {
    if (same(v, old)) return text.slice(n.start, n.end);
    if (n.kind !== "scalar") {
      const kids: Item[] = n.kind === "object" ? n.members : n.items;
      const ml = kids.length > 0
        ? kids.some((k) => k.gap.includes("\n")) || n.tail.includes("\n")
        : multiline || n.tail.includes("\n");
      if (n.kind === "object" && isObj(v) && isObj(old)) return renderObject(v, old, n, ml);
      if (n.kind === "array" && Array.isArray(v) && Array.isArray(old)) {
        return renderArray(v, old, n, ml);
      }
    }
    return fresh(v, multiline, lineIndent(n.start));
  };

  /** The layout of a container's members: first gap, gap between, indentation, closing gap. */
  const layout = (n: { start: number; tail: string }, kids: Item[], ml: boolean) => {
    const base = lineIndent(n.start);
    const first = kids[0]?.gap ?? (ml ? `\n${base}${unit}` : "");
    const between = kids[1]?.gap ??
      (first.includes("\n") ? first : ml ? `\n${base}${unit}` : docColon.endsWith(" ") ? " " : "");
    const inner = between.includes("\n")
      ? between.slice(between.lastIndexOf("\n") + 1)
      : base + unit;
    const tail = kids.length > 0 ? n.tail : ml ? `\n${base}` : "";
    return { first, between, inner, tail };
  };

  const join = (parts: { gap: string; text: string; after: string }[], tail: string) =>
    parts.map((p, k) => p.gap + p.text + (k < parts.length - 1 ? p.after : "")).join(",") + tail;

  const renderObject = (v: Obj, old: Obj, n: JsonNode & { kind: "object" }, ml: boolean) => {
    const byKey = new Map<string, Member>();
    for (const m of n.members) {
      if (byKey.has(m.key)) throw new JsonDuplicateKeyError(m.key);
      byKey.set(m.key, m);
    }
    const keys = Object.keys(v);
    if (keys.length === 0) return "{}";
    const l = layout(n, n.members, ml);
    const parts = keys.map((k, idx) => {
      const m = byKey.get(k);
      const gap = idx === 0 ? l.first : m && m !== n.members[0] ? m.gap : l.between;
      if (!m) {
        return {
          gap,
          text: `${JSON.stringify(k)}${n.members.at(-1)?.colon ?? docColon}${
            fresh(v[k], ml, l.inner)
          }`,
          after: "",
        };
      }
      const value = render(v[k], old[k], m.value, ml);
      return { gap, text: m.keyText + m.colon + value, after: m.after };
    });
    return "{" + join(parts, l.tail) + "}";
  };

  const renderArray = (
    v: unknown[],
    old: unknown[],
    n: JsonNode & { kind: "array" },
    ml: boolean,
  ) => {
    if (v.length === 0) return "[]";
    const l = layout(n, n.items, ml);
    // Items equal to old ones keep their text; between two such, new items take the place of
    // old ones in order (an edited hook group), recursing into them.
    const pairs = [...matches(old, v), [old.length, v.length] as [number, number]];
    const from = new Array<number | null>(v.length).fill(null);
    let oi = 0, vi = 0;
    for (const [po, pv] of pairs) {
      for (; vi < pv; vi++) if (oi < po) from[vi] = oi++;
      if (pv < v.length) from[pv] = po;
      oi = po + 1;
      vi = pv + 1;
    }
    const parts = v.map((x, idx) => {
      const o = from[idx];
      const item = o === null || o === undefined ? null : n.items[o]!;
      const gap = idx === 0 ? l.first : item && o !== 0 ? item.gap : l.between;
      if (!item) return { gap, text: fresh(x, ml, l.inner), after: "" };
      return { gap, text: render(x, old[o!], item.value, ml), after: item.after };
    });
    return "[" + join(parts, l.tail) + "]";
  };

  return text.slice(0, root.start) + render(after, before, root, true) + text.slice(root.end);
}
