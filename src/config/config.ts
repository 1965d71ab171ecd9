import { nearest, UsageError } from "../errors/mod.ts";
import { resolve } from "../files/mod.ts";
import { type DepthRequest, parseDepth } from "./depth.ts";

/** One root the user wants indexed. `path` is absolute. */
export interface RootConfig {
  /** The root's absolute path. */
  path: string;
  /** The depth it asks for: a level, or `max` (whatever this build can do). */
  depth: DepthRequest;
}

/** The validated contents of `config.json`. */
export interface Config {
  /** The folders to index. */
  roots: RootConfig[];
  /** Files larger than this are recorded at L1 with reason `too large`, never read whole. */
  maxFileBytes: number;
  /** Seconds between the daemon's stat audits. */
  auditIntervalSeconds: number;
  /** Milliseconds the daemon waits after an event so a burst of writes costs one pass. */
  debounceMs: number;
  /** Paths reconciled per transaction during bulk work. */
  batchSize: number;
  /** The team's shared PostgreSQL (`heimdall team connect`); null: this machine's journal. */
  teamUrl: string | null;
  /** The active embedding model (`heimdall model use NAME`); null: semantic leg off. */
  model: string | null;
  /**
   * Personal memory: a captured statement at least this confident (0–1) is
   * accepted without review; null: every one waits in `heimdall review`.
   */
  personalAutoAccept: number | null;
  /**
   * Personal memory: a command (any local LLM CLI) given a session's
   * transcript path that prints candidate statements, one per line; its
   * output goes through the same review queue and redaction. Null: off.
   */
  distiller: string | null;
  /**
   * Before an edit within reach of a teammate's claim: `pause` the edit once
   * (the harness's deny, where it has one) or only `warn` in the context.
   */
  onConflict: "pause" | "warn";
  /**
   * Weight of the learned prose→code vocabulary in search's ranking. 0 (the
   * default) neither learns it nor reads it; above 0 the index learns it from
   * every documented symbol (the next audit re-derives every file) and search
   * weighs a unit's associations with the query by it.
   */
  vocabularyWeight: number;
}

/** A config value that cannot be used; the message names the key, the value and the fix. */
export class ConfigError extends UsageError {
  /**
   * `key` set to `value` (in `file`, when it came from one) refused; `remedy` says what to set
   * instead.
   */
  constructor(
    readonly key: string,
    readonly value: unknown,
    remedy: string,
    readonly file?: string,
  ) {
    super(
      `Invalid ${key} ${JSON.stringify(value)}${file ? ` in "${file}"` : ""}: ${remedy}`,
    );
    this.name = "ConfigError";
  }
}

/** The defaults, used for every key the file does not set. */
export function defaultConfig(): Config {
  return {
    roots: [],
    maxFileBytes: 1_048_576,
    auditIntervalSeconds: 300,
    debounceMs: 40,
    batchSize: 256,
    teamUrl: null,
    model: null,
    personalAutoAccept: null,
    distiller: null,
    onConflict: "pause",
    vocabularyWeight: 0,
  };
}

/** Every key `config.json` may hold. */
export const CONFIG_KEYS: readonly (keyof Config)[] = Object.keys(
  defaultConfig(),
) as (keyof Config)[];

/**
 * Environment variables that beat the file for one run (`HEIMDALL_MODEL=… heimdall search …`);
 * roots have none: they are the journal's shape, not a one-off.
 */
export const ENV_OVERRIDES: Readonly<Record<string, Exclude<keyof Config, "roots">>> = {
  HEIMDALL_MAX_FILE_BYTES: "maxFileBytes",
  HEIMDALL_AUDIT_INTERVAL_SECONDS: "auditIntervalSeconds",
  HEIMDALL_DEBOUNCE_MS: "debounceMs",
  HEIMDALL_BATCH_SIZE: "batchSize",
  HEIMDALL_TEAM_URL: "teamUrl",
  HEIMDALL_MODEL: "model",
  HEIMDALL_PERSONAL_AUTO_ACCEPT: "personalAutoAccept",
  HEIMDALL_DISTILLER: "distiller",
  HEIMDALL_ON_CONFLICT: "onConflict",
  HEIMDALL_VOCABULARY_WEIGHT: "vocabularyWeight",
};

