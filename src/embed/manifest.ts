/**
 * A model manifest: everything Heimdall needs to know about an embedding
 * model, as data. Which files make it (with their sha256 and where to
 * download them), its width, how token vectors become one vector (CLS or
 * mean), whether to L2-normalise, how many tokens it reads, the prefixes
 * queries and passages get, and how its weights are stored.
 *
 * The built-in manifests live in `manifests/*.json` beside this file; an
 * installed model keeps its own copy in `$HEIMDALL_HOME/models/<name>/`.
 * {@link parseManifest} is pure and says which key is wrong and why.
 */

import { UsageError } from "../errors/mod.ts";
import { sha256Hex } from "../files/mod.ts";
/** How the token vectors of one text become its vector. */
export type Pooling = "cls" | "mean";

/**
 * What a file is for: the ONNX graph, its external weights, or the tokenizer.
 *
 * @internal
 */
export type FileRole = "model" | "weights" | "tokenizer";

/** One file of a model. */
export interface ModelFile {
  /** File name inside the model's folder. */
  name: string;
  /** What the file is for. */
  role: FileRole;
  /** Lower-case hex sha256 of the whole file; null when no digest is pinned. */
  sha256: string | null;
  /** Exact size in bytes when known. */
  bytes: number | null;
  /** Where `heimdall model pull` downloads it from; null for import-only models. */
  url: string | null;
}

/** A validated manifest. */
export interface ModelManifest {
  /** The model's name, also its folder's name under `models/`. */
  name: string;
  /** What the model is, for a person. */
  description: string;
  /** Width of the vectors. */
  dims: number;
  /** How token vectors become one: the first (`cls`) or their mean (`mean`). */
  pooling: Pooling;
  /** True when vectors are L2-normalised after pooling. */
  normalize: boolean;
  /** Truncation, special tokens included. */
  maxTokens: number;
  /** Text put before a query and before a passage (`query: `, `passage: ` for e5). */
  prefixes: { query: string; passage: string };
  /** How the graph stores its weights: `none` (float32/16) or `int8`; informative only. */
  quantization: "none" | "int8";
  /** The output to read; null: `last_hidden_state` if present, else the first output. */
  output: string | null;
  /** Where the model comes from, for a person (a URL or a note). */
  source: string;
  /** Its files. */
  files: ModelFile[];
}

/** A manifest that cannot be used; the message names the key, the value and the fix. */
export class ManifestError extends UsageError {
  /** A manifest refused, as `message` says. */
  constructor(message: string) {
    super(message);
    this.name = "ManifestError";
  }
}

