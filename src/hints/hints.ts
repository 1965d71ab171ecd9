import { join, resolve } from "../files/mod.ts";
import { ensurePrivateDir, writePrivateFile } from "../config/private_files.ts";
import { parsePatch } from "./patch.ts";

/** A hint that could not be used, and why. */
export interface DroppedHint {
  /** The value as given (cut to 80 characters). */
  value: string;
  /** Why it was dropped (empty, too long, control characters, not a string…). */
  reason: string;
}

const MAX_PATH = 4096;

/**
 * Checks one would-be path from a hint (pure). Returns the absolute, normalised
 * path, or a reason to drop it: empty, control characters, too long, not text.
 */
export function validateHintPath(value: unknown, cwd: string): string | DroppedHint {
  if (typeof value !== "string") {
    return { value: String(value).slice(0, 80), reason: "not a string" };
  }
  const shown = JSON.stringify(value.slice(0, 80));
  if (value.trim() === "") return { value: shown, reason: "empty path" };
  if (value.length > MAX_PATH) {
    return { value: shown, reason: `longer than ${MAX_PATH} characters` };
  }
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f\ufffd]/.test(value)) {
    return { value: shown, reason: "holds control or undecodable characters" };
  }
  return resolve(cwd, value);
}

/**
 * The keys under which harnesses name a file in a hook payload, in the order
 * a tool call's one file is looked for (`hint --stdin` collects them all):
 * Claude Code's and Kiro's `file_path`/`path`, Cursor's `filePath`,
 * `target_file`, Gemini CLI's `absolute_path`, Windsurf's `file`, renames'
 * `new_path`/`old_path`, and lists under `paths`/`files`.
 */
export const HOOK_PATH_KEYS: readonly string[] = [
  "file_path",
  "filePath",
  "path",
  "notebook_path",
  "target_file",
  "targetFile",
  "absolute_path",
  "file",
  "filename",
  "new_path",
  "old_path",
  "paths",
  "files",
];
const PATH_KEYS = new Set(HOOK_PATH_KEYS);

/**
 * Pulls file paths out of a harness's hook JSON (pure): the usual path keys at
 * any depth (`tool_input.file_path`, `tool_info.file_path`, `edits[].path`…)
 * and the file lines of an `apply_patch` body. Relative paths resolve against
 * the payload's `cwd` when it has one.
 */
