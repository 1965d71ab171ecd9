/**
 * Measures how many of the definitions a reader expects Heimdall extracts,
 * with Universal Ctags as the reference: for each of the 13 languages of the
 * benchmark corpus (built by `scripts/bench_corpus.ts`, cached under
 * /tmp/heimdall-corpus), the share of ctags' function, method and class-like
 * definitions (struct, interface, trait, enum, union, module…; the kinds are
 * listed per language in {@link COMPARED}) that Heimdall also extracts, and a
 * sample of the ones it misses.
 *
 * A ctags tag counts as found when Heimdall has a symbol of the same name
 * (or whose last `.`/`::` segment is that name; a JavaScript class assigned
 * as `X.Y = class Z` may be named `Z`) in the same file whose range holds
 * the tag's line, starting at most {@link LINE_SLACK} lines after it (a
 * symbol's range starts at its decorators, a tag at its name). Kinds are not
 * compared: ctags calls a JavaScript constructor a class, Heimdall a
 * function.
 *
 * Left out of the share, and counted in their own column so that nothing is
 * hidden: ctags kinds that are not definitions of this sort (macros,
 * prototypes, fields, variables; see `excluded` per language), tags that are
 * ctags' mistakes (see {@link ctagsMistake}: an object literal that ctags
 * calls a class, a prototype property set to a value; and code inside Ruby
 * and shell here-documents, shell strings and comments, which ctags' line
 * readers take for definitions), and files Heimdall deliberately keeps at L1
 * (over the size budget, or minified/generated lines; see
 * src/extract/tree_sitter.ts), whose tags are counted as "skipped".
 *
 *     deno run -A scripts/bench_symbols.ts [--corpus /tmp/heimdall-corpus]
 *       [--per-lang 0] [--misses 8] [--langs python,c,…] [--json]
 *
 * `--per-lang N` takes N evenly spaced files of each language (sorted by
 * path, so the sample is the same on every run); 0 takes every file (about
 * 29,000: 4–6 minutes on one core). Both sides parse a file with the
 * same language: ctags runs with `--language-force` per language. The
 * parse-time budget is raised to 20 s so that a loaded machine cannot turn a
 * slow parse into misses. Progress goes to stderr, the table (or JSON) to
 * stdout. Exit 0 when the run completed, 1 when it failed, 2 on bad
 * arguments.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createExtractor, GrammarStore } from "../src/extract/mod.ts";
import type { SymbolDef } from "../src/extract/mod.ts";
import { L3_LANGUAGES, type Lang, langOf, listTree, loadOrBuildCorpus } from "./bench_corpus.ts";
import { renderTable, runBenchMain, UsageError, wholeNumber } from "./bench_util.ts";

/** The coverage target of issue 13, per language. */
const TARGET = 0.95;
/** How many lines after a tag's line a symbol may start and still match it. */
const LINE_SLACK = 2;

/** Per language: ctags' parser for it, the kinds compared, and the kinds left out with why. */
interface Compared {
  ctags: string;
  kinds: readonly string[];
  excluded: Readonly<Record<string, string>>;
}

const NOT_A_DEFINITION = "a variable, field or constant, not a function or type";
const MACRO = "a preprocessor macro: text substitution, not parsed as a definition";