/**
 * Why `text` cannot be a team store's URL, or null when it can: it must parse
 * as a URL (a password's "#", "/", ":" or "@" percent-encoded), with scheme
 * postgres:// or postgresql:// and a host. Pure; the reason never quotes
 * `text` (it may hold a password). `heimdall team connect` checks with it too.
 *
 * @example
 * ```ts
 * import { teamUrlProblem } from "./config.ts";
 * teamUrlProblem("postgres://ann:p%23ss@db/team"); // null
 * ```
 */
export function teamUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'it does not parse as a URL; percent-encode special characters in the user name and password ("#" as %23, "/" as %2F, ":" as %3A, "@" as %40, "%" as %25)';
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    return "the scheme must be postgres:// (PostgreSQL is the only shared store)";
  }
  if (url.hostname === "") return "no host; expected postgres://USER@HOST[:PORT]/DATABASE";
  return null;
}

/**
 * Validates a parsed `config.json` value. Pure: throws {@link ConfigError} on the
 * first bad key, and on a key it does not know, naming the nearest known one (a
 * misspelt key silently ignored is a setting the user believes is on).
 */
export function parseConfig(raw: unknown, file?: string): Config {
  const config = defaultConfig();
  // Undefined: no file. A file that says `null` is refused like `[]`: read as
  // the defaults, it had no roots, and the next writer pass dropped every file.
  if (raw === undefined) return config;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError("config", raw, "the file must hold one JSON object", file);
  }
  const o = raw as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
      throw new ConfigError(
        "key",
        key,
        `unknown key; did you mean "${nearest(key, CONFIG_KEYS)}"? (known: ${
          CONFIG_KEYS.join(", ")
        })`,
        file,
      );
    }
  }
  if (o.roots !== undefined) {
    if (!Array.isArray(o.roots)) {
      throw new ConfigError("roots", o.roots, "expected a list of {path, depth}", file);
    }
    config.roots = o.roots.map((r, i) => parseRoot(r, i, file));
    // One folder written twice ("/src/app/" and "/src/app") made two roots of
    // it: every file indexed twice, and `roots remove` took out only one.
    config.roots.forEach((r, i) => {
      const first = config.roots.findIndex((x) => x.path === r.path);
      if (first < i) {
        throw new ConfigError(
          `roots[${i}]`,
          r.path,
          `names the same folder as roots[${first}]; remove one of them`,
          file,
        );
      }
    });
  }
  config.maxFileBytes = positiveInt(o, "maxFileBytes", config.maxFileBytes, file);
  config.auditIntervalSeconds = positiveInt(
    o,
    "auditIntervalSeconds",
    config.auditIntervalSeconds,
    file,
  );
  config.debounceMs = positiveInt(o, "debounceMs", config.debounceMs, file, 0);
  config.batchSize = positiveInt(o, "batchSize", config.batchSize, file);
  if (o.teamUrl !== undefined && o.teamUrl !== null) {
    const problem = typeof o.teamUrl === "string"
      ? teamUrlProblem(o.teamUrl)
      : "expected a postgres:// URL";
    if (problem !== null) {
      // Never echo the value: it may hold a password.
      throw new ConfigError(
        "teamUrl",
        "…",
        `${problem}; \`heimdall team connect URL\` checks and sets it`,
        file,
      );
    }
    config.teamUrl = o.teamUrl as string;
  }
  if (o.model !== undefined && o.model !== null) {
    if (typeof o.model !== "string" || !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(o.model)) {
      throw new ConfigError(
        "model",
        o.model,
        "expected a model name; `heimdall model use NAME` sets it",
        file,
      );
    }
    config.model = o.model;
  }
  if (o.personalAutoAccept !== undefined && o.personalAutoAccept !== null) {
    config.personalAutoAccept = numberFrom(
      o,
      "personalAutoAccept",
      [0, 1],
      "expected a confidence from 0 to 1 (null: review every statement)",
      file,
    );
  }
  if (o.distiller !== undefined && o.distiller !== null) {
    if (typeof o.distiller !== "string" || o.distiller.trim() === "") {
      throw new ConfigError(
        "distiller",
        o.distiller,
        'expected a command line, e.g. "llm -m local distill" (null: off)',
        file,
      );
    }
    config.distiller = o.distiller;
  }
  if (o.onConflict !== undefined) {
    if (o.onConflict !== "pause" && o.onConflict !== "warn") {
      throw new ConfigError("onConflict", o.onConflict, 'expected "pause" or "warn"', file);
    }
    config.onConflict = o.onConflict;
  }
  if (o.vocabularyWeight !== undefined) {
    config.vocabularyWeight = numberFrom(
      o,
      "vocabularyWeight",
      [0, 10],
      "expected a number from 0 to 10 (0: the learned vocabulary is off; the benchmark's figures are at 0)",
      file,
    );
  }
  return config;
}

