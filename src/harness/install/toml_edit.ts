/**
 * A careful edit of Codex's `config.toml` (pure): only the
 * `[mcp_servers.heimdall]` table (and its sub-tables) is written, replaced
 * or removed; every other byte of the file stays as it was. A file that
 * defines `heimdall` some other way (dotted keys, an inline table) is refused
 * rather than guessed at.
 */
import { ConfigEditError } from "./json_file.ts";

/** What the MCP table says. */
export interface TomlServer {
  command: string;
  args: string[];
  env: Record<string, string>;
}

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

/** The table's text. */
export function serverTable(name: string, s: TomlServer): string {
  const lines = [
    `[mcp_servers.${name}]`,
    `command = ${tomlString(s.command)}`,
    `args = [${s.args.map(tomlString).join(", ")}]`,
  ];
  const env = Object.entries(s.env);
  if (env.length > 0) {
    lines.push(
      `env = { ${
        env.map(([k, v]) => `${/^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k)} = ${tomlString(v)}`)
          .join(", ")
      } }`,
    );
  }
  return lines.join("\n");
}

interface Line {
  text: string;
  /** The dotted name of the table this line is the header of, or null. */
  header: string | null;
}

/** Splits into lines, marking table headers outside multi-line strings. */
function scan(text: string): Line[] {
  const out: Line[] = [];
  let inMulti: '"""' | "'''" | null = null;
  for (const text_ of text.split("\n")) {
    let header: string | null = null;
    if (inMulti === null) {
      const m = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(text_);
      if (m) {
        header = m[1]!.split(".").map((p) => p.trim().replace(/^"(.*)"$|^'(.*)'$/, "$1$2")).join(
          ".",
        );
      }
    }
    for (const q of ['"""', "'''"] as const) {
      let at = text_.indexOf(q);
      while (at >= 0) {
        if (inMulti === null) inMulti = q;
        else if (inMulti === q) inMulti = null;
        at = text_.indexOf(q, at + 3);
      }
    }
    out.push({ text: text_, header });
  }
  return out;
}

/** Line ranges [start, end) of `mcp_servers.NAME` and its sub-tables. */
function sections(lines: Line[], name: string): [number, number][] {
  const own = `mcp_servers.${name}`;
  const out: [number, number][] = [];
  for (let i = 0; i < lines.length; i++) {
    const h = lines[i]!.header;
    if (h === null || (h !== own && !h.startsWith(own + "."))) continue;
    let end = i + 1;
    while (end < lines.length && lines[end]!.header === null) end++;
    out.push([i, end]);
    i = end - 1;
  }
  return out;
}

/** Throws when NAME is defined outside its own table, where a line edit could not follow it. */
function refuseOtherForms(file: string, lines: Line[], name: string): void {
  let table = "";
  for (const l of lines) {
    if (l.header !== null) {
      table = l.header;
      continue;
    }
    const key = /^\s*([A-Za-z0-9_."'-]+)\s*=/.exec(l.text)?.[1]?.replaceAll('"', "").replaceAll(
      "'",
      "",
    );
    if (!key) continue;
    const full = table === "" ? key : `${table}.${key}`;
    if (full === `mcp_servers.${name}` || full.startsWith(`mcp_servers.${name}.`)) {
      if (table === `mcp_servers.${name}` || table.startsWith(`mcp_servers.${name}.`)) continue;
      throw new ConfigEditError(
        file,
        `"${file}" defines mcp_servers.${name} as ${
          table === "" ? "dotted keys" : `a key of [${table}]`
        }; ` +
          `heimdall edits only a [mcp_servers.${name}] table: change it to that form or edit it by hand`,
      );
    }
  }
}

/** The command and args of an existing table, to tell ours from someone else's. */
export function readServer(
  text: string | null,
  name: string,
): { command: string | null; args: string } | null {
  if (text === null) return null;
  const lines = scan(text);
  const s = sections(lines, name)[0];
  if (!s) return null;
  const body = lines.slice(s[0] + 1, s[1]).map((l) => l.text).join("\n");
  return {
    command: /^\s*command\s*=\s*"((?:[^"\\]|\\.)*)"/m.exec(body)?.[1] ?? null,
    args: /^\s*args\s*=\s*(\[.*\])/m.exec(body)?.[1] ?? "",
  };
}

/** `text` with `[mcp_servers.NAME]` set to `server` (added at the end when absent). */
export function setServer(
  file: string,
  text: string | null,
  name: string,
  server: TomlServer,
): string {
  const src = text ?? "";
  const lines = scan(src);
  refuseOtherForms(file, lines, name);
  const table = serverTable(name, server);
  const found = sections(lines, name);
  if (found.length === 0) {
    const base = src.replace(/\s*$/, "");
    return base === "" ? table + "\n" : `${base}\n\n${table}\n`;
  }
  const [first] = found;
  const keep = lines.map((l) => l.text);
  // Replace the first section with the table (keeping the blank lines that followed it), drop the rest.
  const drop = new Set<number>();
  for (const [s, e] of found) for (let i = s; i < e; i++) drop.add(i);
  const out: string[] = [];
  for (let i = 0; i < keep.length; i++) {
    if (i === first![0]) {
      out.push(...table.split("\n"));
      let e = first![1];
      while (e > first![0] + 1 && keep[e - 1]!.trim() === "") e--;
      for (let k = e; k < first![1]; k++) out.push(keep[k]!);
    }
    if (!drop.has(i)) out.push(keep[i]!);
  }
  return out.join("\n");
}

/** `text` without `[mcp_servers.NAME]` and its sub-tables; unchanged when absent. */
export function removeServer(file: string, text: string | null, name: string): string | null {
  if (text === null) return null;
  const lines = scan(text);
  refuseOtherForms(file, lines, name);
  const found = sections(lines, name);
  if (found.length === 0) return text;
  const drop = new Set<number>();
  for (const [s, e] of found) for (let i = s; i < e; i++) drop.add(i);
  const kept = lines.map((l) => l.text).filter((_, i) => !drop.has(i));
  // Collapse the blank lines left where the table was.
  const out: string[] = [];
  for (const l of kept) {
    if (l.trim() === "" && out.length > 0 && out[out.length - 1]!.trim() === "") continue;
    out.push(l);
  }
  while (out.length > 0 && out[0]!.trim() === "") out.shift();
  const joined = out.join("\n").replace(/\n*$/, "");
  return joined === "" ? "" : joined + "\n";
}
