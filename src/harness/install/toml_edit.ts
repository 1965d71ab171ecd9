/**
 * A careful edit of Codex's `config.toml` (pure): inside the
 * `[mcp_servers.heimdall]` table only the keys Heimdall writes are set
 * (`command`, `args`, and `HEIMDALL_HOME` in `env`), by replacing their
 * values' text; keys a person added there (`startup_timeout_sec`…), comments
 * and every other byte of the file stay as they were. An uninstall removes
 * the table (with its sub-tables and the keys in them: they configure a
 * server that is gone) and the blank line init put before it; comments and
 * blank lines between its last key and the next table belong to the next
 * table and stay. A file that defines `heimdall` some other way (dotted keys,
 * an inline table, an array of tables) is refused rather than guessed at, as
 * is a file that is not TOML.
 */
import { ConfigEditError } from "./json_file.ts";
import { scanToml, type TomlStatement, TomlSyntaxError, type TomlValue } from "./toml_scan.ts";

/** What the MCP table says. */
export interface TomlServer {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The environment variables Heimdall owns in its server's `env` (others there are left alone). */
const OWNED_ENV = ["HEIMDALL_HOME"];

/** A TOML basic string. */
export function tomlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return out + '"';
}

function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}

function tomlArgs(args: readonly string[]): string {
  return `[${args.map(tomlString).join(", ")}]`;
}

function envLine(env: [string, string][]): string {
  return `env = { ${env.map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`).join(", ")} }`;
}

/** The table's text (lines joined by `nl`, no newline at the end). */
export function serverTable(name: string, s: TomlServer, nl = "\n"): string {
  const lines = [
    `[mcp_servers.${tomlKey(name)}]`,
    `command = ${tomlString(s.command)}`,
    `args = ${tomlArgs(s.args)}`,
  ];
  const env = Object.entries(s.env);
  if (env.length > 0) lines.push(envLine(env));
  return lines.join(nl);
}

type Keyval = Extract<TomlStatement, { kind: "keyval" }>;
type Header = Extract<TomlStatement, { kind: "header" }>;

/** A table: its header (null for the root), and its statements up to the next header. */
interface Table {
  key: string[];
  header: Header | null;
  /** Index of the header in the statements (-1 for the root). */
  from: number;
  /** Index past its last key/value (past the header when it has none): trivia after it is not its own. */
  to: number;
  keyvals: Keyval[];
}

/** A replacement of [start, end) of the original text. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

function scan(file: string, text: string): TomlStatement[] {
  try {
    return scanToml(text);
  } catch (e) {
    if (!(e instanceof TomlSyntaxError)) throw e;
    throw new ConfigEditError(file, `"${file}" is not valid TOML (${e.message}); fix it first`);
  }
}

function tablesOf(stmts: TomlStatement[]): Table[] {
  const out: Table[] = [{ key: [], header: null, from: -1, to: 0, keyvals: [] }];
  stmts.forEach((s, i) => {
    if (s.kind === "header") out.push({ key: s.key, header: s, from: i, to: i + 1, keyvals: [] });
    else if (s.kind === "keyval") {
      const t = out[out.length - 1]!;
      t.keyvals.push(s);
      t.to = i + 1;
    }
  });
  return out;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((p, i) => path[i] === p);
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

/** Every key path a key/value defines (an inline table's keys included). */
function* definedPaths(path: string[], v: TomlValue): Generator<string[]> {
  yield path;
  if (v.kind === "table") {
    for (const e of v.entries) yield* definedPaths([...path, ...e.key], e.value);
  }
}

/** Throws when NAME is defined outside its own table, where an edit could not follow it. */
function refuseOtherForms(file: string, tables: Table[], name: string): void {
  const own = ["mcp_servers", name];
  const refuse = (how: string): never => {
    throw new ConfigEditError(
      file,
      `"${file}" defines mcp_servers.${name} as ${how}; heimdall edits only a ` +
        `[mcp_servers.${name}] table: change it to that form or edit it by hand`,
    );
  };
  for (const t of tables) {
    if (t.header?.array && startsWith(t.key, own)) refuse("an array of tables");
    if (t.header && startsWith(t.key, own)) continue;
    for (const kv of t.keyvals) {
      for (const p of definedPaths([...t.key, ...kv.key], kv.value)) {
        if (startsWith(p, own)) {
          refuse(t.key.length === 0 ? "dotted keys" : `a key of [${t.key.join(".")}]`);
        }
      }
    }
  }
}

/**
 * Throws when a `[mcp_servers.NAME]` table cannot be added: `mcp_servers`
 * is an inline table or another value (`mcp_servers = { other = {…} }`),
 * which no table may extend, or an array of tables. Appended there, the
 * table made a file Codex cannot read at all.
 */
function refuseClosedParent(file: string, tables: Table[], name: string): void {
  const refuse = (how: string): never => {
    throw new ConfigEditError(
      file,
      `"${file}" defines mcp_servers as ${how}, which a [mcp_servers.${name}] table cannot ` +
        `extend; write its servers as [mcp_servers.NAME] tables, or add ${name}'s to it by hand`,
    );
  };
  for (const t of tables) {
    if (t.header?.array && same(t.key, ["mcp_servers"])) refuse("an array of tables");
    for (const kv of t.keyvals) {
      if (same([...t.key, ...kv.key], ["mcp_servers"])) {
        refuse(kv.value.kind === "table" ? "an inline table (mcp_servers = {…})" : "a value");
      }
    }
  }
}

