/**
 * Reading and writing the JSON config files of harnesses without losing
 * anything: strict JSON only (a file with comments is refused, never
 * rewritten without them), the file's own indentation kept, a trailing
 * newline kept.
 */

/** A config file that cannot be edited safely; the message says what to do by hand. */
export class ConfigEditError extends Error {
  constructor(readonly file: string, message: string) {
    super(message);
    this.name = "ConfigEditError";
  }
}

/** A parsed JSON object file and how it was laid out. */
export interface JsonDoc {
  value: Record<string, unknown>;
  indent: string | number;
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
 * Parses a config file's text (null or blank: an empty object). Throws
 * {@link ConfigEditError} for comments, trailing commas, invalid JSON or a
 * top level that is not an object.
 */
export function parseJsonDoc(file: string, text: string | null): JsonDoc {
  if (text === null || text.trim() === "") return { value: {}, indent: 2 };
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
  return { value: value as Record<string, unknown>, indent };
}

/** The text of a JSON document, laid out as it was. */
export function formatJsonDoc(doc: JsonDoc): string {
  return JSON.stringify(doc.value, null, doc.indent) + "\n";
}
