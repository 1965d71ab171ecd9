/**
 * Assembles the real mixed-language corpus that `scripts/bench_extract.ts`
 * indexes and `scripts/bench_search.ts` searches: source files of pinned npm
 * packages (`npm pack`, no install, no scripts) and of Debian source packages
 * (`apt-get source --download-only` against a private deb-src list, so the
 * machine's apt configuration is never touched), cut to a mix over the 13
 * languages Heimdall extracts at L3, plus the prose of the same packages
 * (`.md`, `.rst`, `.txt`, `.adoc`: manuals, guides, READMEs).
 *
 *     deno run -A scripts/bench_corpus.ts [--dir /tmp/heimdall-corpus] [--rebuild] [--json]
 *
 * Layout under the corpus folder: `downloads/` (the tarballs, kept, so a
 * rebuild does not download again), `apt/` (the private source lists),
 * `tree/<source>/<path>` (only the selected code files), `prose/<source>/<path>`
 * (only the selected prose files; a separate tree, so what the code
 * benchmarks measure does not change) and `manifest.json` (sources, versions,
 * the sha256 of every archive, files and bytes per language and per prose
 * format). A corpus whose manifest matches this file's source list is reused
 * as it is; `--rebuild` builds it again from the downloads. A code file is
 * selected when Heimdall maps its name to one of the 13 languages, it is at
 * most 1 MiB, no folder on its way is one Heimdall skips by default (or
 * hidden), and its name is not secret-like; a per-language cap then keeps an
 * evenly spaced subset of a large source. A prose file is selected by its
 * extension under the same folder rules, from 1 KiB (redirect stubs and
 * one-line READMEs say nothing) to 1 MiB, outside test folders, and not a
 * licence, changelog or build list; a per-source cap keeps an evenly spaced
 * subset. A source that cannot be fetched (a 404 on the mirror, a package
 * gone) is recorded under `missing` and the build goes on.
 */
import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { detectLanguage } from "../src/extract/language.ts";
import { DEFAULT_IGNORED_DIRS } from "../src/files/ignore.ts";
import { isSecretName } from "../src/files/secrets.ts";
import { fmtMiB, fmtMs } from "./bench_util.ts";

/** The 13 language ids Heimdall extracts symbols and edges for (its `detectLanguage` ids). */
export const L3_LANGUAGES = [
  "python",
  "javascript",
  "typescript",
  "tsx",
  "go",
  "rust",
  "java",
  "c",
  "cpp",
  "csharp",
  "ruby",
  "php",
  "bash",
] as const;

/** One of the 13 languages. */
export type Lang = typeof L3_LANGUAGES[number];

/** Largest file kept, as Heimdall's default `maxFileBytes`. */
export const MAX_FILE_BYTES = 1_048_576;

/** Where one source's files come from and which of them to keep. */
export interface SourceSpec {
  kind: "npm" | "deb";
  /** npm package name (pinned with `version`) or Debian source package name. */
  name: string;
  /** Exact npm version; Debian sources take the archive's current version. */
  version?: string;
  /** Keep only paths under these folders (relative to the package root, with a trailing `/`). */
  under?: readonly string[];
  /** Languages to keep, each with a cap (`Infinity` keeps all); languages not listed are dropped. */
  langs: Partial<Record<Lang, number>>;
  /** Prose to keep from the same package; npm packages default to {@link NPM_PROSE}. */
  prose?: ProseSpec;
}

/** Which prose files of a package to keep. */
export interface ProseSpec {
  /** Keep only paths under these folders (with a trailing `/`); all of the package without it. */
  under?: readonly string[];
  /** Drop paths under these folders (release notes, generated lists). */
  skip?: readonly string[];
  /** At most this many files, an evenly spaced subset of the sorted candidates. */
  cap: number;
}

/** The prose formats kept, by extension. */
export const PROSE_FORMATS = ["md", "rst", "txt", "adoc"] as const;

/** One of the prose formats. */
export type ProseFormat = typeof PROSE_FORMATS[number];

/** Smallest prose file kept: redirect stubs and one-line READMEs give nothing to search for. */
export const MIN_PROSE_BYTES = 1024;

/** An npm package without its own `prose` spec keeps its README and docs, at most this many. */
export const NPM_PROSE: ProseSpec = { cap: 10 };

/** Prose file names that are lists, legal text or build input rather than documentation. */
const PROSE_SKIP_NAME =
  /^(cmakelists|licen[cs]e|copying|notice|authors|contributors|thanks|thirdparty|requirements|changelog|changes|history|code_of_conduct|security)/i;

/** Folders (any case) whose prose is test input, not documentation. */
const PROSE_SKIP_DIRS = new Set(["test", "tests", "testdata", "__tests__", "fixtures", "spec"]);

const ALL = Infinity;
const WEB = { javascript: ALL, typescript: ALL, tsx: ALL } as const;

