/**
 * Which version of the code derived a file's rows: the extractor and chunker
 * (`base`), the structural hash (`structHash`) and each language's queries.
 * Every path row stores the string {@link derivationOf} gives for its
 * language; when a release changes one of these, the next audit re-derives
 * exactly the rows whose string differs, and leaves every other file alone.
 *
 * Bump `base` when the extractor core, the chunker or the row layout change
 * what a file yields; `STRUCT_HASH_VERSION` when struct hashes change; a
 * language's entry when its query file changes.
 */
import { STRUCT_HASH_VERSION } from "./struct_hash.ts";

/** The versions behind a derivation string (plain data: it travels to prepare Workers). */
export interface DerivationVersions {
  /** The extractor core, chunker and row layout. */
  base: number;
  /** The structural hash (`STRUCT_HASH_VERSION`). */
  structHash: number;
  /** Per language id; a language not listed is at 0. */
  languages: Readonly<Record<string, number>>;
  /**
   * True when rows include what documented symbols teach the learned
   * vocabulary (config `vocabularyWeight` above 0); turning it on or off
   * re-derives every file.
   */
  vocabulary?: boolean;
}

/** This build's versions. Rows indexed before versions were stored count as "1.1.0". */
export const DERIVATION: DerivationVersions = {
  // 2: call references carry their receiver (`Type.m`, `self.m`) and the
  // resolver never guesses; every language's symbols and secret screen changed.
  // 3: one reference row per symbol and target (repeats of a call dropped).
  // 4: a line longer than a chunk or window is cut into several (all of it
  // indexed, windows still bounded), and a prose chunk is indexed whole (9,000);
  // in the same version, a parameter or variable shadows an import or a
  // function of its name (`def f(config): config.load()`, `cb()` of a
  // parameter `cb`): its calls are made on an unknown receiver.
  // 5: text behind a UTF-16 byte order mark is text (was binary), and a file
  // with no UTF-8 beyond ASCII is read as Windows-1252 (was U+FFFD): see
  // files/decode.ts.
  // 6: scripts written without spaces (Chinese, Japanese, Korean, Thai, …)
  // indexed as overlapping pairs of characters, so a word inside a sentence
  // is found, and a combining mark (Devanagari's vowel signs) kept inside
  // its word and dropped, not a cut between letters (derive/words.ts).
  // 7: of two symbols of one qualified name (`mod parse;` and `fn parse`,
  // `namespace Shop;` and `class Shop`), what lies in the lines of one is
  // its own: the calls inside `fn parse` were the module's.
  // 8: a code file's own text past its file chunk (a script's commands
  // around its one function) is indexed in windows, as an L1 file's is.
  base: 8,
  structHash: STRUCT_HASH_VERSION,
  languages: {
    // 1: C++ read with its export macros blanked (`class LIB_API Emitter {`);
    // C too, for its headers written in C++. 2: GoogleTest tests named
    // `Suite.Name`, not after their macro. 3: a syntax error inside a
    // function's body no longer marks the function partial; 4: nor inside a
    // class's or a struct's; 5: annotation macros after a declaration
    // (`EXCLUSIVE_LOCKS_REQUIRED(mu)`, `GUARDED_BY(mu)`) blanked; 6: C too,
    // and linkage macros before a return type (`LUA_API int f(…)`) and
    // attributes after a parameter (`UNUSED_PARAM`). cpp 7: a call says how
    // many arguments it passes (overloads told apart). c 7: re-derived so
    // that a C++ header's inline methods (`.h`, language c) call their own
    // class's methods, bare or through `this`, as a `.cpp` file's do.
    // c and cpp 9: a prototype (`int f(int);`) is no second definition of
    // f: calls land on its definition elsewhere (they had none, ambiguous).
    // c and cpp 10: re-derived so that `util::clamp(x)` lands on namespace
    // util's function when a header and a source both open it (it was
    // pending), never on another source file's `static` function.
    // c and cpp 11, csharp 11, go 2, python 11, javascript 13, typescript
    // and tsx 14, rust 8, php 7, ruby 7, bash 1: re-derived so that a bare
    // call never lands, by a name unique in the repository (or package, or
    // the scripts' globals), on a definition inside a function, a method or a
    // value: a closure (`function mount() { function paint() … }`), a class
    // local to a function, a method of `Point = Struct.new do def norm`.
    // c and cpp 12, csharp 12, go 3, java 5, python 12, javascript 14,
    // typescript and tsx 15, rust 9, php 8, ruby 8, bash 2: re-derived so
    // that a class nested in another (`class Preloader; class Association`)
    // is found by its bare name only from inside it, and in Ruby a module's
    // class only from inside the module: `class Cart < Association` landed
    // on Preloader's Association, the one of that name in the repository.
    // c and cpp 13, csharp 13, java 6, python 13, javascript 15, typescript
    // and tsx 16, rust 10, php 9, ruby 9: re-derived so that a qualified
    // base (`class Date < ActiveModel::Type::Date`, `: ui::Frame`) is the
    // class its path names: it was the class of its last name in the file
    // (the class itself) or in the repository (`Json < ActiveModel::Type::Value`
    // on the one `Value` there, of another module).
    // c and cpp 14: the C library's math (`log`, `sqrt`, `pow`…), the rest
    // of stdio, stdlib, string, ctype and time, and common POSIX calls
    // (`fileno`, `fork`, `socket`, `pthread_create`…) are builtins: a
    // function of the repository so named (a logging `log`) never answers.
    // c and cpp 15, csharp 15, go 4, java 9, python 15, javascript 17,
    // typescript and tsx 18, rust 11, php 10, ruby 10, bash 3: re-derived so
    // that a base named bare is, of its file's definitions so named, one the
    // class sees, the one nested deepest around it: `class Firm < Company`
    // outside module Namespaced took `Namespaced::Company`, the later one.
    // c and cpp 16, csharp 16, go 5, java 10, python 17, javascript 18,
    // typescript and tsx 19, rust 12, php 11, ruby 12, bash 4: re-derived so
    // that a receiver's class (`b = new Brush(); b.stroke()`) is never one
    // declared inside a function of another file (mount's own Brush).
    // c and cpp 17, csharp 18: a conditional whose every branch is
    // brace-neutral (`#ifdef HAVE_X` `, public Mixin` `#endif` in a base
    // list, `#if`/`#else` around members) is read with its directive lines
    // blanked when that leaves less of the file in error: the class is no
    // longer partial, nor its members lost to an error (csharp 17 blanked
    // every conditional, and kept the parse with fewer error nodes).
    // c and cpp 18, csharp 19: in a file whose braces balance, every
    // conditional is so read (one `#if` opens a block a later one closes:
    // Newtonsoft.Json's JValue.Compare, which left the class's later
    // methods outside it again).
    // c and cpp 19, csharp 20: a file still more than 5% in error so is
    // read a third time, with only each conditional's first branch (an `#if
    // 0`'s `#else`), when less of it is then in error: curl's url.c, whose
    // branches each open a block, was one error (every function partial).
    // In the same version C's macros alone on their line, calling
    // conventions (`ZEXPORT`), lower-case storage macros (zlib's `local`) and
    // wrapped prototype lists (`OF((…))`) are blanked for the parser, and
    // POSIX's networking names are builtins.
    // c 20: a K&R definition (`int deflate(strm, flush) z_streamp strm; …`)
    // is no prototype (store/prototype.ts): calls from other files land on
    // it, no longer on a `#define` of its name, and `callers` names it.
    // c 21, cpp 20: a 16-bit pointer's `FAR` or `NEAR` between a
    // declaration's words is blanked (zlib's `const unsigned char FAR *buf;`
    // left its K&R definitions partial).
    // c 22, cpp 21: a prototype inside an include guard or another
    // conditional, `extern "C" {…}` or a C++ namespace is a symbol, as one
    // at file level was: a header's API and its documentation (curl's
    // `curl_easy_setopt`, leveldb's `NewLRUCache`) were no symbols at all.
    // In the same version a linkage macro before a declaration (`LUA_API
    // int lua_gettop(…)`) no longer parts it from its doc comment.
    c: 22,
    cpp: 21,
    // 1: a parameter (a delegate) shadows a method or function of its name.
    // 2: a call says how many arguments it passes (overloads told apart).
    // 5: a partial class's members are found in its other parts' files.
    // 6: a property that runs code (`int Area => …`, `get { … }`) is a symbol.
    // 7: a local named like a type no longer hides the type (`Pen pen` with a
    // local `Pen`: `pen.Write()` lands on Pen.Write again).
    // 8: a file-scoped namespace (`namespace Acme.Fs;`) holds the rest of
    // its file (`Acme.Fs.Disk`, was `Disk`), and a bare call may be a static
    // method of a type imported with `using static Acme.Fs.Disk;`.
    // 9: re-derived so that `P.Join()` and `new P()` after `using P =
    // Acme.Util.Paths;` land on Paths, wherever its file lies (pending).
    // 10: re-derived so that of classes of one name in several namespaces,
    // `new Store()`, `Store.Open()` and `s.Get()` of a `Store s` land on the
    // one the file's namespaces and `using`s see (they stayed pending).
    // 14: re-derived so that `new Timer()`, `Path.Combine()`, `List<T>`…
    // (the types of the SDK's implicit usings) land on a class of the
    // repository so named only where its namespace is seen.
    // 17: a conditional directive inside a declaration's head (`#if` around
    // a base, Newtonsoft.Json's JValue) no longer breaks the class: its
    // methods are its own (they were functions of the namespace), its
    // explicit interface members named by the member, not the interface.
    csharp: 20,
    // go 1: a file's node holds its package clause (`package store`), and a
    // bare name is looked up in the files of its folder that name its
    // package: an external test (`package store_test`) or a generator kept
    // out of the build (`package main`) saw the package's unexported names,
    // and made its own namesakes ambiguous; nor is an external test imported.
    // go 6: a grouped `var ( ErrClosed = … )` block's names are symbols, as
    // a lone `var`'s are (the grammar lists them one level deeper).
    go: 6,
    // 1: a call says how many arguments it passes (overloads told apart).
    // 2: re-derived so that a static import (`import static a.Util.helper`)
    // and its calls land on Util's member, not on a namesake of the package.
    // java 4: an anonymous class (`new Runnable() { … }`) is a class named
    // `new`, so a bare call in it lands on its own method before its outer
    // class's (`stop()` was Timer's stop beside the anonymous class's own).
    // java 7: re-derived so that an import of a class of a package found in
    // several folders (guava's `guava/src/…` and its copy `android/guava/src/…`)
    // lands on the copy nearest the importer, and on none when two are as near
    // (it landed on whichever came first: guava's Longs on android's checkNotNull).
    // java 8: re-derived so that a base or an interface named bare
    // (`extends AbstractList` under `import java.util.*`) is a class of the
    // file's package (its folder) or none: it was the one class of its name
    // anywhere in the repository.
    java: 10,
    // 1 (each): an aliased import says what it imports (`from m import a as
    // b`, `import { a as b }`, `use m::a as b`), so calls of `b` land on `a`;
    // for rust also, re-derived so that a workspace member's `crate::` paths,
    // pending since they were read from the root's src/, resolve again.
    // rust 2: re-derived so that paths into another crate of the workspace
    // by its name (`use text_util::shout`), pending until now, resolve.
    // typescript and tsx 2, python 2: overload signatures (`@overload` stubs)
    // fold into the function they declare (captures.ts foldOverloads), so
    // its calls land on it and its name names one symbol. python 3: `x =
    // cls()` in a classmethod is an instance of the class (`x.m()` is `cls.m()`).
    // python 4, javascript 2, typescript and tsx 3, csharp 3: what a name
    // bound in the definition or a function around it builds (`Car = Dog; c
    // = Car()`, a parameter `Car`, `new Car().m()`) has no type, and a
    // closure's call of its enclosing function's parameter is no call of
    // the import or function of its name. python 5: unpacking (`a, b = …`),
    // a comprehension's variables and `:=` bind names; javascript 3,
    // typescript and tsx 4: so does destructuring (`const { a } = o`,
    // `function f({ a })`): calls of them are made on an unknown receiver.
    // javascript 4, typescript and tsx 5: a re-export under an alias
    // (`export { a as b } from "m"`) passes on `b`, which is `a`.
    // python 6, javascript 5, typescript and tsx 6, rust 3, php 2: re-derived
    // so that a base named by an alias (`class User(Model)` after `from .base
    // import Base as Model`, `extends Model`, `impl T for X`) is what it imports.
    // javascript 6, typescript and tsx 7: `this` inside a `function` or an
    // object literal's method (not an arrow) is no longer the class's.
    // python 7, javascript 7, typescript and tsx 8, java 3, rust 4, csharp 4,
    // cpp 8, c 8, php 3, ruby 1: re-derived so that a receiver of a class
    // named in a namespace, module, class or function (`Store` in `namespace
    // inner`) is the class declared there, not a top-level namesake.
    // javascript 8, typescript and tsx 9: `exports.helper = helper` is no
    // second definition of helper (its calls land on the function).
    // javascript 9, typescript and tsx 10: a default import (`import d from
    // "m"`) is m's `export default` definition, whatever it is named.
    // javascript 10, typescript and tsx 11: re-derived so that the
    // platform's globals (`requestAnimationFrame`, `performance`, `crypto`…)
    // never land on a namesake another file defines.
    // python 8, javascript 11, typescript and tsx 12: `db.session()` after
    // `from app import db` or `import { db } from "./lib"` is a call on an
    // object the module defines, never the module's own function `session`
    // (`import a.b as s` binds the module whole: `s.f()` is still its `f`).
    // python 9 (rust 6): re-derived so that a call through `from pkg import
    // models` (`use crate::db`) beside another import from that module lands
    // whichever file was indexed first (it stayed pending).
    // python 10: `self` and `cls` are the class only as a method's first
    // parameter (or one a nested function closes over), never in a
    // `@staticmethod` (`def parse(self, text): self.open()` landed on the
    // class's open) nor where no parameter binds them.
    // python 14: `c = cls()` in a `@staticmethod cls` (or where no
    // parameter binds `cls`) is no instance of the class: `c.open()` landed
    // on its open.
    // python 16: re-derived so that `_private()` after `from m import *` is
    // no call of m's `_private`, which a star import never passes on.
    // python 18: a comment in a method's parameter list (`def get(  # type:
    // ignore[override]`) is no parameter: its `self` is the class again
    // (since 10, requests' `self._find_no_duplicates()` stayed pending).
    // python 19: `__all__ = [...]` (or a tuple, or `+=`) is a symbol whose
    // signature lists its names: `from m import *` brings only those, no
    // other public function of m nor a name m imports.
    // python 20: re-derived so that `_private()` after `from m import *`
    // lands on m's `_private` when m's `__all__` lists it.
    // python 21: an `__all__` also built otherwise (`+= core.__all__`,
    // `__all__.extend(…)`) is read as no list: every public name passes on
    // (only the written part did, the rest of the calls stayed pending).
    // python 22: an UPPER_CASE assignment under a module-level `if`, `try`
    // or `with` is a constant, as one at the top is (`if sys.platform ==
    // "win32": SEP = "\\"`); in a function or a class it is none.
    python: 22,
    // javascript 12, typescript and tsx 13: a bare call of a script lands
    // only on another script's function, never a module's own (`expect()`
    // in a test file on a module's `export function expect`).
    // javascript 16, typescript and tsx 17: a variable bound at a file's top,
    // or in the IIFE that wraps a script (`var keys = nativeKeys;`), is what
    // its functions call by that name: lodash's core.js `keys(o)` landed on
    // lodash.js's function keys.
    // javascript 19, typescript and tsx 20: a definition inside a function
    // that is no symbol (a script's IIFE, a callback) is marked `scoped`:
    // another file's bare call of its name no longer lands on it.
    // javascript 20, typescript and tsx 21: a module-level `var` or `let`
    // with a value, exported or not, is a variable, as a `const` is a
    // constant: lodash's `var camelCase = createCompounder(…)`, its file's
    // one definition, was no symbol.
    javascript: 20,
    typescript: 21,
    tsx: 21,
    // rust 5: only a constructor by Rust's naming conventions (`new`,
    // `new_*`, `with_*`, `default`, `from`) says what it returns: `let b =
    // Request::builder(); b.body()` is no call of Request's body.
    // rust 7: `POOL.session()` after `use crate::db::POOL` is a call on the
    // static, never db.rs's own function `session`.
    rust: 12,
    // php 1: an aliased use (`use A\B as C`, `use A\{B as C}`) says what it
    // imports, so `C::make()` and `new C()` land on B (the alias was looked
    // up in B's namespace and the import pointed at one of its files).
    // php 4: a `namespace X;` statement is a module symbol and a qualified
    // name is kept whole (`\B\foo()`), so a name no `use` binds is read in
    // the caller's namespace, never landing on a namesake of another.
    // php 5: re-derived so that a class a call names (`Foo::make()`,
    // `\B\Foo::make()`, `$x->go()` after `$x = new Foo`) is read so too.
    // php 6: re-derived so that a name a `use` binds is the definition its
    // namespace declares wherever its file lies (it was looked up by folder:
    // pending in a flat layout, another namespace's in a folder of its name).
    php: 11,
    // ruby 2: a call without parentheses (`helper`, `x = compute`) is a
    // call where no local variable or parameter of its name is bound; one
    // with them (`count(1)`) calls the method whatever local is so named.
    // 3: re-derived so that a call of a method named with `!` (`save!`) lands
    // on it (it was read as a Rust macro's call, which only a macro answers).
    // 4: a name a splat, a nested assignment or a pattern binds (`a, *rest =
    // x`, `in Integer => n`) is a variable, no call of a method of its name.
    // 5: `attr_reader :name` and `attr_accessor :name` define a method
    // `name` of the class, which a bare `name` in it calls (it landed on a
    // top-level `def name` of another file).
    // 6: re-derived so that Kernel's `warn`, `system`, `open`… never land on
    // a top-level namesake of another file.
    // ruby 11: re-derived so that a singleton method (`def self.sh` in a
    // `Module.new do … end` block) is no function a bare call of another
    // file lands on: every Rakefile's `sh` landed on railties' test helper.
    ruby: 12,
    bash: 4,
    // 1: a rule line (`----` below another rule, `===` alone) is never a heading.
    // 2: nor a heading without a word (`#`, `### ###`), nor a table above an `===` row.
    // 3: nor a heading inside an HTML comment; 4: nor a line continuing a list item or quote.
    // 5: the file's summary without a heading's marks (`# Title #`).
    // 6: nor a `#` line inside TOML front matter (`+++`, Hugo's). 7: a title
    // as a reader sees it (badges dropped, links by their text, no tags).
    // 8: nor a line inside an HTML block (`<pre>` to `</pre>`, `<div>` to a blank line).
    // 9: a title without emphasis marks, backslash escapes or a trailing `{#id}`.
    markdown: 9,
    // 1 (each): the summary skips roff markup (man), drops `= ` (asciidoc) and
    // `#+TITLE:` (org), and ends a line at a lone carriage return (text).
    // man 2: a generated page's macro preamble (pod2man's `.rr`, `\{`; rst2man's
    // `.de1`; groff's `\#` comments, `.als`, `.mso`, `.ds` carried on past a
    // line's end) shows nothing, so it is no chunk. 3: `\FI` (a font family, as
    // DocBook upper-cases `\fI` in a title) is dropped, not read as text.
    man: 3,
    // rst 1: a title as a reader sees it (`:mod:` roles, links, literals unwrapped).
    // rst 2: nor backslash escapes (`open\_basedir`), nor a role's `~` or `.` prefix.
    rst: 2,
    // asciidoc 2: a title shows a link or a cross reference by its text.
    asciidoc: 2,
    // org 2: a headline shows a link by its description, code by its text.
    org: 2,
    // text 2: a command or code between two rules (`-----`/`$ make`/`-----`), one under a rule
    // shorter than itself, or an indented one, is no title. 3: a `.txt` file that opens with
    // `= Title` and has a `== Section`, or a mail of `Content-type: text/asciidoc`, is AsciiDoc.
    text: 3,
  },
};

/**
 * The derivation string of a file of `language` (null for a file with
 * none): `base.structHash.languageVersion`, and `+v` when the rows teach the
 * learned vocabulary (pure).
 *
 * @example
 * ```ts
 * import { derivationOf } from "./derivation.ts";
 * const v = { base: 1, structHash: 1, languages: { python: 2 } };
 * console.assert(derivationOf("python", v) === "1.1.2");
 * console.assert(derivationOf(null, v) === "1.1.0");
 * ```
 */
export function derivationOf(
  language: string | null | undefined,
  versions: DerivationVersions = DERIVATION,
): string {
  return `${versions.base}.${versions.structHash}.${
    language ? versions.languages[language] ?? 0 : 0
  }${versions.vocabulary ? "+v" : ""}`;
}

/** What a row stored before versions were recorded was derived by. */
export const LEGACY_DERIVATION = "1.1.0";

/**
 * True when a row's stored derivation (null or absent: {@link LEGACY_DERIVATION})
 * is `want`, i.e. this build would derive the same rows from the same bytes (pure).
 */
export function derivedBy(stored: string | null | undefined, want: string): boolean {
  return (stored ?? LEGACY_DERIVATION) === want;
}