/** What is compared, per language; every kind ctags emits is either compared or excluded here. */
export const COMPARED: Readonly<Record<Lang, Compared>> = {
  python: {
    ctags: "Python",
    kinds: ["class", "function", "member"],
    excluded: {
      variable: NOT_A_DEFINITION,
      namespace: "an import alias (`import a as b`), not a definition",
      unknown: "an imported name (`from m import x`), not a definition",
    },
  },
  javascript: {
    ctags: "JavaScript",
    kinds: ["function", "class", "method", "generator", "getter", "setter"],
    excluded: {
      constant: NOT_A_DEFINITION,
      variable: NOT_A_DEFINITION,
      property: NOT_A_DEFINITION,
      field: NOT_A_DEFINITION,
    },
  },
  typescript: {
    ctags: "TypeScript",
    kinds: ["function", "class", "method", "generator", "interface", "enum", "namespace"],
    excluded: {
      constant: NOT_A_DEFINITION,
      variable: NOT_A_DEFINITION,
      property: NOT_A_DEFINITION,
      enumerator: NOT_A_DEFINITION,
      alias: "a type alias: Heimdall has it as kind `type`, not compared here",
    },
  },
  tsx: {
    ctags: "TypeScript",
    kinds: ["function", "class", "method", "generator", "interface", "enum", "namespace"],
    excluded: {
      constant: NOT_A_DEFINITION,
      variable: NOT_A_DEFINITION,
      property: NOT_A_DEFINITION,
      enumerator: NOT_A_DEFINITION,
      alias: "a type alias: Heimdall has it as kind `type`, not compared here",
    },
  },
  go: {
    ctags: "Go",
    kinds: ["func", "struct", "interface", "type", "methodSpec"],
    excluded: {
      const: NOT_A_DEFINITION,
      var: NOT_A_DEFINITION,
      member: NOT_A_DEFINITION,
      anonMember: "an embedded field, not a definition",
      package: "the package clause, not a definition",
      packageName: "an import name, not a definition",
      talias: "a type alias, not compared here",
      unknown: "a reference ctags could not place, not a definition",
    },
  },
  rust: {
    ctags: "Rust",
    kinds: ["function", "method", "struct", "enum", "interface", "implementation", "macro"],
    excluded: {
      field: NOT_A_DEFINITION,
      variable: NOT_A_DEFINITION,
      enumerator: NOT_A_DEFINITION,
      typedef: "a type alias, not compared here",
      module: "a module, not compared here",
    },
  },
  java: {
    ctags: "Java",
    kinds: ["class", "interface", "enum", "method", "annotation"],
    excluded: {
      field: NOT_A_DEFINITION,
      enumConstant: NOT_A_DEFINITION,
      package: "the package clause, not a definition",
    },
  },
  c: {
    ctags: "C",
    kinds: ["function", "struct", "union", "enum"],
    excluded: {
      macro: MACRO,
      enumerator: NOT_A_DEFINITION,
      member: NOT_A_DEFINITION,
      variable: NOT_A_DEFINITION,
      typedef: "a type alias, not compared here",
      header: "an #include, not a definition",
    },
  },
  cpp: {
    ctags: "C++",
    kinds: ["function", "class", "struct", "union", "enum"],
    excluded: {
      macro: MACRO,
      enumerator: NOT_A_DEFINITION,
      member: NOT_A_DEFINITION,
      variable: NOT_A_DEFINITION,
      typedef: "a type alias, not compared here",
      namespace: "a namespace, not compared here",
      header: "an #include, not a definition",
      using: "a using-declaration, not a definition",
    },
  },
  csharp: {
    ctags: "C#",
    kinds: ["class", "interface", "struct", "enum", "method"],
    excluded: {
      field: NOT_A_DEFINITION,
      property: NOT_A_DEFINITION,
      event: NOT_A_DEFINITION,
      enumerator: NOT_A_DEFINITION,
      namespace: "a namespace, not compared here",
      macro: MACRO,
      typedef: "a using alias, not a definition",
    },
  },
  ruby: {
    ctags: "Ruby",
    kinds: ["class", "module", "method", "singletonMethod"],
    excluded: {
      constant: NOT_A_DEFINITION,
      accessor: "attr_reader/attr_accessor: generated accessors, not written definitions",
      alias: "alias/alias_method: another name for a method, not a definition",
      library: "a require, not a definition",
      describe: "an RSpec `describe` block (ctags' subparser), not a definition",
      context: "an RSpec `context` block (ctags' subparser), not a definition",
    },
  },
  php: {
    ctags: "PHP",
    kinds: ["class", "interface", "trait", "function"],
    excluded: {
      variable: NOT_A_DEFINITION,
      define: NOT_A_DEFINITION,
      namespace: "a namespace, not compared here",
      alias: "a use-import alias, not a definition",
    },
  },
  bash: {
    ctags: "Sh",
    kinds: ["function"],
    excluded: {
      alias: "an alias: a command, not a definition",
      heredoc: "a here-document marker, not a definition",
      script: "a sourced script, not a definition",
    },
  },
};