/**
 * The corpus: about 29,000 code files and 2,200 prose files. Caps keep one
 * large source from dominating its language; the mix leans to JS/TS as real
 * multi-repo workspaces do. Prose comes mostly from the manuals: Python's
 * reStructuredText, git's AsciiDoc pages, the Rust books and error codes.
 */
export const SOURCES: readonly SourceSpec[] = [
  // JavaScript
  { kind: "npm", name: "lodash", version: "4.18.1", langs: { javascript: ALL } },
  {
    kind: "npm",
    name: "three",
    version: "0.187.0",
    under: ["src/", "examples/jsm/"],
    langs: { javascript: 700 },
  },
  { kind: "npm", name: "webpack", version: "5.113.0", langs: { javascript: 700, typescript: ALL } },
  { kind: "npm", name: "eslint", version: "10.15.0", langs: { javascript: ALL, typescript: ALL } },
  { kind: "npm", name: "@babel/core", version: "7.29.13", langs: WEB },
  { kind: "npm", name: "@babel/generator", version: "7.29.15", langs: WEB },
  { kind: "npm", name: "@babel/helpers", version: "7.29.15", langs: WEB },
  { kind: "npm", name: "@babel/traverse", version: "7.29.15", langs: WEB },
  { kind: "npm", name: "@babel/types", version: "7.29.15", langs: WEB },
  { kind: "npm", name: "@babel/template", version: "7.29.7", langs: WEB },
  { kind: "npm", name: "@babel/preset-env", version: "7.29.14", langs: WEB },
  {
    kind: "npm",
    name: "monaco-editor",
    version: "0.57.0",
    under: ["esm/"],
    langs: { javascript: 400, typescript: 200 },
  },
  {
    kind: "npm",
    name: "@mui/material",
    version: "9.5.0",
    langs: { javascript: 300, typescript: 300 },
    prose: { cap: 100 },
  },
  {
    kind: "npm",
    name: "@nestjs/core",
    version: "12.5.1",
    langs: { javascript: 150, typescript: 150 },
  },
  {
    kind: "npm",
    name: "@nestjs/common",
    version: "12.5.1",
    langs: { javascript: 150, typescript: 150 },
  },
  // TypeScript
  { kind: "npm", name: "typescript", version: "5.4.5", langs: { typescript: ALL } },
  { kind: "npm", name: "rxjs", version: "7.8.2", langs: { typescript: ALL } },
  { kind: "npm", name: "zod", version: "4.6.7", under: ["src/"], langs: { typescript: ALL } },
  { kind: "npm", name: "@types/lodash", version: "4.17.27", langs: { typescript: 300 } },
  { kind: "npm", name: "@types/three", version: "0.187.0", langs: { typescript: 300 } },
  { kind: "npm", name: "@types/node", version: "26.6.7", langs: { typescript: ALL } },
  { kind: "npm", name: "@types/react", version: "19.3.3", langs: { typescript: ALL } },
  { kind: "npm", name: "type-fest", version: "5.10.0", langs: { typescript: ALL } },
  {
    kind: "npm",
    name: "effect",
    version: "4.1.0",
    langs: { typescript: 300 },
    prose: { cap: 30 },
  },
  { kind: "npm", name: "mobx", version: "7.1.3", langs: WEB },
  { kind: "npm", name: "immer", version: "11.2.13", langs: WEB },
  {
    kind: "npm",
    name: "@reduxjs/toolkit",
    version: "2.15.0",
    langs: WEB,
    prose: { cap: 20 },
  },
  { kind: "npm", name: "@tanstack/query-core", version: "5.108.4", langs: WEB },
  { kind: "npm", name: "@tanstack/react-query", version: "5.108.4", langs: WEB },
  {
    kind: "npm",
    name: "@tanstack/router-core",
    version: "1.171.39",
    langs: WEB,
    prose: { cap: 20 },
  },
  { kind: "npm", name: "@tanstack/react-router", version: "1.170.46", langs: WEB },
  // React Native: JS (Flow), TS and TSX sources, plus its C++ core
  {
    kind: "npm",
    name: "react-native",
    version: "0.86.3",
    under: ["Libraries/", "src/", "ReactCommon/"],
    langs: { javascript: 400, typescript: 200, c: 200, cpp: 300 },
    prose: { cap: 40 },
  },
  { kind: "npm", name: "native-base", version: "3.4.28", under: ["src/"], langs: WEB },
  { kind: "npm", name: "react-native-paper", version: "5.15.3", under: ["src/"], langs: WEB },
  {
    kind: "npm",
    name: "react-native-reanimated",
    version: "4.8.0",
    under: ["src/", "Common/"],
    langs: { ...WEB, cpp: ALL },
  },
  {
    kind: "npm",
    name: "react-native-gesture-handler",
    version: "3.5.0",
    under: ["src/"],
    langs: WEB,
  },
  { kind: "npm", name: "react-native-screens", version: "4.30.1", under: ["src/"], langs: WEB },
  { kind: "npm", name: "react-native-svg", version: "15.16.1", under: ["src/"], langs: WEB },
  { kind: "npm", name: "@gorhom/bottom-sheet", version: "5.2.14", under: ["src/"], langs: WEB },
  { kind: "npm", name: "react-native-tab-view", version: "4.3.3", under: ["src/"], langs: WEB },
  ...([
    ["native", "7.5.1"],
    ["core", "7.24.0"],
    ["stack", "7.12.1"],
    ["elements", "2.9.45"],
    ["bottom-tabs", "7.21.0"],
    ["drawer", "7.14.2"],
    ["native-stack", "7.21.0"],
    ["material-top-tabs", "7.8.0"],
  ] as const).map(([name, version]): SourceSpec => ({
    kind: "npm",
    name: `@react-navigation/${name}`,
    version,
    under: ["src/"],
    langs: WEB,
  })),
  // Python, Go, Rust (Go's .txt files are test scripts: no prose from it)
  {
    kind: "deb",
    name: "python3.11",
    under: ["Lib/"],
    langs: { python: 1800 },
    prose: { under: ["Doc/"], cap: 450 },
  },
  { kind: "deb", name: "golang-1.19", under: ["src/"], langs: { go: 2200 } },
  {
    kind: "deb",
    name: "rustc",
    under: ["library/", "compiler/"],
    langs: { rust: 1800 },
    prose: { under: ["src/doc/", "library/", "compiler/rustc_error_codes/"], cap: 800 },
  },
  { kind: "deb", name: "rust-clap", langs: { rust: ALL }, prose: { cap: 60 } },
  { kind: "deb", name: "rust-ripgrep", langs: { rust: ALL }, prose: { cap: 20 } },
  { kind: "deb", name: "rust-serde", langs: { rust: ALL }, prose: { cap: 5 } },
  // Java
  { kind: "deb", name: "guava-libraries", langs: { java: 1200 }, prose: { cap: 20 } },
  { kind: "deb", name: "jackson-databind", langs: { java: 500 }, prose: { cap: 10 } },
  // C (git's manual pages are AsciiDoc in .txt files)
  {
    kind: "deb",
    name: "git",
    langs: { c: 450, bash: 700 },
    prose: { under: ["Documentation/"], skip: ["Documentation/RelNotes/"], cap: 400 },
  },
  { kind: "deb", name: "curl", langs: { c: 300 }, prose: { under: ["docs/"], cap: 100 } },
  {
    kind: "deb",
    name: "redis",
    langs: { c: 250, bash: ALL, ruby: ALL },
    prose: { cap: 50 },
  },
  { kind: "deb", name: "sqlite3", langs: { c: 150 }, prose: { cap: 20 } },
  { kind: "deb", name: "lua5.4", langs: { c: ALL } },
  { kind: "deb", name: "zlib", langs: { c: ALL }, prose: { cap: 10 } },
  { kind: "deb", name: "tmux", langs: { c: ALL } },
  { kind: "deb", name: "python3.11", under: ["Modules/", "Objects/"], langs: { c: 250 } },
  // C++
  { kind: "deb", name: "abseil", langs: { cpp: ALL, c: 150 }, prose: { cap: 30 } },
  {
    kind: "deb",
    name: "protobuf",
    langs: {
      cpp: ALL,
      c: 150,
      java: ALL,
      csharp: ALL,
      php: ALL,
      ruby: ALL,
      python: ALL,
      bash: ALL,
    },
    prose: { cap: 60 },
  },
  { kind: "deb", name: "leveldb", langs: { cpp: ALL, c: ALL }, prose: { cap: 20 } },
  { kind: "deb", name: "re2", langs: { cpp: ALL, c: ALL }, prose: { cap: 20 } },
  { kind: "deb", name: "fmtlib", langs: { cpp: ALL, c: ALL }, prose: { cap: 20 } },
  {
    kind: "deb",
    name: "googletest",
    langs: { cpp: ALL, c: ALL, python: ALL },
    prose: { under: ["docs/"], cap: 30 },
  },
  { kind: "deb", name: "yaml-cpp", langs: { cpp: ALL, c: ALL }, prose: { cap: 20 } },
  { kind: "deb", name: "spdlog", langs: { cpp: ALL, c: ALL }, prose: { cap: 20 } },
  // C#
  { kind: "deb", name: "keepass2", langs: { csharp: ALL } },
  { kind: "deb", name: "newtonsoft-json", langs: { csharp: ALL }, prose: { cap: 5 } },
  { kind: "deb", name: "nunit", langs: { csharp: 500 }, prose: { cap: 5 } },
  // Ruby (RuboCop's manual is AsciiDoc)
  {
    kind: "deb",
    name: "rails",
    langs: { ruby: 1200, javascript: ALL },
    prose: { under: ["guides/source/"], cap: 100 },
  },
  { kind: "deb", name: "rubocop", langs: { ruby: 500 }, prose: { under: ["docs/"], cap: 60 } },
  // PHP
  { kind: "deb", name: "php-symfony", langs: { php: 1000 }, prose: { cap: 150 } },
  { kind: "deb", name: "composer", langs: { php: 300 }, prose: { under: ["doc/"], cap: 40 } },
  {
    kind: "deb",
    name: "php-league-commonmark",
    langs: { php: 300 },
    prose: { under: ["docs/"], cap: 150 },
  },
  {
    kind: "deb",
    name: "phpmyadmin",
    langs: { php: 400, javascript: ALL },
    prose: { under: ["doc/"], skip: ["doc/html/"], cap: 60 },
  },
  { kind: "deb", name: "roundcube", langs: { php: 300 }, prose: { cap: 20 } },
  // Bash: git's test suite above, plus the scripts of rustc's tree
  { kind: "deb", name: "rustc", under: ["src/"], langs: { bash: ALL } },
];

