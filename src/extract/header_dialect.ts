/**
 * Which grammar reads a C header. `.h` is C by its name, but most headers of
 * C++ projects (abseil, protobuf, googletest…) are `.h` too: read with the C
 * grammar, their classes, templates and inline methods are lost (on the
 * benchmark corpus, 2,700 of the 3,550 definitions Universal Ctags finds in
 * C files and Heimdall missed were in such headers).
 *
 * Returns `"cpp"` when a `.h` file (language `c`) has a construct that only
 * C++ has at the start of a line: `namespace x {`, `template <`, `class X`
 * followed by `{`, `:` or `;`, `struct X : Base`, an access specifier (`public:`), `using`, an
 * `#include` of an extensionless standard header (`<string>`), or
 * `extern "C++"`; otherwise the language it was given. One regular
 * expression pass over the text; a C header that merely mentions these
 * words in a comment may be read as C++, which parses C nearly alike.
 */
export function grammarLanguage(path: string, language: string, text: string): string {
  if (language !== "c" || !path.endsWith(".h")) return language;
  return CPP_ONLY.test(text) ? "cpp" : language;
}

const CPP_ONLY = new RegExp(
  [
    String.raw`^[ \t]*namespace(?:[ \t]+[\w:]+)?[ \t]*\{`,
    String.raw`^[ \t]*template[ \t]*<`,
    String.raw`^[ \t]*class[ \t]+(?:\w+[ \t]+)*\w+[ \t]*(?:final[ \t]*)?(?::[^:]|\{|;)`,
    String.raw`^[ \t]*struct[ \t]+(?:\w+[ \t]+)*\w+[ \t]*(?:final[ \t]*)?:[^:]`,
    String.raw`^[ \t]*(?:public|private|protected)[ \t]*:`,
    String.raw`^[ \t]*using[ \t]+(?:namespace[ \t]+)?[\w:]+[ \t]*[;=]`,
    String.raw`^[ \t]*#[ \t]*include[ \t]*<[a-z_]+>`,
    String.raw`^[ \t]*extern[ \t]+"C\+\+"`,
  ].join("|"),
  "m",
);