function mainTables(tables: Table[], name: string): Table[] {
  return tables.filter((t) => t.header && !t.header.array && same(t.key, ["mcp_servers", name]));
}

function ownTables(tables: Table[], name: string): Table[] {
  return tables.filter((t) =>
    t.header && !t.header.array && startsWith(t.key, ["mcp_servers", name])
  );
}

function keyval(t: Table, key: readonly string[]): Keyval | undefined {
  return t.keyvals.find((kv) => same(kv.key, key));
}

function stringOf(v: TomlValue): string | null {
  return v.kind === "string" ? v.value : null;
}

function stringsOf(v: TomlValue): string[] | null {
  if (v.kind !== "array") return null;
  const out: string[] = [];
  for (const item of v.items) {
    if (item.kind !== "string") return null;
    out.push(item.value);
  }
  return out;
}

/**
 * The command and args of an existing `[mcp_servers.NAME]` table (null when
 * there is none; a key null when absent or not a string / array of strings),
 * to tell ours from someone else's. Throws {@link ConfigEditError} when the
 * text is not TOML.
 */
export function readServer(
  file: string,
  text: string | null,
  name: string,
): { command: string | null; args: string[] | null } | null {
  if (text === null) return null;
  const main = mainTables(tablesOf(scan(file, text)), name)[0];
  if (!main) return null;
  const command = keyval(main, ["command"]);
  const args = keyval(main, ["args"]);
  return {
    command: command ? stringOf(command.value) : null,
    args: args ? stringsOf(args.value) : null,
  };
}

/**
 * Edits removing the statements [from, to) of each range, with the blank
 * line before a range when what follows it is blank too or the end (the
 * blank line init adds before a table it appends), or the blank lines after
 * a range that starts the file. Ranges with only blank lines between them
 * are removed as one.
 */
function removals(stmts: TomlStatement[], ranges: [number, number][]): Edit[] {
  const blank = (i: number) => {
    const s = stmts[i];
    return s !== undefined && s.kind === "trivia" && s.blank;
  };
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    let k = last ? last[1] : -1;
    while (last && k < from && blank(k)) k++;
    if (last && k >= from) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged.map(([from, to]) => {
    if (from === 0) { while (blank(to)) to++; }
    else if (blank(from - 1) && (to >= stmts.length || blank(to))) from--;
    return { start: stmts[from]!.start, end: stmts[to - 1]!.end, text: "" };
  });
}