/** Files and bytes of one language. */
export interface LangCount {
  files: number;
  bytes: number;
}

/** One source as built. */
export interface SourceEntry {
  kind: "npm" | "deb";
  name: string;
  version: string;
  /** Folder under `tree/` that holds its files. */
  slug: string;
  /** The tarball the files came from (under `downloads/`), its size and its sha256 (hex). */
  archive: string;
  archiveBytes: number;
  sha256: string;
  /** Code files (under `tree/`). */
  files: number;
  bytes: number;
  byLang: Partial<Record<Lang, LangCount>>;
  /** Candidate files passed over: in a default-ignored or hidden folder, over 1 MiB, over a cap. */
  dropped: { ignoredDir: number; tooLarge: number; capped: number; secretName: number };
  /** Prose files (under `prose/`). */
  prose: ProseCount;
}

/** Prose files and bytes, in all and per format. */
export interface ProseCount {
  files: number;
  bytes: number;
  byFormat: Partial<Record<ProseFormat, LangCount>>;
}

/** What `manifest.json` holds. */
export interface Manifest {
  /** Changes whenever SOURCES or the selection rules change; a mismatch forces a rebuild. */
  key: string;
  builtAt: string;
  buildMs: number;
  dir: string;
  /** The code files, `<source slug>/<path>`. */
  tree: string;
  /** The prose files, `<source slug>/<path>` (never the same path as a code file). */
  proseTree: string;
  sources: SourceEntry[];
  missing: { kind: string; name: string; reason: string }[];
  /** Code files. */
  totals: { files: number; bytes: number; byLang: Record<Lang, LangCount> };
  prose: ProseCount;
}

