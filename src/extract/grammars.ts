/**
 * Loads tree-sitter grammars and query files that ship beside the code, the
 * only place that imports web-tree-sitter.
 *
 * Everything is read from files relative to this module (`grammars/`,
 * `wasm/`, `src/extract/queries/`), never from node_modules or the network,
 * so `deno run` and a `deno compile --include grammars --include wasm
 * --include src/extract/queries` binary behave the same.
 */
import { EnvironmentError, errorText } from "../errors/mod.ts";
import { Edit, Language, Parser, Query } from "web-tree-sitter";
import { createHash } from "node:crypto";
import { languageSpec } from "./languages.ts";
import { markPatterns } from "./source_marks.ts";
import { expandFamilies } from "./query_families.ts";
import { type TypeTests, typeTests } from "./type_predicates.ts";

export type { Language, Node, QueryCapture, QueryMatch, Tree } from "web-tree-sitter";
export { Edit, Parser, Query };

/**
 * A grammar ready to parse: one parser bound to it and its compiled query
 * (the language's query files with their pattern families expanded, see
 * ./query_families.ts, then the generated comment and literal patterns of
 * ./source_marks.ts), with the query's `#type?` tests, which its matches
 * must pass (see ./type_predicates.ts).
 *
 * @internal
 */
export interface LoadedGrammar {
  language: string;
  parser: Parser;
  query: Query;
  typeTests: TypeTests;
}

/** A grammar that could not be loaded: which one, and why (for an L1 reason). */
export class GrammarLoadError extends EnvironmentError {
  /** The grammar for `language` could not be loaded, for `reason`. */
  constructor(readonly language: string, readonly reason: string) {
    super(`Cannot load the tree-sitter grammar for "${language}": ${reason}`);
    this.name = "GrammarLoadError";
  }
}

interface ManifestEntry {
  language: string;
  wasm: string;
  sha256: string;
}

interface Manifest {
  runtime: { wasm: string; sha256: string };
  grammars: ManifestEntry[];
}

/** Where the shipped files live; tests may point a store at a copy. */
export interface GrammarPaths {
  /** The folder of grammar `.wasm` files and their `manifest.json`. */
  grammars: URL;
  /** web-tree-sitter's own `.wasm`. */
  runtime: URL;
  /** The folder of per-language query files. */
  queries: URL;
}

/** The folders beside this module, valid under `deno run` and in a compiled binary. */
export function defaultGrammarPaths(): GrammarPaths {
  return {
    grammars: new URL("../../grammars/", import.meta.url),
    runtime: new URL("../../wasm/web-tree-sitter.wasm", import.meta.url),
    queries: new URL("./queries/", import.meta.url),
  };
}

// web-tree-sitter keeps one wasm instance per JS realm (per process or Worker);
// it is initialised once, and a grammar is instantiated once (its memory is
// never freed), whatever the number of stores.
let runtimeReady: Promise<void> | undefined;
const instantiated = new Map<string, Promise<LoadedGrammar>>();

/**
 * Lazily loads and caches grammars. `availability()` is synchronous and cheap
 * (a manifest read and a stat per language, cached); `load()` reads, checks
 * (sha256) and instantiates the grammar the first time a language is asked
 * for, then returns the cached one. A failed load is remembered: the
 * language stays unavailable for the life of the store.
 */
export class GrammarStore {
  #paths: GrammarPaths;
  #manifest: Manifest | string | undefined;
  #available = new Map<string, string | undefined>();
  #loads = new Map<string, Promise<LoadedGrammar>>();
  #failed = new Map<string, string>();

  /** A store reading grammars from `paths` (default: the files shipped beside the code). */
  constructor(paths: GrammarPaths = defaultGrammarPaths()) {
    this.#paths = paths;
  }