/** Model names: what a folder and a config value can safely hold. */
export const MODEL_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Validates a parsed manifest. Pure; `where` names its origin in error messages. */
export function parseManifest(raw: unknown, where: string): ModelManifest {
  const bad = (key: string, value: unknown, want: string) =>
    new ManifestError(`Invalid ${key} ${JSON.stringify(value)} in ${where}: expected ${want}`);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw bad("manifest", raw, "one JSON object");
  }
  const o = raw as Record<string, unknown>;
  const str = (key: string, dflt?: string): string => {
    const v = o[key] ?? dflt;
    if (typeof v !== "string") throw bad(key, o[key], "a string");
    return v;
  };
  const name = str("name");
  if (!MODEL_NAME.test(name)) {
    throw bad("name", name, "lower-case letters, digits, '.', '_' or '-' (at most 64)");
  }
  const int = (key: string, min: number, dflt?: number): number => {
    const v = o[key] ?? dflt;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
      throw bad(key, o[key], `a whole number ≥ ${min}`);
    }
    return v;
  };
  const pooling = o.pooling;
  if (pooling !== "cls" && pooling !== "mean") throw bad("pooling", pooling, '"cls" or "mean"');
  const quantization = o.quantization ?? "none";
  if (quantization !== "none" && quantization !== "int8") {
    throw bad("quantization", quantization, '"none" or "int8"');
  }
  const prefixes = (o.prefixes ?? {}) as Record<string, unknown>;
  for (const k of ["query", "passage"]) {
    if (prefixes[k] !== undefined && typeof prefixes[k] !== "string") {
      throw bad(`prefixes.${k}`, prefixes[k], "a string");
    }
  }
  if (o.output !== undefined && o.output !== null && typeof o.output !== "string") {
    throw bad("output", o.output, "an output name or null");
  }
  if (o.normalize !== undefined && typeof o.normalize !== "boolean") {
    throw bad("normalize", o.normalize, "true or false");
  }
  if (!Array.isArray(o.files) || o.files.length === 0) throw bad("files", o.files, "a list");
  const files = o.files.map((f, i) => parseFile(f, `files[${i}]`, bad));
  const roles = files.map((f) => f.role);
  for (const need of ["model", "tokenizer"] as const) {
    if (roles.filter((r) => r === need).length !== 1) {
      throw bad("files", files.map((f) => f.name), `exactly one file with role "${need}"`);
    }
  }
  return {
    name,
    description: str("description", ""),
    dims: int("dims", 1),
    pooling,
    normalize: o.normalize !== false,
    maxTokens: int("maxTokens", 3, 512),
    prefixes: {
      query: (prefixes.query as string | undefined) ?? "",
      passage: (prefixes.passage as string | undefined) ?? "",
    },
    quantization,
    output: (o.output as string | null | undefined) ?? null,
    source: str("source", ""),
    files,
  };
}

function parseFile(
  raw: unknown,
  key: string,
  bad: (key: string, value: unknown, want: string) => ManifestError,
): ModelFile {
  if (typeof raw !== "object" || raw === null) throw bad(key, raw, "{name, role, sha256, url}");
  const f = raw as Record<string, unknown>;
  if (typeof f.name !== "string" || !/^[A-Za-z0-9._-]+$/.test(f.name) || f.name.startsWith(".")) {
    throw bad(`${key}.name`, f.name, "a plain file name");
  }
  if (f.role !== "model" && f.role !== "weights" && f.role !== "tokenizer") {
    throw bad(`${key}.role`, f.role, '"model", "weights" or "tokenizer"');
  }
  const sha = f.sha256 ?? null;
  if (sha !== null && (typeof sha !== "string" || !/^[0-9a-f]{64}$/.test(sha))) {
    throw bad(`${key}.sha256`, sha, "64 lower-case hex digits or null");
  }
  const bytes = f.bytes ?? null;
  if (bytes !== null && (typeof bytes !== "number" || !Number.isInteger(bytes) || bytes < 0)) {
    throw bad(`${key}.bytes`, bytes, "a whole number or null");
  }
  const url = f.url ?? null;
  if (url !== null && (typeof url !== "string" || !/^https?:\/\//.test(url))) {
    throw bad(`${key}.url`, url, "an http(s) URL or null");
  }
  return { name: f.name, role: f.role, sha256: sha, bytes, url };
}

/** The file with `role`, which {@link parseManifest} guarantees for model and tokenizer. */
export function fileWithRole(m: ModelManifest, role: FileRole): ModelFile | undefined {
  return m.files.find((f) => f.role === role);
}

/**
 * What makes an installed model's vectors its own: a digest of its files'
 * names, roles, sizes and sha256 (an install records them all) and of what
 * turns token vectors into one. Two installs under one name with other files
 * have other fingerprints, so vectors made by the first are known not to be
 * the second's. Pure; 16 hex digits.
 */
export function modelFingerprint(m: ModelManifest): string {
  const files = m.files.map((f) => `${f.role}\0${f.name}\0${f.bytes}\0${f.sha256}\n`).join("");
  const shape = `${m.dims}\0${m.pooling}\0${m.normalize}\0${m.maxTokens}\0${m.output}\0`;
  return sha256Hex(`${files}${shape}${m.prefixes.query}\0${m.prefixes.passage}`).slice(0, 16);
}