/** The corpus could not be built or read; the message names the step and the remedy. */
export class CorpusError extends Error {}

const SELECTION_RULES = 2;

/** A key over the source list and the selection rules: a changed list never reuses a stale tree. */
export async function corpusKey(): Promise<string> {
  const text = JSON.stringify({
    rules: SELECTION_RULES,
    max: MAX_FILE_BYTES,
    ignored: DEFAULT_IGNORED_DIRS,
    prose: {
      formats: PROSE_FORMATS,
      min: MIN_PROSE_BYTES,
      npm: NPM_PROSE,
      skipName: PROSE_SKIP_NAME.source,
      skipDirs: [...PROSE_SKIP_DIRS],
    },
    sources: SOURCES.map((s) => ({
      ...s,
      langs: Object.entries(s.langs).map(([k, v]) => [k, `${v}`]),
    })),
  });
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].slice(0, 8).map((b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}

/** Where the corpus lives and what to report progress to. */
export interface CorpusOptions {
  dir: string;
  rebuild: boolean;
  log: (message: string) => void;
}

/**
 * Returns the corpus under `opts.dir`: the cached one when its manifest key
 * matches and every listed file is present, else a fresh build (downloads
 * are reused). Throws CorpusError when npm or apt-get is missing or nothing
 * could be fetched. Costs a stat per file when cached; a few minutes and
 * about 200 MB of downloads on a first build.
 */
export async function loadOrBuildCorpus(opts: CorpusOptions): Promise<Manifest> {
  const key = await corpusKey();
  const manifestPath = join(opts.dir, "manifest.json");
  if (!opts.rebuild) {
    const cached = readManifest(manifestPath);
    if (cached !== undefined && cached.key === key) {
      const files = listTree(cached.tree).length;
      const prose = listTree(cached.proseTree).length;
      if (files === cached.totals.files && prose === cached.prose.files) {
        opts.log(
          `reusing the corpus at ${cached.dir} (${files} code files, ${prose} prose files)`,
        );
        return cached;
      }
      opts.log(
        `the cached corpus at ${cached.dir} has ${files} code and ${prose} prose files, its manifest ${cached.totals.files} and ${cached.prose.files}: rebuilding`,
      );
    } else if (cached !== undefined) {
      opts.log(`the cached corpus was built from another source list: rebuilding`);
    }
  }
  return await buildCorpus(opts, key);
}

function readManifest(path: string): Manifest | undefined {
  try {
    return JSON.parse(Deno.readTextFileSync(path)) as Manifest;
  } catch {
    return undefined;
  }
}

/** Every regular file under `root`, root-relative, sorted. */
export function listTree(root: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(join(root, rel))];
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory) visit(child);
      else if (e.isFile) out.push(child);
    }
  };
  visit("");
  return out.sort();
}