  /** `undefined` when the language can be parsed, else the reason it cannot. */
  availability(language: string | undefined): string | undefined {
    const spec = languageSpec(language);
    if (language === undefined || spec === undefined) {
      return language ? `no tree-sitter grammar for ${language}` : "unknown language";
    }
    const failed = this.#failed.get(language);
    if (failed !== undefined) return failed;
    if (this.#available.has(language)) return this.#available.get(language);
    const reason = this.#check(language, spec.grammar, spec.queries);
    this.#available.set(language, reason);
    return reason;
  }

  /** The loaded grammar; rejects with {@link GrammarLoadError} (and remembers it). */
  load(language: string): Promise<LoadedGrammar> {
    let p = this.#loads.get(language);
    if (p === undefined) {
      p = this.#load(language).catch((e: unknown) => {
        const reason = e instanceof GrammarLoadError ? e.reason : errorText(e);
        this.#failed.set(language, `grammar failed to load: ${reason}`);
        throw e instanceof GrammarLoadError ? e : new GrammarLoadError(language, reason);
      });
      this.#loads.set(language, p);
    }
    return p;
  }

  #check(language: string, grammar: string, queries: readonly string[]): string | undefined {
    const manifest = this.#readManifest();
    if (typeof manifest === "string") return manifest;
    const entry = manifest.grammars.find((g) => g.language === grammar);
    if (!entry) return `grammar "${grammar}" for ${language} is not in grammars/manifest.json`;
    for (const url of [new URL(entry.wasm, this.#paths.grammars), ...this.#queryUrls(queries)]) {
      try {
        Deno.statSync(url);
      } catch (e: unknown) {
        return `missing ${url.pathname}: ${errorText(e)}`;
      }
    }
    return undefined;
  }

  #readManifest(): Manifest | string {
    if (this.#manifest === undefined) {
      const url = new URL("manifest.json", this.#paths.grammars);
      try {
        this.#manifest = JSON.parse(Deno.readTextFileSync(url)) as Manifest;
      } catch (e: unknown) {
        this.#manifest = `cannot read ${url.pathname}: ${
          errorText(e)
        }; run scripts/fetch_grammars.ts`;
      }
    }
    return this.#manifest;
  }

  #queryUrls(queries: readonly string[]): URL[] {
    return queries.map((q) => new URL(`${q}.scm`, this.#paths.queries));
  }

  async #load(language: string): Promise<LoadedGrammar> {
    const reason = this.availability(language);
    if (reason !== undefined) throw new GrammarLoadError(language, reason);
    const spec = languageSpec(language)!;
    const manifest = this.#readManifest() as Manifest;
    const entry = manifest.grammars.find((g) => g.language === spec.grammar)!;

    await this.#initRuntime(manifest);
    const bytes = await Deno.readFile(new URL(entry.wasm, this.#paths.grammars));
    const digest = sha256(bytes);
    if (digest !== entry.sha256) {
      throw new GrammarLoadError(
        language,
        `${entry.wasm} has sha256 ${digest}, manifest says ${entry.sha256}; run scripts/fetch_grammars.ts`,
      );
    }
    const sources = await Promise.all(
      this.#queryUrls(spec.queries).map(async (u, i) =>
        expandFamilies(await Deno.readTextFile(u), spec.queries[i]!)
      ),
    );
    const key = `${entry.sha256}\u0000${
      sources.join("\u0000")
    }\u0000${spec.wrappers}\u0000${spec.decorators}`;
    let p = instantiated.get(key);
    if (p === undefined) {
      p = instantiate(language, bytes, spec.queries, sources.join("\n"));
      instantiated.set(key, p);
      p.catch(() => instantiated.delete(key));
    }
    return { ...(await p), language };
  }

  #initRuntime(manifest: Manifest): Promise<void> {
    runtimeReady ??= (async () => {
      const wasmBinary = await Deno.readFile(this.#paths.runtime);
      if (sha256(wasmBinary) !== manifest.runtime.sha256) {
        throw new Error(`${this.#paths.runtime.pathname} does not match grammars/manifest.json`);
      }
      await Parser.init({ wasmBinary });
    })();
    return runtimeReady.catch((e: unknown) => {
      runtimeReady = undefined;
      throw new Error(`web-tree-sitter runtime failed to start: ${errorText(e)}`);
    });
  }
}

async function instantiate(
  language: string,
  bytes: Uint8Array,
  queries: readonly string[],
  source: string,
): Promise<LoadedGrammar> {
  const grammar = await Language.load(bytes);
  let query: Query;
  let tests: TypeTests;
  try {
    query = new Query(grammar, source + markPatterns(grammar, languageSpec(language) ?? {}));
    tests = typeTests(query, grammar);
  } catch (e: unknown) {
    throw new GrammarLoadError(
      language,
      `query ${queries.join("+")}.scm does not compile: ${errorText(e)}`,
    );
  }
  const parser = new Parser();
  parser.setLanguage(grammar);
  return { language, parser, query, typeTests: tests };
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
