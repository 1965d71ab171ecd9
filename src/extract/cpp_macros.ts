/**
 * C++ libraries put an export or attribute macro between `class` and the
 * class's name (`class YAML_CPP_API Emitter {`, `struct LEVELDB_EXPORT
 * Options {`, `class PROTOBUF_EXPORT Arena final {`). The preprocessor makes
 * it vanish; tree-sitter, which has none, reads the macro as the class's name
 * and the rest as an error, and the class and every member declared in it
 * are lost (yaml-cpp's `Emitter`, `Node` and `Parser` were).
 */

/**
 * The text with each such macro replaced by as many spaces (pure): the same
 * length, lines and offsets, so every position the parser reports holds in
 * the original text. A macro is one or more ALL-CAPS identifiers (two
 * characters or more, digits and `_` allowed) after `class`, `struct` or
 * `union` and before the name, which is followed by `final`, a base list,
 * a body or `;`. The same words in a comment or a string are blanked too,
 * which changes nothing kept: what the index reads (signatures, doc
 * comments, literals) is sliced from the original text.
 *
 * @example
 * ```ts
 * import { blankExportMacros } from "./cpp_macros.ts";
 * import assert from "node:assert/strict";
 * assert.equal(blankExportMacros("class YAML_CPP_API Emitter {"), "class              Emitter {");
 * assert.equal(blankExportMacros("class Emitter {"), "class Emitter {");
 * ```
 */
export function blankExportMacros(text: string): string {
  if (!MAYBE.test(text)) return text;
  return text.replace(
    MACRO_BEFORE_NAME,
    (_all, head: string, macros: string) => head + " ".repeat(macros.length),
  );
}

/** A cheap test first: most files have no class of this shape. */
const MAYBE = /\b(?:class|struct|union)[ \t]+[A-Z][A-Z0-9_]+[ \t]+[A-Za-z_]/;

const MACRO_BEFORE_NAME =
  /\b((?:class|struct|union)[ \t]+)((?:[A-Z][A-Z0-9_]+[ \t]+)+)(?=[A-Za-z_]\w*[ \t]*(?:final\b[ \t]*)?(?::(?!:)|\{|;|\r?\n|$))/gm;