/** The prose format of a file by its extension, when it is one the corpus keeps. */
export function proseFormatOf(path: string): ProseFormat | undefined {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return (PROSE_FORMATS as readonly string[]).includes(ext) ? ext as ProseFormat : undefined;
}

/** The language of a corpus file as Heimdall sees it, when it is one of the 13. */
export function langOf(path: string): Lang | undefined {
  const id = detectLanguage(basename(path));
  return (L3_LANGUAGES as readonly string[]).includes(id ?? "") ? id as Lang : undefined;
}

async function buildCorpus(opts: CorpusOptions, key: string): Promise<Manifest> {
  const t0 = performance.now();
  const dir = opts.dir;
  const tree = join(dir, "tree");
  const proseTree = join(dir, "prose");
  const staging = join(dir, "staging");
  const npmDir = join(dir, "downloads", "npm");
  const debDir = join(dir, "downloads", "deb");
  for (const d of [join(dir, "manifest.json"), tree, proseTree, staging]) removeIfPresent(d);
  for (const d of [tree, proseTree, staging, npmDir, debDir]) {
    Deno.mkdirSync(d, { recursive: true });
  }

  const npmSpecs = SOURCES.filter((s) => s.kind === "npm");
  const debNames = [...new Set(SOURCES.filter((s) => s.kind === "deb").map((s) => s.name))];
  const missing: Manifest["missing"] = [];
  opts.log(`fetching ${npmSpecs.length} npm packages (npm pack, cached in ${npmDir})`);
  const npmArchives = await fetchNpm(npmSpecs, npmDir, missing, opts.log);
  opts.log(`fetching ${debNames.length} Debian source packages (cached in ${debDir})`);
  const debArchives = await fetchDeb(dir, debNames, debDir, missing, opts.log);

  const sources: SourceEntry[] = [];
  const extracted = new Map<string, string>();
  for (const spec of SOURCES) {
    const archive = spec.kind === "npm"
      ? npmArchives.get(`${spec.name}@${spec.version}`)
      : debArchives.get(spec.name);
    if (archive === undefined) continue;
    const id = `${spec.kind}:${spec.name}`;
    let root = extracted.get(id);
    if (root === undefined) {
      root = join(staging, String(extracted.size));
      Deno.mkdirSync(root);
      await run(
        "tar",
        ["-xf", archive.path, "-C", root, "--no-same-owner"],
        `unpack "${archive.path}"`,
      );
      root = singleTopFolder(root);
      extracted.set(id, root);
    }
    const slug = `${spec.kind}-${spec.name.replace(/^@/, "").replace(/\//g, "-")}`;
    const entry = selectFiles(spec, root, join(tree, slug));
    const prose = selectProse(spec, root, join(proseTree, slug));
    sources.push({
      ...entry,
      slug,
      version: archive.version,
      archive: archive.path,
      archiveBytes: archive.bytes,
      sha256: await sha256File(archive.path),
      prose,
    });
    opts.log(
      `  ${slug} ${archive.version}: ${entry.files} files, ${fmtMiB(entry.bytes)} (${
        Object.entries(entry.byLang).map(([l, c]) => `${l} ${c!.files}`).join(", ")
      }); prose ${prose.files} files (${
        Object.entries(prose.byFormat).map(([f, c]) => `${f} ${c!.files}`).join(", ")
      })`,
    );
  }
  Deno.removeSync(staging, { recursive: true });
  const merged = mergeEntries(sources);
  const byLang = Object.fromEntries(L3_LANGUAGES.map((l) => [l, { files: 0, bytes: 0 }])) as Record<
    Lang,
    LangCount
  >;
  const prose: ProseCount = { files: 0, bytes: 0, byFormat: {} };
  for (const s of merged) {
    for (const [l, c] of Object.entries(s.byLang) as [Lang, LangCount][]) {
      byLang[l].files += c.files;
      byLang[l].bytes += c.bytes;
    }
    addProse(prose, s.prose);
  }
  const manifest: Manifest = {
    key,
    builtAt: new Date().toISOString(),
    buildMs: Math.round(performance.now() - t0),
    dir,
    tree,
    proseTree,
    sources: merged,
    missing,
    totals: {
      files: merged.reduce((a, s) => a + s.files, 0),
      bytes: merged.reduce((a, s) => a + s.bytes, 0),
      byLang,
    },
    prose,
  };
  if (manifest.totals.files === 0) {
    throw new CorpusError(
      `No source could be fetched into "${dir}" (${missing.length} missing): check that npm and apt-get reach their registries`,
    );
  }
  Deno.writeTextFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  opts.log(
    `corpus built in ${fmtMs(manifest.buildMs)}: ${manifest.totals.files} code files, ${
      fmtMiB(manifest.totals.bytes)
    }; ${prose.files} prose files, ${fmtMiB(prose.bytes)}; ${missing.length} sources missing`,
  );
  return manifest;
}