/**
 * `config` with each {@link ENV_OVERRIDES} variable set in `env` in place of
 * the file's value, validated like the file (the error names the variable).
 */
export function withEnvOverrides(
  config: Config,
  env: { get(name: string): string | undefined },
): Config {
  let out = config;
  for (const [name, key] of Object.entries(ENV_OVERRIDES)) {
    const text = env.get(name);
    if (text === undefined || text === "") continue;
    const numeric = typeof config[key] === "number" || key === "personalAutoAccept";
    // ".5" and "5." are numbers too: ".5" was refused as "expected a confidence from 0 to 1".
    const value = numeric && /^-?(\d+\.?\d*|\.\d+)$/.test(text.trim()) ? Number(text.trim()) : text;
    out = { ...out, [key]: parseConfig({ [key]: value }, `$${name}`)[key] };
  }
  return out;
}

/** Every key a root's object in `config.json` may hold. */
const ROOT_KEYS: readonly (keyof RootConfig)[] = ["path", "depth"];

function parseRoot(raw: unknown, i: number, file?: string): RootConfig {
  if (typeof raw === "string") {
    return { path: normalRoot(rootPath(raw, `roots[${i}]`, file)), depth: "max" };
  }
  if (typeof raw !== "object" || raw === null) {
    throw new ConfigError(`roots[${i}]`, raw, 'expected {"path": "/abs/dir"}', file);
  }
  const r = raw as Record<string, unknown>;
  // A misspelt "depth" left the root at max, silently: refused like a misspelt top-level key.
  for (const key of Object.keys(r)) {
    if (!(ROOT_KEYS as readonly string[]).includes(key)) {
      throw new ConfigError(
        `roots[${i}] key`,
        key,
        `unknown key; did you mean "${nearest(key, ROOT_KEYS)}"? (a root holds only ${
          ROOT_KEYS.join(" and ")
        })`,
        file,
      );
    }
  }
  rootPath(r.path, `roots[${i}].path`, file);
  let depth: DepthRequest = "max";
  if (r.depth !== undefined) {
    const parsed = parseDepth(String(r.depth));
    if (parsed === undefined) {
      throw new ConfigError(`roots[${i}].depth`, r.depth, "expected max, L0, L1, L2 or L3", file);
    }
    depth = parsed;
  }
  return { path: normalRoot(r.path as string), depth };
}

/** A root's path without a trailing "/", "//", "/./" or "/../" (how `roots add` writes it). */
function normalRoot(path: string): string {
  return resolve(path);
}

/**
 * A root's path as written, refused unless absolute, and refused when it is
 * the filesystem's root: `roots add /` and `index /` refuse it, and one
 * written by hand made every writer walk every disk and every user's files.
 */
function rootPath(path: unknown, key: string, file?: string): string {
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw new ConfigError(key, path, "expected an absolute folder path", file);
  }
  if (path.split("/").every((part) => part === "" || part === "." || part === "..")) {
    throw new ConfigError(
      key,
      path,
      "the filesystem's root would index every disk and every user's files; name a project folder",
      file,
    );
  }
  return path;
}

/** `o[key]` when it is a number within `range` (inclusive); else the error that says `remedy`. */
function numberFrom(
  o: Record<string, unknown>,
  key: string,
  [min, max]: [number, number],
  remedy: string,
  file: string | undefined,
): number {
  const v = o[key];
  if (typeof v !== "number" || !(v >= min && v <= max)) throw new ConfigError(key, v, remedy, file);
  return v;
}

function positiveInt(
  o: Record<string, unknown>,
  key: string,
  fallback: number,
  file: string | undefined,
  min = 1,
): number {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
    throw new ConfigError(key, v, `expected a whole number ≥ ${min}`, file);
  }
  return v;
}
