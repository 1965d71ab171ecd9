/**
 * The architectural map file: `.heimdall/map.toml` (or `.heimdall/map.json`)
 * at a repository's root. Parsing and validation are pure; errors carry the
 * line.
 *
 * ```toml
 * [component.store]
 * description = "The journal"
 * paths = ["src/store/**"]
 * depends_on = ["config"]
 * must = ["Only this folder imports node:sqlite"]
 * should = ["One file per table group"]
 * info = ["Migrations are append-only"]
 * sources = ["docs/adr/0003-journal.md"]
 * ```
 */
import { UsageError } from "../errors/mod.ts";
import { compileGlob, type Glob, GlobError } from "./glob.ts";
import { parseToml, TomlError, type TomlTable, type TomlValue } from "./toml.ts";

/** How binding a constraint is. */
export const LEVELS = ["must", "should", "info"] as const;
/** One of {@link LEVELS}. */
export type Level = (typeof LEVELS)[number];

/** One component of the map. */
export interface Component {
  /** The component's name (its table name in the map). */
  name: string;
  /** What it is, when the map says. */
  description: string | null;
  /** Its globs (`paths` in the map), compiled. */
  globs: Glob[];
  /** Components it depends on, by name. */
  depends_on: string[];
  /** Its constraints, each with its level, in the order written. */
  constraints: { level: Level; text: string }[];
  /** Repository-relative documents its constraints come from (an ADR, a design note). */
  sources: string[];
  /** The line each of `globs` is written on, when known. */
  globLines: (number | null)[];
  /** The line each of `sources` is written on, when known. */
  sourceLines: (number | null)[];
  /** Declaration order (breaks specificity ties) and line. */
  order: number;
  /** The line of the map file it is declared on, when known. */
  line: number | null;
}

/** A parsed, validated map. */
export interface ArchMap {
  /** The map file it was read from. */
  file: string;
  /** Its components, in declaration order. */
  components: Component[];
}

/** A map file that does not parse or does not validate; `line` when known (1-based). */
export class MapError extends UsageError {
  /** `file` refused at `line` (null when unknown) for `reason`. */
  constructor(readonly file: string, readonly line: number | null, readonly reason: string) {
    super(`${file}${line !== null ? `:${line}` : ""}: ${reason}`);
    this.name = "MapError";
  }
}

/** The folder and the file names a map may have, in order of preference. */
export const MAP_DIR = ".heimdall";
export const MAP_NAMES = ["map.toml", "map.json"] as const;

const COMPONENT_KEYS = new Set(["description", "paths", "depends_on", "sources", ...LEVELS]);
const NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * JSON has no line numbers per key: the line of a key path (`component.NAME`,
 * `component.NAME.KEY[i]`) is found by its words in order, NAME's first
 * `"NAME":` after `"component":`, then KEY's first after that, so the
 * `paths` of the second component is not placed on the first one's.
 */
function jsonLineOf(text: string, names: string[]): (path: string) => number | null {
  const at = new Map<string, number[]>();
  text.split("\n").forEach((l, i) => {
    for (const m of l.matchAll(/"((?:[^"\\]|\\.)+)"\s*:/g)) {
      let key: string;
      try {
        key = JSON.parse(`"${m[1]!}"`);
      } catch {
        continue;
      }
      const lines = at.get(key);
      if (lines) lines.push(i + 1);
      else at.set(key, [i + 1]);
    }
  });
  // The first line at or after `from` holding `key` (the lines are in order: a binary search).
  const after = (key: string, from: number): number | null => {
    const lines = at.get(key) ?? [];
    let lo = 0;
    let hi = lines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lines[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lines[lo] ?? null;
  };
  const known = new Set(names);
  return (path) => {
    const bare = path.replace(/\[\d+\]$/, "");
    if (!bare.startsWith("component.")) return after(bare, 1);
    const top = after("component", 1) ?? 1;
    const rest = bare.slice("component.".length);
    // The longest name that fits: a name may hold a dot.
    let name: string | undefined;
    for (let end = rest.length; end > 0; end = rest.lastIndexOf(".", end - 1)) {
      if (known.has(rest.slice(0, end))) {
        name = rest.slice(0, end);
        break;
      }
    }
    if (name === undefined) return top;
    const line = after(name, top);
    if (rest === name || line === null) return line;
    return after(rest.slice(name.length + 1), line) ?? line;
  };
}

/**
 * The first key that appears twice in one object of `text` (valid JSON), and
 * its second line: `JSON.parse` keeps the last silently, so a second
 * `"store": {…}` would drop the first component unseen. O(length).
 */
function jsonDuplicateKey(text: string): { key: string; line: number } | undefined {
  const objects: (Set<string> | null)[] = []; // null for an array
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    else if (c === "{") objects.push(new Set());
    else if (c === "[") objects.push(null);
    else if (c === "}" || c === "]") objects.pop();
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const raw = text.slice(i, end + 1);
      i = end;
      let next = end + 1;
      while (/\s/.test(text[next] ?? "")) next++;
      const keys = objects[objects.length - 1];
      if (text[next] !== ":" || !keys) continue;
      const key = JSON.parse(raw) as string;
      if (keys.has(key)) return { key, line };
      keys.add(key);
    }
  }
  return undefined;
}

/**
 * The text of the map file `file`. Throws {@link MapError} with the line of
 * the first byte that is not UTF-8 (a glob or constraint read with a
 * replacement character in it would never match or say what was meant).
 */