/** Two specs of one package (python3.11's Lib and its C) share a slug: one entry each. */
function mergeEntries(entries: SourceEntry[]): SourceEntry[] {
  const bySlug = new Map<string, SourceEntry>();
  for (const e of entries) {
    const have = bySlug.get(e.slug);
    if (have === undefined) {
      bySlug.set(e.slug, structuredClone(e));
      continue;
    }
    have.files += e.files;
    have.bytes += e.bytes;
    for (const [l, c] of Object.entries(e.byLang) as [Lang, LangCount][]) {
      const t = have.byLang[l] ??= { files: 0, bytes: 0 };
      t.files += c.files;
      t.bytes += c.bytes;
    }
    for (const k of Object.keys(have.dropped) as (keyof SourceEntry["dropped"])[]) {
      have.dropped[k] += e.dropped[k];
    }
    addProse(have.prose, e.prose);
  }
  return [...bySlug.values()];
}

/** Adds `more` into `into`, per format too. */
function addProse(into: ProseCount, more: ProseCount): void {
  into.files += more.files;
  into.bytes += more.bytes;
  for (const [f, c] of Object.entries(more.byFormat) as [ProseFormat, LangCount][]) {
    const t = into.byFormat[f] ??= { files: 0, bytes: 0 };
    t.files += c.files;
    t.bytes += c.bytes;
  }
}

/** The sha256 of a file, hex; read in 1 MiB pieces. */
async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  using file = await Deno.open(path);
  const buf = new Uint8Array(1 << 20);
  for (let n = await file.read(buf); n !== null; n = await file.read(buf)) {
    h.update(buf.subarray(0, n));
  }
  return h.digest("hex");
}

/** A fetched tarball and the version it holds. */
interface Archive {
  path: string;
  version: string;
  bytes: number;
}