/** One ctags tag, as its JSON output gives it. */
interface Tag {
  name: string;
  path: string;
  line: number;
  kind: string;
  pattern?: string;
  scope?: string;
}

/**
 * Why a compared tag is ctags' mistake rather than a definition, or
 * undefined. ctags 5.9 calls an object literal assigned to a name a `class`
 * (`var opts = {…}`, `res.locals = {…}`) and its `key: value` members
 * properties or methods of it.
 */
export function ctagsMistake(lang: Lang, tag: Tag): string | undefined {
  const js = lang === "javascript" || lang === "typescript" || lang === "tsx";
  if (js && tag.kind === "class" && tag.pattern !== undefined) {
    if (!/\bclass\b|\bfunction\b|=>/.test(tag.pattern)) {
      return "an object literal that ctags calls a class";
    }
  }
  if (js && tag.kind === "method" && tag.pattern !== undefined) {
    const value = /\.prototype\.[\w$]+\s*=\s*(.*?)\$?\/$/.exec(tag.pattern)?.[1];
    if (value !== undefined && !/^(async\s+)?function\b|=>|^class\b|^\(?$/.test(value)) {
      return "a prototype property set to a value (`X.prototype.m = f;`), not a definition";
    }
  }
  if (
    lang === "ruby" && tag.kind === "singletonMethod" &&
    new RegExp(`\\bdef\\s+${escapeRegExp(tag.name)}\\.\\w`).test(tag.pattern ?? "")
  ) {
    return "`def obj.m` that ctags names after `obj`";
  }
  if (
    (lang === "c" || lang === "cpp") && tag.kind === "function" &&
    /^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)$/.test(tag.name)
  ) {
    return "a GoogleTest test that ctags names after its macro (Heimdall: `Suite.Name`)";
  }
  if (lang === "csharp" && tag.pattern !== undefined) {
    if (tag.kind === "method" && /\);\s*\$\/$/.test(tag.pattern) && tag.name.includes(".")) {
      return "a call statement that ctags calls a method";
    }
    if (tag.kind === "class" && /\bwhere\b[^{]*:\s*class\b/.test(tag.pattern)) {
      return "a `where T : class` constraint that ctags calls a class";
    }
  }
  return undefined;
}

const HEREDOC = "code inside a here-document (a string), not a definition of the file";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The 1-based lines inside here-documents (`<<~RUBY … RUBY`, `<<EOF …
 * EOF`): code there is a string that a test feeds to a tool, which ctags
 * tags as if it were this file's own.
 */