export function readMapFile(file: string): string {
  const bytes = Deno.readFileSync(file);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Byte by byte until the decoder refuses one (or the end leaves a sequence cut short).
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let bad = bytes.length;
    for (let n = 0; n < bytes.length; n++) {
      try {
        decoder.decode(bytes.subarray(n, n + 1), { stream: true });
      } catch {
        bad = n;
        break;
      }
    }
    const line = bytes.subarray(0, bad).filter((b) => b === 0x0a).length + 1;
    throw new MapError(file, line, "not valid UTF-8; save the map as UTF-8");
  }
}

/**
 * Parses and validates a map's text (`file` names it in errors; a name
 * ending in `.json` is read as JSON, anything else as TOML). Throws
 * {@link MapError}: a syntax error (with its line), a top-level key other
 * than `component`, an unknown key in a component, a bad glob, a component
 * without paths, or a `depends_on` naming no component or itself.
 */
export function parseMap(text: string, file: string): ArchMap {
  let doc: TomlTable;
  let lineOf: (path: string) => number | null;
  if (file.endsWith(".json")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const m = /position (\d+)/.exec((e as Error).message);
      const line = m ? text.slice(0, Number(m[1])).split("\n").length : null;
      throw new MapError(file, line, `not valid JSON: ${(e as Error).message}`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new MapError(file, 1, 'expected an object with a "component" table');
    }
    const twice = jsonDuplicateKey(text);
    if (twice) {
      throw new MapError(
        file,
        twice.line,
        `"${twice.key}" is defined twice in the same object (JSON keeps only the last); ` +
          "merge them or rename one",
      );
    }
    doc = value as TomlTable;
    const table = doc.component;
    lineOf = jsonLineOf(text, isTable(table) ? Object.keys(table) : []);
  } else {
    try {
      const parsed = parseToml(text);
      doc = parsed.value;
      lineOf = (path) => parsed.lines.get(path) ?? null;
    } catch (e) {
      if (e instanceof TomlError) throw new MapError(file, e.line, e.reason);
      throw e;
    }
  }
  const fail = (path: string, reason: string): never => {
    throw new MapError(file, lineOf(path), reason);
  };
  for (const k of Object.keys(doc)) {
    if (k !== "component") fail(k, `unknown key "${k}": the map holds [component.NAME] tables`);
  }
  const table = doc.component ?? {};
  if (!isTable(table)) return fail("component", "component must be a table of [component.NAME]");
  const components: Component[] = [];
  for (const [name, raw] of Object.entries(table)) {
    const at = `component.${name}`;
    if (!NAME.test(name)) fail(at, `component name "${name}": use letters, digits, _ . -`);
    if (!isTable(raw)) return fail(at, `component "${name}" must be a table`);
    for (const k of Object.keys(raw)) {
      if (!COMPONENT_KEYS.has(k)) {
        fail(
          `${at}.${k}`,
          `unknown key "${k}" in component "${name}": expected ${[...COMPONENT_KEYS].join(", ")}`,
        );
      }
    }
    const strings = (k: string): string[] => {
      const v = raw[k];
      if (v === undefined) return [];
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
        return fail(`${at}.${k}`, `"${k}" of component "${name}" must be a list of strings`);
      }
      return v as string[];
    };
    const paths = strings("paths");
    if (paths.length === 0) {
      fail(at, `component "${name}" has no paths: add paths = ["src/${name}/**"]`);
    }
    const globs = paths.map((p, i) => {
      try {
        return compileGlob(p);
      } catch (e) {
        if (e instanceof GlobError) return fail(`${at}.paths[${i}]`, e.message);
        throw e;
      }
    });
    const description = raw.description;
    if (description !== undefined && typeof description !== "string") {
      fail(`${at}.description`, `"description" of component "${name}" must be a string`);
    }
    components.push({
      name,
      description: (description as string | undefined) ?? null,
      globs,
      // Named twice is depended on once: its constraints are not listed twice.
      depends_on: [...new Set(strings("depends_on"))],
      constraints: LEVELS.flatMap((level) =>
        strings(level).map((text, i) => {
          // A blank rule would be shown before every edit as a rule that says nothing.
          if (text.trim() === "") {
            fail(
              `${at}.${level}[${i}]`,
              `"${level}" constraint ${
                i + 1
              } of component "${name}" is empty: write the rule, or remove the ""`,
            );
          }
          return { level, text };
        })
      ),
      sources: strings("sources"),
      globLines: paths.map((_, i) => lineOf(`${at}.paths[${i}]`) ?? lineOf(`${at}.paths`)),
      sourceLines: strings("sources").map((_, i) =>
        lineOf(`${at}.sources[${i}]`) ?? lineOf(`${at}.sources`)
      ),
      order: components.length,
      line: lineOf(at),
    });
  }
  const names = new Set(components.map((c) => c.name));
  for (const c of components) {
    c.depends_on.forEach((d, i) => {
      const at = `component.${c.name}.depends_on[${i}]`;
      if (d === c.name) fail(at, `component "${c.name}" depends on itself`);
      if (!names.has(d)) {
        fail(at, `component "${c.name}" depends on "${d}", which the map does not declare`);
      }
    });
  }
  return { file, components };
}

function isTable(v: TomlValue | undefined): v is TomlTable {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