/** `npm pack` of each pinned package into `dest` (skipped when the tarball is there), 6 at a time. */
async function fetchNpm(
  specs: readonly SourceSpec[],
  dest: string,
  missing: Manifest["missing"],
  log: (m: string) => void,
): Promise<Map<string, Archive>> {
  const out = new Map<string, Archive>();
  const queue = [...specs];
  const worker = async () => {
    for (let spec = queue.shift(); spec !== undefined; spec = queue.shift()) {
      const id = `${spec.name}@${spec.version}`;
      const file = join(
        dest,
        `${spec.name.replace(/^@/, "").replace(/\//g, "-")}-${spec.version}.tgz`,
      );
      if (!exists(file)) {
        const r = await new Deno.Command("npm", {
          args: ["pack", id, "--pack-destination", dest, "--silent", "--ignore-scripts"],
          cwd: dest,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).output().catch((e) => {
          throw new CorpusError(
            `Cannot run npm to fetch "${id}": ${(e as Error).message}; install Node.js and npm`,
          );
        });
        if (r.code !== 0 || !exists(file)) {
          const reason = new TextDecoder().decode(r.stderr).trim().split("\n").slice(-2).join(" ");
          missing.push({ kind: "npm", name: id, reason: reason || `npm pack exited ${r.code}` });
          log(`  missing npm ${id}: ${reason}`);
          continue;
        }
      }
      out.set(id, { path: file, version: spec.version!, bytes: Deno.statSync(file).size });
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return out;
}

/**
 * `apt-get source --download-only` of each package into `dest/<name>/`,
 * against a private deb-src list for the machine's Debian release (its lists
 * live under `dir/apt`, the machine's own apt state is not touched). The
 * archive is the `.orig.tar.*` (or a native package's `.tar.*`); debian/
 * patches are not applied. A package whose orig tarball is not served is
 * recorded as missing.
 */
async function fetchDeb(
  dir: string,
  names: readonly string[],
  dest: string,
  missing: Manifest["missing"],
  log: (m: string) => void,
): Promise<Map<string, Archive>> {
  const out = new Map<string, Archive>();
  let aptArgs: string[] | undefined;
  for (const name of names) {
    const pkgDir = join(dest, name);
    let found = findDebArchive(pkgDir);
    if (found === undefined) {
      aptArgs ??= await privateAptSources(dir, log);
      Deno.mkdirSync(pkgDir, { recursive: true });
      const r = await new Deno.Command("apt-get", {
        args: [...aptArgs, "source", "--download-only", "-q", name],
        cwd: pkgDir,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      found = findDebArchive(pkgDir);
      if (found === undefined) {
        const err = new TextDecoder().decode(r.stderr).trim().split("\n").filter((l) =>
          l.startsWith("E:")
        )[0] ?? `apt-get exited ${r.code}`;
        missing.push({ kind: "deb", name, reason: err });
        log(`  missing deb ${name}: ${err}`);
        continue;
      }
    }
    out.set(name, found);
  }
  return out;
}

function findDebArchive(pkgDir: string): Archive | undefined {
  let names: string[];
  try {
    names = [...Deno.readDirSync(pkgDir)].map((e) => e.name);
  } catch {
    return undefined;
  }
  const dsc = names.find((n) => n.endsWith(".dsc"));
  if (dsc === undefined) return undefined;
  const version = Deno.readTextFileSync(join(pkgDir, dsc)).match(/^Version:\s*(\S+)/m)?.[1] ??
    "?";
  const isTar = (n: string) => /\.tar\.(gz|xz|bz2|zst)$/.test(n);
  const orig = names.find((n) => isTar(n) && /\.orig\.tar\./.test(n)) ??
    names.find((n) => isTar(n) && !/\.debian\.tar\./.test(n) && !/\.orig-/.test(n));
  if (orig === undefined) return undefined;
  const path = join(pkgDir, orig);
  return { path, version, bytes: Deno.statSync(path).size };
}

/** Writes a deb-src list for this machine's release under `dir/apt` and updates it; returns apt-get's options. */
async function privateAptSources(dir: string, log: (m: string) => void): Promise<string[]> {
  const codename = Deno.readTextFileSync("/etc/os-release").match(/^VERSION_CODENAME=(\S+)/m)?.[1];
  if (codename === undefined) {
    throw new CorpusError(
      `Cannot tell the Debian release from /etc/os-release: no VERSION_CODENAME`,
    );
  }
  const apt = join(dir, "apt");
  Deno.mkdirSync(join(apt, "lists", "partial"), { recursive: true });
  const list = join(apt, "sources.list");
  Deno.writeTextFileSync(list, `deb-src http://deb.debian.org/debian ${codename} main\n`);
  const args = [
    "-o",
    `Dir::Etc::SourceList=${list}`,
    "-o",
    "Dir::Etc::SourceParts=/nonexistent",
    "-o",
    `Dir::State::Lists=${join(apt, "lists")}`,
  ];
  log(`  apt-get update of a private deb-src list for ${codename}`);
  const r = await new Deno.Command("apt-get", {
    args: [...args, "update", "-q"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output().catch((e) => {
    throw new CorpusError(
      `Cannot run apt-get: ${(e as Error).message}; this needs a Debian machine`,
    );
  });
  if (r.code !== 0) {
    throw new CorpusError(
      `apt-get update of the deb-src list "${list}" failed: ${
        new TextDecoder().decode(r.stderr).trim().slice(-500)
      }; run as root with the Debian archive reachable`,
    );
  }
  return args;
}

/** The one folder a tarball unpacked into (`package/`, `git-2.39.5/`), else `root` itself. */
function singleTopFolder(root: string): string {
  const entries = [...Deno.readDirSync(root)];
  return entries.length === 1 && entries[0]!.isDirectory ? join(root, entries[0]!.name) : root;
}

/**
 * Picks the files of one spec from an unpacked package and moves them into
 * `dest`: by language, folder and size first, then each language's cap as
 * an evenly spaced subset of the sorted candidates.
 */
function selectFiles(
  spec: SourceSpec,
  root: string,
  dest: string,
): Omit<SourceEntry, "slug" | "version" | "archive" | "archiveBytes" | "sha256" | "prose"> {
  const ignored = new Set(DEFAULT_IGNORED_DIRS);
  const dropped = { ignoredDir: 0, tooLarge: 0, capped: 0, secretName: 0 };
  const candidates = new Map<Lang, { rel: string; size: number }[]>();
  for (const rel of listTree(root)) {
    const lang = langOf(rel);
    if (lang === undefined || !(lang in spec.langs)) continue;
    if (spec.under !== undefined && !spec.under.some((u) => rel.startsWith(u))) continue;
    const dirs = rel.split("/").slice(0, -1);
    if (dirs.some((d) => ignored.has(d) || d.startsWith("."))) {
      dropped.ignoredDir++;
      continue;
    }
    if (isSecretName(basename(rel)) || basename(rel).startsWith(".")) {
      dropped.secretName++;
      continue;
    }
    const size = Deno.statSync(join(root, rel)).size;
    if (size > MAX_FILE_BYTES) {
      dropped.tooLarge++;
      continue;
    }
    let list = candidates.get(lang);
    if (list === undefined) candidates.set(lang, list = []);
    list.push({ rel, size });
  }
  const byLang: Partial<Record<Lang, LangCount>> = {};
  let files = 0, bytes = 0;
  for (const [lang, list] of candidates) {
    const cap = spec.langs[lang] ?? 0;
    const keep = list.length <= cap
      ? list
      : Array.from({ length: cap }, (_, i) => list[Math.floor((i * list.length) / cap)]!);
    dropped.capped += list.length - keep.length;
    const count = byLang[lang] = { files: 0, bytes: 0 };
    for (const f of keep) {
      const to = join(dest, f.rel);
      Deno.mkdirSync(join(to, ".."), { recursive: true });
      Deno.renameSync(join(root, f.rel), to);
      count.files++;
      count.bytes += f.size;
    }
    files += count.files;
    bytes += count.bytes;
  }
  return { kind: spec.kind, name: spec.name, files, bytes, byLang, dropped };
}

/**
 * Picks the prose files of one spec from an unpacked package and moves them
 * into `dest`: by extension, folder, name and size (see the module doc),
 * then the spec's cap as an evenly spaced subset of the sorted candidates.
 * A spec without prose (and not npm) keeps none.
 */
function selectProse(spec: SourceSpec, root: string, dest: string): ProseCount {
  const want = spec.prose ?? (spec.kind === "npm" ? NPM_PROSE : undefined);
  const out: ProseCount = { files: 0, bytes: 0, byFormat: {} };
  if (want === undefined) return out;
  const ignored = new Set(DEFAULT_IGNORED_DIRS);
  const candidates: { rel: string; size: number; format: ProseFormat }[] = [];
  for (const rel of listTree(root)) {
    const format = proseFormatOf(rel);
    if (format === undefined) continue;
    if (want.under !== undefined && !want.under.some((u) => rel.startsWith(u))) continue;
    if (want.skip?.some((u) => rel.startsWith(u))) continue;
    const name = basename(rel);
    const dirs = rel.split("/").slice(0, -1);
    if (
      dirs.some((d) =>
        ignored.has(d) || d.startsWith(".") || PROSE_SKIP_DIRS.has(d.toLowerCase())
      ) ||
      name.startsWith(".") || isSecretName(name) || PROSE_SKIP_NAME.test(name)
    ) continue;
    const size = Deno.statSync(join(root, rel)).size;
    if (size < MIN_PROSE_BYTES || size > MAX_FILE_BYTES) continue;
    candidates.push({ rel, size, format });
  }
  const cap = want.cap;
  const keep = candidates.length <= cap
    ? candidates
    : Array.from({ length: cap }, (_, i) => candidates[Math.floor((i * candidates.length) / cap)]!);
  for (const f of keep) {
    const to = join(dest, f.rel);
    Deno.mkdirSync(join(to, ".."), { recursive: true });
    Deno.renameSync(join(root, f.rel), to);
    out.files++;
    out.bytes += f.size;
    const c = out.byFormat[f.format] ??= { files: 0, bytes: 0 };
    c.files++;
    c.bytes += f.size;
  }
  return out;
}

function removeIfPresent(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

async function run(cmd: string, args: string[], what: string): Promise<void> {
  const r = await new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "piped" })
    .output();
  if (r.code !== 0) {
    throw new CorpusError(
      `Cannot ${what}: ${cmd} exited ${r.code}: ${
        new TextDecoder().decode(r.stderr).trim().slice(-500)
      }`,
    );
  }
}

/** The manifest as a table: one row per language, then the totals. */
export function renderManifest(m: Manifest): string {
  const rows = L3_LANGUAGES.map((l) => {
    const c = m.totals.byLang[l];
    const srcs = m.sources.filter((s) => (s.byLang[l]?.files ?? 0) > 0).length;
    return `  ${l.padEnd(11)} ${String(c.files).padStart(6)} files  ${
      fmtMiB(c.bytes).padStart(10)
    }  from ${srcs} sources`;
  });
  const npm = m.sources.filter((s) => s.kind === "npm").length;
  const deb = m.sources.filter((s) => s.kind === "deb").length;
  const proseRows = PROSE_FORMATS.map((f) => {
    const c = m.prose.byFormat[f] ?? { files: 0, bytes: 0 };
    const srcs = m.sources.filter((s) => (s.prose.byFormat[f]?.files ?? 0) > 0).length;
    return `  prose .${f.padEnd(5)} ${String(c.files).padStart(6)} files  ${
      fmtMiB(c.bytes).padStart(10)
    }  from ${srcs} sources`;
  });
  return [
    `corpus ${m.tree}: ${m.totals.files} files, ${fmtMiB(m.totals.bytes)}, ` +
    `${npm} npm packages + ${deb} Debian source packages (built ${m.builtAt}; ` +
    `archive sha256 in ${join(m.dir, "manifest.json")})`,
    ...rows,
    `prose ${m.proseTree}: ${m.prose.files} files, ${fmtMiB(m.prose.bytes)}`,
    ...proseRows,
    ...(m.missing.length > 0
      ? [`  missing: ${m.missing.map((x) => `${x.kind}:${x.name}`).join(", ")}`]
      : []),
  ].join("\n");
}

async function main(): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: Deno.args,
      options: {
        dir: { type: "string", default: "/tmp/heimdall-corpus" },
        rebuild: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
      },
    }).values;
  } catch (e) {
    console.error(
      `${
        (e as Error).message
      }\nusage: deno run -A scripts/bench_corpus.ts [--dir DIR] [--rebuild] [--json]`,
    );
    return 2;
  }
  try {
    const m = await loadOrBuildCorpus({
      dir: values.dir,
      rebuild: values.rebuild,
      log: (s) => console.error(`[bench_corpus] ${s}`),
    });
    console.log(values.json ? JSON.stringify(m, null, 2) : renderManifest(m));
    return 0;
  } catch (e) {
    console.error(`bench_corpus failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main());
