/**
 * Fetches the tree-sitter grammars Heimdall ships and writes them under
 * `grammars/<language>/` (the `.wasm`, the package's `queries/tags.scm` for
 * reference, its LICENSE) plus `grammars/manifest.json`, and copies
 * web-tree-sitter's own runtime to `wasm/web-tree-sitter.wasm`.
 *
 * Run it only to add or upgrade a grammar; its output is committed so that
 * tests and the compiled binary never need the network:
 *
 *     deno run --allow-read --allow-write --allow-run --allow-env scripts/fetch_grammars.ts
 *
 * Needs `npm` on PATH (the official grammar packages ship prebuilt `.wasm`).
 * Every grammar is loaded and made to parse a sample with the pinned
 * web-tree-sitter before the manifest is written; any failure exits 1 and
 * leaves the previous manifest in place.
 */
import { Language, Parser } from "web-tree-sitter";
import { createHash } from "node:crypto";
import { join } from "node:path";

/** One grammar: where it comes from and a snippet it must parse without errors. */
interface GrammarSource {
  language: string;
  package: string;
  version: string;
  /** The `.wasm` path inside the package. */
  wasm: string;
  sample: string;
}

/** Adding a language starts here (then a query file and a line in src/extract/languages.ts). */
const GRAMMARS: GrammarSource[] = [
  g("python", "tree-sitter-python", "0.25.0", "tree-sitter-python.wasm", "def f(x):\n  return x\n"),
  g(
    "javascript",
    "tree-sitter-javascript",
    "0.25.0",
    "tree-sitter-javascript.wasm",
    "const f = (x) => x;",
  ),
  g(
    "typescript",
    "tree-sitter-typescript",
    "0.23.2",
    "tree-sitter-typescript.wasm",
    "let x: number = 1;",
  ),
  g(
    "tsx",
    "tree-sitter-typescript",
    "0.23.2",
    "tree-sitter-tsx.wasm",
    "const a = <div>{x as number}</div>;",
  ),
  g("go", "tree-sitter-go", "0.25.0", "tree-sitter-go.wasm", "package main\nfunc f() {}\n"),
  g("rust", "tree-sitter-rust", "0.24.0", "tree-sitter-rust.wasm", "fn f() -> u8 { 1 }"),
  g("java", "tree-sitter-java", "0.23.5", "tree-sitter-java.wasm", "class A { void f() {} }"),
  g("c", "tree-sitter-c", "0.24.1", "tree-sitter-c.wasm", "int f(void) { return 0; }"),
  g("cpp", "tree-sitter-cpp", "0.23.4", "tree-sitter-cpp.wasm", "namespace a { class B {}; }"),
  g(
    "csharp",
    "tree-sitter-c-sharp",
    "0.23.5",
    "tree-sitter-c_sharp.wasm",
    "class A { void F() {} }",
  ),
  g("ruby", "tree-sitter-ruby", "0.23.1", "tree-sitter-ruby.wasm", "class A\n  def f; end\nend\n"),
  g("php", "tree-sitter-php", "0.24.2", "tree-sitter-php.wasm", "<?php function f() {}"),
  g("bash", "tree-sitter-bash", "0.25.1", "tree-sitter-bash.wasm", "f() { echo hi; }\n"),
];

const RUNTIME = { package: "web-tree-sitter", version: "0.27.1", wasm: "web-tree-sitter.wasm" };

function g(
  language: string,
  pkg: string,
  version: string,
  wasm: string,
  sample: string,
): GrammarSource {
  return { language, package: pkg, version, wasm, sample };
}

/** A row of `grammars/manifest.json`; src/extract/grammars.ts reads it. */
interface ManifestEntry {
  language: string;
  package: string;
  version: string;
  wasm: string;
  sha256: string;
  tags?: string;
}

const ROOT = join(import.meta.dirname!, "..");

async function main(): Promise<number> {
  const tmp = await Deno.makeTempDir({ prefix: "heimdall-grammars-" });
  try {
    await npmInstall(tmp);
    const modules = join(tmp, "node_modules");
    const runtimeBytes = await Deno.readFile(join(modules, RUNTIME.package, RUNTIME.wasm));
    await Parser.init({ wasmBinary: runtimeBytes });

    const entries: ManifestEntry[] = [];
    for (const src of GRAMMARS) {
      const pkgDir = join(modules, src.package);
      const bytes = await Deno.readFile(join(pkgDir, src.wasm));
      await verify(src, bytes);
      const outDir = join(ROOT, "grammars", src.language);
      await Deno.mkdir(outDir, { recursive: true });
      await Deno.writeFile(join(outDir, src.wasm), bytes);
      await copyIfPresent(join(pkgDir, "LICENSE"), join(outDir, "LICENSE"));
      const entry: ManifestEntry = {
        language: src.language,
        package: src.package,
        version: src.version,
        wasm: `${src.language}/${src.wasm}`,
        sha256: sha256(bytes),
      };
      if (await copyIfPresent(join(pkgDir, "queries", "tags.scm"), join(outDir, "tags.scm"))) {
        entry.tags = `${src.language}/tags.scm`;
      }
      entries.push(entry);
      console.log(`ok  ${src.language.padEnd(11)} ${src.package}@${src.version}`);
    }

    await Deno.mkdir(join(ROOT, "wasm"), { recursive: true });
    await Deno.writeFile(join(ROOT, "wasm", RUNTIME.wasm), runtimeBytes);
    const manifest = {
      runtime: { ...RUNTIME, sha256: sha256(runtimeBytes) },
      grammars: entries,
    };
    await Deno.writeTextFile(
      join(ROOT, "grammars", "manifest.json"),
      JSON.stringify(manifest, null, 2) + "\n",
    );
    console.log(`wrote grammars/manifest.json (${entries.length} grammars)`);
    return 0;
  } catch (e: unknown) {
    console.error(`fetch_grammars: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

async function npmInstall(dir: string): Promise<void> {
  await Deno.writeTextFile(join(dir, "package.json"), '{ "private": true }\n');
  const specs = new Set(GRAMMARS.map((s) => `${s.package}@${s.version}`));
  specs.add(`${RUNTIME.package}@${RUNTIME.version}`);
  const cmd = new Deno.Command("npm", {
    args: [
      "install",
      "--legacy-peer-deps",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--no-save",
      ...specs,
    ],
    cwd: dir,
    stdout: "inherit",
    stderr: "inherit",
  });
  const { code } = await cmd.output();
  if (code !== 0) {
    throw new Error(
      `npm install exited ${code} in "${dir}"; check that npm can reach its registry`,
    );
  }
}

async function verify(src: GrammarSource, bytes: Uint8Array): Promise<void> {
  const language = await Language.load(bytes);
  const parser = new Parser();
  try {
    parser.setLanguage(language);
    const tree = parser.parse(src.sample);
    if (!tree) throw new Error(`grammar "${src.language}" returned no tree`);
    const broken = tree.rootNode.hasError;
    tree.delete();
    if (broken) {
      throw new Error(
        `grammar "${src.language}" failed to parse its sample ${JSON.stringify(src.sample)}`,
      );
    }
  } finally {
    parser.delete();
  }
}

async function copyIfPresent(from: string, to: string): Promise<boolean> {
  try {
    await Deno.copyFile(from, to);
    return true;
  } catch (e: unknown) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

if (import.meta.main) Deno.exit(await main());
