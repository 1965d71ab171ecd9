/**
 * Reading and writing the JSON config files of harnesses without losing
 * anything: strict JSON only (a file with comments is refused, never
 * rewritten without them); written back through `json_text.ts`, so every
 * value keeps its exact text (large numbers included) and only the objects
 * and arrays that gain or lose members are laid out again, in the file's
 * own indentation; a trailing newline kept.
 */
import { editJsonText, JsonDuplicateKeyError } from "./json_text.ts";

/** A config file that cannot be edited safely; the message says what to do by hand. */
export class ConfigEditError extends Error {
  constructor(readonly file: string, message: string) {
    super(message);
    this.name = "ConfigEditError";
  }
}

/** A parsed JSON object file and how it was laid out. */
export interface JsonDoc {
  file: string;
  /** The value to edit in place. */
  value: Record<string, unknown>;
  indent: string | number;
  /** The text it was read from (its byte-order mark aside); null for an absent or blank file. */
  text: string | null;
  /** It began with a byte-order mark (Windows editors write one), kept when it is written back. */
  bom?: boolean;
}

/** Removes `//` and `/* *\/` comments outside strings (to tell "has comments" from "broken"). */
export function stripJsonComments(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      i += 2;
      while (i < text.length && !(text[i] === "*" && text[i + 1] === "/")) i++;
      i++;
    } else out += c;
  }
  return out;
}

/**
 * Parses a config file's text (null or blank: an empty object). A leading
 * byte-order mark is no part of the JSON (Notepad and other Windows editors
 * write one; the harness reads past it). Throws {@link ConfigEditError} for
 * comments, trailing commas, invalid JSON or a top level that is not an
 * object.
 */
export function parseJsonDoc(file: string, read: string | null): JsonDoc {
  const bom = read?.startsWith("\uFEFF") ?? false;
  const text = bom ? read!.slice(1) : read;
  if (text === null || text.trim() === "") {
    return { file, value: {}, indent: 2, text: null, ...(bom ? { bom } : {}) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    let commented = false;
    try {
      JSON.parse(stripJsonComments(text));
      commented = true;
    } catch { /* broken, not merely commented */ }
    throw new ConfigEditError(
      file,
      commented
        ? `"${file}" has comments; heimdall will not rewrite it (they would be lost)`
        : `"${file}" is not valid JSON (${(e as Error).message}); fix it first`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigEditError(file, `"${file}" does not hold a JSON object; fix it first`);
  }
  const m = /^\{\s*\n([ \t]+)"/.exec(text);
  const indent = m ? (m[1]!.includes("\t") ? "\t" : m[1]!.length) : 2;
  return { file, value: value as Record<string, unknown>, indent, text, ...(bom ? { bom } : {}) };
}

/**
 * The text of a JSON document after its value was edited: the text it was
 * read from with only what changed written anew (a new file: the value with
 * two-space indentation). Throws {@link ConfigEditError} when an object that
 * changed has a key twice (which one counts is not Heimdall's to pick).
 */
export function formatJsonDoc(doc: JsonDoc): string {
  const mark = doc.bom ? "\uFEFF" : "";
  if (doc.text === null) return mark + JSON.stringify(doc.value, null, doc.indent) + "\n";
  try {
    return mark + editJsonText(doc.text, JSON.parse(doc.text), doc.value, doc.indent);
  } catch (e) {
    if (!(e instanceof JsonDuplicateKeyError)) throw e;
    throw new ConfigEditError(
      doc.file,
      `"${doc.file}" has the key ${JSON.stringify(e.key)} twice in one object; ` +
        `remove one (heimdall will not guess which counts)`,
    );
  }
}