function applyEdits(text: string, edits: Edit[]): string {
  // From the end, so earlier offsets stay valid; at one offset the longer edit first, so an
  // insertion there is not swallowed by a removal starting there.
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Lines to insert at `at`: a newline first when `at` ends a last line that has none. */
function insertion(text: string, at: number, lines: string[], nl: string): Edit {
  const lead = at > 0 && text[at - 1] !== "\n" ? nl : "";
  return { start: at, end: at, text: lead + lines.map((l) => l + nl).join("") };
}

/**
 * The edits that set Heimdall's variables in the server's `env`, wherever
 * it is: an `[mcp_servers.NAME.env]` table, `env.KEY` dotted keys, or an
 * inline `env = { … }` (rebuilt from its entries' own text). Lines for a new
 * `env` are returned in `add` instead, to go with the table's other new keys.
 */
function envEdits(
  file: string,
  text: string,
  main: Table,
  sub: Table | undefined,
  want: Record<string, string>,
  nl: string,
): { edits: Edit[]; add: string[] } {
  const owned = [...new Set([...OWNED_ENV, ...Object.keys(want)])];
  const edits: Edit[] = [];
  const perKey = (at: (k: string) => Keyval | undefined, after: number, prefix: string) => {
    const lines: string[] = [];
    for (const k of owned) {
      const kv = at(k);
      const v = want[k];
      if (v === undefined) {
        if (kv) edits.push({ start: kv.start, end: kv.end, text: "" });
      } else if (!kv) lines.push(`${prefix}${tomlKey(k)} = ${tomlString(v)}`);
      else if (stringOf(kv.value) !== v) {
        edits.push({ start: kv.valueStart, end: kv.valueEnd, text: tomlString(v) });
      }
    }
    if (lines.length > 0) edits.push(insertion(text, after, lines, nl));
  };
  if (sub) {
    perKey((k) => keyval(sub, [k]), sub.keyvals.at(-1)?.end ?? sub.header!.end, "");
    return { edits, add: [] };
  }
  const dotted = main.keyvals.filter((kv) => kv.key.length === 2 && kv.key[0] === "env");
  if (dotted.length > 0) {
    perKey((k) => keyval(main, ["env", k]), dotted.at(-1)!.end, "env.");
    return { edits, add: [] };
  }
  const inline = keyval(main, ["env"]);
  if (!inline) {
    const env = Object.entries(want);
    return { edits, add: env.length > 0 ? [envLine(env)] : [] };
  }
  if (inline.value.kind !== "table") {
    throw new ConfigEditError(
      file,
      `"${file}" has an env in [mcp_servers] that is not a table; fix it by hand`,
    );
  }
  const placed = new Set<string>();
  const entries: string[] = [];
  for (const e of inline.value.entries) {
    const k = e.key.length === 1 && owned.includes(e.key[0]!) ? e.key[0]! : null;
    if (k === null) entries.push(e.text);
    else if (want[k] !== undefined && !placed.has(k)) {
      placed.add(k);
      entries.push(
        stringOf(e.value) === want[k] ? e.text : `${tomlKey(k)} = ${tomlString(want[k])}`,
      );
    }
  }
  for (const [k, v] of Object.entries(want)) {
    if (!placed.has(k)) entries.push(`${tomlKey(k)} = ${tomlString(v)}`);
  }
  const before = inline.value.entries.map((e) => e.text);
  if (entries.length === before.length && entries.every((e, i) => e === before[i])) {
    return { edits, add: [] };
  }
  edits.push(
    entries.length === 0
      ? { start: inline.start, end: inline.end, text: "" }
      : { start: inline.valueStart, end: inline.valueEnd, text: `{ ${entries.join(", ")} }` },
  );
  return { edits, add: [] };
}

/**
 * `text` with `[mcp_servers.NAME]` running `server`: added at the end (after
 * a blank line) when absent; otherwise only the values of `command`, `args`
 * and Heimdall's `env` variables are replaced or added, and a second
 * `[mcp_servers.NAME]` (which an older Heimdall could write) is removed.
 * Unchanged text when everything is already so. Throws
 * {@link ConfigEditError} for a file that is not TOML or that defines the
 * server in another form.
 */
export function setServer(
  file: string,
  text: string | null,
  name: string,
  server: TomlServer,
): string {
  const src = text ?? "";
  const stmts = scan(file, src);
  const tables = tablesOf(stmts);
  refuseOtherForms(file, tables, name);
  const nl = src.includes("\r\n") ? "\r\n" : "\n";
  const [main, ...again] = mainTables(tables, name);
  if (!main) {
    refuseClosedParent(file, tables, name);
    const table = serverTable(name, server, nl);
    if (src === "") return table + nl;
    return `${src}${src.endsWith("\n") ? "" : nl}${nl}${table}${nl}`;
  }
  const edits: Edit[] = removals(stmts, again.map((t) => [t.from, t.to]));
  const add: string[] = [];
  let after = main.header!.end;
  const owned = [
    ["command", server.command, tomlString(server.command), stringOf],
    ["args", server.args, tomlArgs(server.args), stringsOf],
  ] as const;
  for (const [k, want, valueText, read] of owned) {
    const kv = keyval(main, [k]);
    if (!kv) {
      add.push(`${k} = ${valueText}`);
      continue;
    }
    after = Math.max(after, kv.end);
    if (JSON.stringify(read(kv.value)) !== JSON.stringify(want)) {
      edits.push({ start: kv.valueStart, end: kv.valueEnd, text: valueText });
    }
  }
  const sub = tables.find((t) =>
    t.header && !t.header.array && same(t.key, ["mcp_servers", name, "env"])
  );
  const env = envEdits(file, src, main, sub, server.env, nl);
  edits.push(...env.edits);
  add.push(...env.add);
  if (add.length > 0) edits.push(insertion(src, after, add, nl));
  return applyEdits(src, edits);
}

/**
 * `text` without `[mcp_servers.NAME]` and its sub-tables (their keys and
 * comments among them included; the comments and blank lines after their
 * last key are not theirs and stay); unchanged when absent. Throws
 * {@link ConfigEditError} like {@link setServer}.
 */
export function removeServer(file: string, text: string | null, name: string): string | null {
  if (text === null) return null;
  const stmts = scan(file, text);
  const tables = tablesOf(stmts);
  refuseOtherForms(file, tables, name);
  const own = ownTables(tables, name);
  if (own.length === 0) return text;
  const out = applyEdits(text, removals(stmts, own.map((t) => [t.from, t.to])));
  return out.trim() === "" ? "" : out;
}