export function pathsFromHookJson(payload: unknown): { paths: string[]; cwd?: string } {
  const found: string[] = [];
  const cwd = isRecord(payload) && typeof payload.cwd === "string" ? payload.cwd : undefined;
  const visit = (v: unknown, key: string | undefined, depth: number): void => {
    if (depth > 8) return;
    if (typeof v === "string") {
      if (key !== undefined && PATH_KEYS.has(key)) found.push(v);
      else if (v.includes("*** ")) {
        // The same reading of an apply_patch body as the hook's (one parser for both).
        for (const f of parsePatch(v)) found.push(f.path, ...(f.moveTo ? [f.moveTo] : []));
      }
      return;
    }
    if (Array.isArray(v)) {
      for (const item of v) visit(item, key, depth + 1);
      return;
    }
    if (isRecord(v)) { for (const [k, item] of Object.entries(v)) visit(item, k, depth + 1); }
  };
  visit(payload, undefined, 0);
  const out: { paths: string[]; cwd?: string } = {
    paths: [...new Set(found.map((p) => p.trim()))],
  };
  if (cwd !== undefined) out.cwd = cwd;
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * How many hint files may wait for a writer, and how many paths they may
 * name in all, before the next hint merges them into one.
 */
export interface HintLimits {
  /** Hint files waiting (default 1,000). */
  files: number;
  /** Distinct paths kept when they are merged, the newest (default 20,000). */
  paths: number;
}

const HINT_LIMITS: HintLimits = { files: 1000, paths: 20_000 };
/** A temporary file this old was left by a hint writer that died before its rename. */
const STALE_TMP_MS = 10 * 60 * 1000;

/**
 * Records "look at these paths" for the writer: one small file per call,
 * written to a temporary name and renamed, so a reader never sees half a hint
 * and no lock is needed. O(1) in the size of the index. When no writer runs
 * to consume them (hooks and searches write hints, only a writer's pass
 * reads them), the hint that finds `limits.files` waiting merges them all
 * into one file of their distinct paths, the newest `limits.paths` of them
 * (any writer's pass audits every root, which finds what the others were
 * about), and removes what a dead writer left half-written: the folder
 * stays bounded however long no writer runs.
 */
export function writeHintFile(
  hintsDir: string,
  paths: readonly string[],
  limits: HintLimits = HINT_LIMITS,
): string {
  ensurePrivateDir(hintsDir);
  const final = writeOne(hintsDir, paths);
  let waiting = 0;
  try {
    for (const e of Deno.readDirSync(hintsDir)) if (e.name.endsWith(".hint")) waiting++;
  } catch {
    return final;
  }
  if (waiting <= limits.files) return final;
  return mergeHintFiles(hintsDir, limits.paths) ?? final;
}

function writeOne(hintsDir: string, paths: readonly string[]): string {
  const name = `${Date.now()}-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}.hint`;
  const tmp = join(hintsDir, `.${name}.tmp`);
  writePrivateFile(tmp, JSON.stringify({ paths }) + "\n");
  const final = join(hintsDir, name);
  Deno.renameSync(tmp, final);
  return final;
}

/**
 * Replaces every hint file in `hintsDir` by one naming their distinct valid
 * paths (the newest `maxPaths`), written before the others are removed, so
 * a crash, a concurrent merge or a writer ingesting at the same time costs
 * duplicate hints, never lost ones. Returns the merged file, or undefined
 * when it could not be written (the files stay as they were).
 */
function mergeHintFiles(hintsDir: string, maxPaths: number): string | undefined {
  const files = readHintFiles(hintsDir, Infinity);
  const newest = new Set<string>();
  for (const f of files.toReversed()) {
    for (const p of f.paths.toReversed()) {
      if (newest.size >= maxPaths) break;
      newest.add(p);
    }
  }
  let merged: string;
  try {
    merged = writeOne(hintsDir, [...newest].reverse());
  } catch {
    return undefined;
  }
  for (const f of files) {
    try {
      Deno.removeSync(f.file);
    } catch { /* removed by a concurrent merge or ingest */ }
  }
  const now = Date.now();
  try {
    for (const e of Deno.readDirSync(hintsDir)) {
      if (!e.name.startsWith(".") || !e.name.endsWith(".tmp")) continue;
      try {
        const file = join(hintsDir, e.name);
        const age = now - (Deno.statSync(file).mtime?.getTime() ?? now);
        if (age > STALE_TMP_MS) Deno.removeSync(file);
      } catch { /* renamed or removed meanwhile */ }
    }
  } catch { /* the hints are written: what is left over goes next time */ }
  return merged;
}

/** One hint file read back: its paths, or why it was dropped. */
export interface HintFile {
  /** The hint file's path. */
  file: string;
  /** The valid paths it names. */
  paths: string[];
  /** What it named that could not be used. */
  dropped: DroppedHint[];
}

/**
 * Reads every complete hint file in `hintsDir` (oldest first), validating each
 * path again: a hint file written by something other than `heimdall hint` is
 * never trusted. Does not delete anything; the writer deletes after enqueueing.
 */
export function readHintFiles(hintsDir: string, limit = 10_000): HintFile[] {
  let names: string[];
  try {
    names = [...Deno.readDirSync(hintsDir)]
      .filter((e) => e.isFile && e.name.endsWith(".hint"))
      .map((e) => e.name)
      .sort()
      .slice(0, limit);
  } catch {
    return [];
  }
  return names.map((name) => parseHintFile(join(hintsDir, name)));
}

function parseHintFile(file: string): HintFile {
  const out: HintFile = { file, paths: [], dropped: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(Deno.readTextFileSync(file));
  } catch (e) {
    out.dropped.push({ value: file, reason: `unreadable hint file: ${(e as Error).message}` });
    return out;
  }
  const list = isRecord(raw) && Array.isArray(raw.paths) ? raw.paths : undefined;
  if (!list) {
    out.dropped.push({ value: file, reason: 'hint file is not {"paths": [...]}' });
    return out;
  }
  for (const p of list) {
    const v = validateHintPath(p, "/");
    if (typeof v === "string" && typeof p === "string" && p.startsWith("/")) out.paths.push(v);
    else if (typeof v === "string") out.dropped.push({ value: String(p), reason: "not absolute" });
    else out.dropped.push(v);
  }
  return out;
}