export function heredocLines(text: string, lang: "ruby" | "bash"): Set<number> {
  const lines = text.split("\n");
  const inside = new Set<number>();
  // Ruby's `class << self` is not one; bash allows a space (`cat << EOF`).
  const opener = lang === "ruby"
    ? /<<([~-]?)(["'`]?)([A-Za-z_]\w*)\2/g
    : /<<(-?)[ \t]*(["']?)([A-Za-z_]\w*)\2/g;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*#/.test(line)) continue;
    const ends: { id: string; indented: boolean }[] = [];
    for (const m of line.matchAll(opener)) ends.push({ id: m[3]!, indented: m[1] !== "" });
    for (const end of ends) {
      const close = end.indented
        ? new RegExp(`^\\s*${end.id}\\s*$`)
        : new RegExp(`^${end.id}\\s*$`);
      let j = i + 1;
      while (j < lines.length && !close.test(lines[j]!)) j++;
      // Never closed: `<<s` inside a string, not a here-document.
      if (j === lines.length) continue;
      for (let k = i + 1; k < j; k++) inside.add(k + 1);
      i = j;
    }
  }
  return inside;
}

const IN_LITERAL =
  "text in a string or comment (a git test body run by eval, prose), not a definition of the file";

const BASH_LITERALS = new Set(["string", "raw_string", "ansi_c_string", "heredoc_body", "comment"]);
let bashGrammar: ReturnType<GrammarStore["load"]> | undefined;

/**
 * The 1-based lines of a shell script that lie inside a string literal
 * (after the line it opens on) or a comment, by tree-sitter's parse: ctags'
 * shell parser reads lines, so `f() {` in a quoted test body or "a function
 * like" in prose is a function to it.
 */
async function bashLiteralLines(text: string): Promise<Set<number>> {
  bashGrammar ??= new GrammarStore().load("bash");
  const { parser } = await bashGrammar;
  const tree = parser.parse(text);
  const lines = new Set<number>();
  if (!tree) return lines;
  try {
    const cursor = tree.walk();
    const visit = (): void => {
      do {
        const type: string = cursor.nodeType;
        if (BASH_LITERALS.has(type)) {
          const from = cursor.startPosition.row + (type === "comment" ? 1 : 2);
          for (let l = from; l <= cursor.endPosition.row + 1; l++) lines.add(l);
        } else if (cursor.gotoFirstChild()) {
          visit();
          cursor.gotoParent();
        }
      } while (cursor.gotoNextSibling());
    };
    visit();
    cursor.delete();
  } finally {
    tree.delete();
  }
  return lines;
}

/** What the command line asked for. */
interface Options {
  corpus: string;
  perLang: number;
  misses: number;
  langs: readonly Lang[];
  json: boolean;
}

const USAGE =
  "usage: deno run -A scripts/bench_symbols.ts [--corpus DIR] [--per-lang N] [--misses N] " +
  "[--langs a,b] [--json]";

function parseOptions(args: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        corpus: { type: "string", default: "/tmp/heimdall-corpus" },
        "per-lang": { type: "string", default: "0" },
        misses: { type: "string", default: "8" },
        langs: { type: "string", default: L3_LANGUAGES.join(",") },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }).values;
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n${USAGE}`);
  }
  if (parsed.help) throw new UsageError(USAGE);
  const langs = parsed.langs.split(",").map((l) => l.trim()).filter((l) => l !== "");
  for (const l of langs) {
    if (!(L3_LANGUAGES as readonly string[]).includes(l)) {
      throw new UsageError(`Invalid --langs "${l}": expected some of ${L3_LANGUAGES.join(",")}`);
    }
  }
  return {
    langs: langs as Lang[],
    corpus: parsed.corpus,
    perLang: wholeNumber("per-lang", parsed["per-lang"], 0),
    misses: wholeNumber("misses", parsed.misses, 0),
    json: parsed.json,
  };
}

function progress(message: string): void {
  console.error(`[bench_symbols] ${message}`);
}

/** A miss: where ctags has a definition that Heimdall does not. */
interface Miss {
  file: string;
  line: number;
  kind: string;
  name: string;
  text: string;
}

/** The figures of one language. */
interface LangResult {
  lang: Lang;
  files: number;
  /** Compared ctags tags in files Heimdall parsed. */
  compared: number;
  found: number;
  share: number;
  /** Compared tags in files Heimdall keeps at L1 by design (budget, minified). */
  skipped: number;
  skippedFiles: number;
  /** Tags of excluded kinds, by kind. */
  excluded: Record<string, number>;
  /** ctags' mistakes, by reason. */
  mistakes: Record<string, number>;
  /** Tags of kinds neither compared nor excluded (should stay empty). */
  unlisted: Record<string, number>;
  /** Misses by ctags kind. */
  missesByKind: Record<string, number>;
  sample: Miss[];
}

interface Result {
  corpus: string;
  perLang: number;
  languages: LangResult[];
}

/** Every `step`-th file of a sorted list: `n` files spread evenly over it. */
function spread<T>(items: readonly T[], n: number): T[] {
  if (n === 0 || items.length <= n) return [...items];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[Math.floor((i * items.length) / n)]!);
  return out;
}

async function runCtags(root: string, lang: Lang, files: readonly string[]): Promise<Tag[]> {
  const args = [
    `--language-force=${COMPARED[lang].ctags}`,
    "--output-format=json",
    "--fields=+nKZ",
    "--extras=-{anonymous}",
    "-f",
    "-",
    "-L",
    "-",
  ];
  const child = new Deno.Command("ctags", {
    args,
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(files.join("\n") + "\n"));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(`ctags exited with ${out.code} for ${lang}`);
  const tags: Tag[] = [];
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    if (!line.startsWith("{")) continue;
    const t = JSON.parse(line);
    if (t._type !== "tag") continue;
    tags.push(t as Tag);
  }
  return tags;
}

/**
 * True when Heimdall has a symbol of this file that stands for the tag:
 * same name once whitespace is dropped (`operator ==`), or the same last
 * segment of a qualified name (C# `IEnumerable.GetEnumerator`, Ruby
 * `self.x`, C++ `A::f`).
 */
function found(tag: Tag, symbols: readonly SymbolDef[]): boolean {
  const names = [tag.name.replace(/\s+/g, "")];
  // `X.Template = class TemplateImpl …`, `module.exports = class Cursor`:
  // ctags names the class after what it is assigned to, Heimdall after itself.
  const own = tag.kind === "class"
    ? /=\s*class\s+([\w$]+)/.exec(tag.pattern ?? "")?.[1]
    : undefined;
  if (own !== undefined) names.push(own);
  const lasts = names.map(lastSegment);
  for (const s of symbols) {
    if (tag.line < s.startLine - LINE_SLACK || tag.line > s.endLine) continue;
    const sName = s.name.replace(/\s+/g, "");
    if (names.includes(sName) || lasts.includes(lastSegment(sName))) return true;
  }
  return false;
}

function lastSegment(name: string): string {
  return name.split(/\.|::|->|\\/).pop() ?? name;
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

async function run(opts: Options): Promise<Result> {
  const manifest = await loadOrBuildCorpus({ dir: opts.corpus, rebuild: false, log: progress });
  const byLang = new Map<Lang, string[]>();
  for (const rel of listTree(manifest.tree)) {
    const lang = langOf(rel);
    if (lang === undefined) continue;
    const list = byLang.get(lang) ?? [];
    list.push(rel);
    byLang.set(lang, list);
  }
  const extractor = createExtractor({ keepTrees: 0, budget: { maxMillis: 20_000 } });
  const languages: LangResult[] = [];
  for (const lang of opts.langs) {
    const files = spread(byLang.get(lang) ?? [], opts.perLang);
    const t0 = performance.now();
    const tags = await runCtags(manifest.tree, lang, files);
    const byFile = new Map<string, Tag[]>();
    for (const t of tags) {
      const list = byFile.get(t.path) ?? [];
      list.push(t);
      byFile.set(t.path, list);
    }
    const spec = COMPARED[lang];
    const r: LangResult = {
      lang,
      files: files.length,
      compared: 0,
      found: 0,
      share: NaN,
      skipped: 0,
      skippedFiles: 0,
      excluded: {},
      mistakes: {},
      unlisted: {},
      missesByKind: {},
      sample: [],
    };
    const misses: Miss[] = [];
    for (const file of files) {
      const fileTags = byFile.get(file) ?? [];
      const kept: Tag[] = [];
      for (const t of fileTags) {
        if (!spec.kinds.includes(t.kind)) {
          if (spec.excluded[t.kind] !== undefined) bump(r.excluded, t.kind);
          else bump(r.unlisted, t.kind);
          continue;
        }
        const mistake = ctagsMistake(lang, t);
        if (mistake !== undefined) bump(r.mistakes, mistake);
        else kept.push(t);
      }
      if (kept.length === 0) continue;
      const text = await Deno.readTextFile(join(manifest.tree, file));
      if (lang === "ruby" || lang === "bash") {
        const heredoc = heredocLines(text, lang);
        const literal = lang === "bash" ? await bashLiteralLines(text) : new Set<number>();
        for (let i = kept.length - 1; i >= 0; i--) {
          const line = kept[i]!.line;
          if (heredoc.has(line)) bump(r.mistakes, HEREDOC);
          else if (literal.has(line)) bump(r.mistakes, IN_LITERAL);
          else continue;
          kept.splice(i, 1);
        }
      }
      const x = await extractor.extract({ path: file, language: lang, text, depth: 2 });
      if (x.depth < 2) {
        r.skipped += kept.length;
        r.skippedFiles++;
        continue;
      }
      const lines = text.split("\n");
      for (const t of kept) {
        r.compared++;
        if (found(t, x.symbols)) {
          r.found++;
          continue;
        }
        bump(r.missesByKind, t.kind);
        misses.push({
          file,
          line: t.line,
          kind: t.kind,
          name: t.name,
          text: (lines[t.line - 1] ?? "").trim().slice(0, 100),
        });
      }
    }
    r.share = r.compared === 0 ? NaN : r.found / r.compared;
    r.sample = spread(misses, opts.misses);
    languages.push(r);
    progress(
      `${lang}: ${files.length} files, ${r.found}/${r.compared} found (${
        (100 * r.share).toFixed(1)
      }%) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  return { corpus: manifest.tree, perLang: opts.perLang, languages };
}

function pct(x: number): string {
  return Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "—";
}

function counts(c: Record<string, number>): string {
  const e = Object.entries(c).sort((a, b) => b[1] - a[1]);
  return e.length === 0 ? "—" : e.map(([k, n]) => `${k} ${n}`).join(", ");
}

function render(r: Result): string {
  const rows = r.languages.map((l) => [
    l.lang,
    String(l.files),
    String(l.compared),
    String(l.found),
    pct(l.share),
    l.share >= TARGET ? "yes" : "NO",
    l.skipped === 0 ? "0" : `${l.skipped} (${l.skippedFiles} files)`,
    String(Object.values(l.mistakes).reduce((a, b) => a + b, 0)),
  ]);
  const all = r.languages.reduce((a, l) => [a[0]! + l.compared, a[1]! + l.found], [0, 0]);
  rows.push(["all", "", String(all[0]), String(all[1]), pct(all[1]! / all[0]!), "", "", ""]);
  const out = [
    `Definitions of Universal Ctags that Heimdall also extracts (target ≥ ${
      pct(TARGET)
    } per language)`,
    `corpus ${r.corpus}, ${
      r.perLang === 0 ? "every file" : `${r.perLang} evenly spaced files per language`
    }`,
    "",
    renderTable(
      [
        "language",
        "files",
        "ctags defs",
        "found",
        "share",
        "≥ target",
        "skipped (L1)",
        "ctags errors",
      ],
      rows,
      [1, 2, 3, 4, 6, 7],
    ),
    "",
  ];
  for (const l of r.languages) {
    out.push(`${l.lang}: compared ${COMPARED[l.lang].kinds.join(", ")}`);
    out.push(`  misses by kind: ${counts(l.missesByKind)}`);
    out.push(`  excluded kinds: ${counts(l.excluded)}`);
    if (Object.keys(l.mistakes).length > 0) out.push(`  ctags errors: ${counts(l.mistakes)}`);
    if (Object.keys(l.unlisted).length > 0) out.push(`  UNLISTED kinds: ${counts(l.unlisted)}`);
    for (const m of l.sample) {
      out.push(`  miss ${m.file}:${m.line} ${m.kind} ${m.name}  | ${m.text}`);
    }
  }
  const reasons = new Map<string, string[]>();
  for (const l of r.languages) {
    for (const [kind, why] of Object.entries(COMPARED[l.lang].excluded)) {
      const key = `${why}`;
      reasons.set(key, [...(reasons.get(key) ?? []), `${l.lang}:${kind}`]);
    }
  }
  out.push("", "Excluded kinds and why:");
  for (const [why, kinds] of reasons) out.push(`  ${why}: ${kinds.join(" ")}`);
  return out.join("\n");
}

if (import.meta.main) {
  Deno.exit(await runBenchMain("bench_symbols", parseOptions, run, render));
}
