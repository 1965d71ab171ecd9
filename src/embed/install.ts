/**
 * Installing a model into `$HEIMDALL_HOME/models/<name>/`: `pullModel`
 * downloads the files a manifest lists, `importModel` copies them from a
 * local folder. Both check every file against its pinned sha256 (or record
 * the digest they measured when none is pinned) and write `manifest.json`
 * last, so a folder with a manifest is a complete model.
 *
 * Downloads resume: bytes arrive in `<file>.part`, and a later pull asks
 * the server for the rest with an HTTP `Range` request (a server that
 * ignores it sends the whole file again, which is written from the start).
 * An interrupted download keeps its `.part`; a finished one whose digest is
 * wrong is deleted, since resuming it cannot make it right.
 */
import { EnvironmentError, UsageError } from "../errors/mod.ts";
import { createHash, type Hash } from "node:crypto";
import { basename, join } from "../files/mod.ts";
import { Embedder, ModelLoadError } from "./embedder.ts";
import { ManifestError, type ModelFile, type ModelManifest, parseManifest } from "./manifest.ts";
import { NativeUnavailableError } from "./ort_native.ts";
import { WasmRuntimeError } from "./ort_wasm.ts";

/** A file's bytes are not the ones the manifest pins. */
export class ChecksumMismatchError extends EnvironmentError {
  /**
   * `file` has `actual` where `expected` was pinned (by `what`, sha256 unless said); `remedy` says
   * what to do.
   */
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly actual: string,
    remedy: string,
    what = "sha256",
  ) {
    super(`"${file}" has ${what} ${actual}, expected ${expected}; ${remedy}`);
    this.name = "ChecksumMismatchError";
  }
}

/** The folder a model is imported from lacks what the model needs; the message names both and the fix. */
export class ModelSourceError extends UsageError {
  /** `folder` lacks `missing`; `message` says so, with the fix. */
  constructor(readonly folder: string, readonly missing: string, message: string) {
    super(message);
    this.name = "ModelSourceError";
  }
}

/**
 * A model's files are all there and match the manifest, but do not make a
 * working model (a graph that does not load, a tokenizer of another model,
 * `dims` that are not the graph's); nothing was installed.
 */
export class ModelCheckError extends UsageError {
  /** Model `model` does not work, as `message` says (what failed and the fix). */
  constructor(readonly model: string, message: string) {
    super(message);
    this.name = "ModelCheckError";
  }
}

/** A download failed; `done` bytes are kept in the `.part` file for the next try. */
export class DownloadError extends EnvironmentError {
  /** The download of `url` failed as `message` says, after `done` bytes. */
  constructor(message: string, readonly url: string, readonly done: number) {
    super(message);
    this.name = "DownloadError";
  }
}

/** Progress of one file: bytes so far and the total when the server said it. */
export interface FileProgress {
  /** The file's name. */
  file: string;
  /** Bytes so far. */
  done: number;
  /** All its bytes, when the server said; else null. */
  total: number | null;
}

/** What an install did to one file. */
export interface InstalledFile {
  /** The file's name. */
  name: string;
  /** Its size in bytes. */
  bytes: number;
  /** Its sha256, lower-case hex. */
  sha256: string;
  /** True when the manifest pinned this digest (and it matched); false when it was only recorded. */
  pinned: boolean;
  /** How: downloaded, resumed (bytes were already there), kept (already complete), copied. */
  how: "downloaded" | "resumed" | "kept" | "copied";
}

/** The result of an install. */
export interface InstallResult {
  /** The model's name. */
  name: string;
  /** The folder it was installed into. */
  dir: string;
  /** What was done to each of its files. */
  files: InstalledFile[];
}

const CHUNK = 1 << 20;

/** sha256 of a file, streamed. */
async function hashFile(path: string, h: Hash = createHash("sha256")): Promise<Hash> {
  const f = await Deno.open(path);
  try {
    const buf = new Uint8Array(CHUNK);
    for (;;) {
      const n = await f.read(buf);
      if (n === null) break;
      h.update(buf.subarray(0, n));
    }
  } finally {
    f.close();
  }
  return h;
}

async function size(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return -1;
    throw e;
  }
}

function check(file: ModelFile, path: string, digest: string, remedy: string): void {
  if (file.sha256 !== null && digest !== file.sha256) {
    throw new ChecksumMismatchError(path, file.sha256, digest, remedy);
  }
}

/** Writes the installed manifest (digests and sizes filled in) atomically. */
async function writeManifest(
  dir: string,
  manifest: ModelManifest,
  files: InstalledFile[],
): Promise<void> {
  const out = {
    ...manifest,
    files: manifest.files.map((f) => {
      const got = files.find((g) => g.name === f.name)!;
      return { ...f, sha256: got.sha256, bytes: got.bytes };
    }),
  };
  const path = join(dir, "manifest.json");
  const tmp = `${path}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(out, null, 2) + "\n", { mode: 0o600 });
  await Deno.rename(tmp, path);
}

/**
 * Runs `work` holding an exclusive lock on model `name` (a `.<name>.lock`
 * file beside the models, never a model itself): two installs of one model
 * at once take turns, so the second replaces the first whole instead of the
 * two mixing their files under one manifest.
 */
async function withModelLock<T>(
  modelsDir: string,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  // Under $HEIMDALL_HOME, which is the user's alone (see src/config/private_files.ts).
  await Deno.mkdir(modelsDir, { recursive: true, mode: 0o700 });
  const lock = await Deno.open(join(modelsDir, `.${name}.lock`), {
    create: true,
    write: true,
    mode: 0o600,
  });
  try {
    await lock.lock(true);
    return await work();
  } finally {
    lock.close();
  }
}

/**
 * Options of {@link pullModel}.
 *
 * @internal
 */
export interface PullOptions extends CheckOptions {
  onProgress?: (p: FileProgress) => void;
  signal?: AbortSignal;
}

/**
 * How an install checks the model it installs: it loads it and runs it once
 * (see {@link checkModel}).
 *
 * @internal
 */
export interface CheckOptions {
  /** Where the native runtime may be extracted to run the check (`$HEIMDALL_HOME/lib`). */
  libDir: string;
}

/**
 * Loads the model in `dir` as `manifest` describes it and runs it once
 * ({@link Embedder.check}). Throws {@link ModelCheckError} when the model
 * does not work (`where` says where it came from, `remedy` what to do,
 * `shown` turns the paths it loaded into the ones to name), and
 * the runtime's own environment errors (no runtime at all) as they are.
 * Costs one model load: seconds for a large model.
 */
async function checkModel(
  dir: string,
  manifest: ModelManifest,
  options: CheckOptions,
  where: string,
  remedy: string,
  shown: (message: string) => string = (message) => message,
): Promise<void> {
  let embedder: Embedder | undefined;
  try {
    embedder = await Embedder.load(dir, manifest, { libDir: options.libDir });
    await embedder.check();
  } catch (e) {
    if (e instanceof NativeUnavailableError || e instanceof WasmRuntimeError) throw e;
    // A ModelLoadError says its own remedy; the runtime's errors (a graph that does not parse) do not.
    throw new ModelCheckError(
      manifest.name,
      `Cannot install "${manifest.name}" from ${where}: ${shown((e as Error).message.trim())}; ${
        e instanceof ModelLoadError ? "" : "check that the files are whole and belong together; "
      }${remedy}`,
    );
  } finally {
    await embedder?.close();
  }
}

/**
 * Downloads every file of `manifest` into `modelsDir/<name>/`, resuming
 * `.part` files, then writes the manifest. Throws {@link DownloadError}
 * (network, HTTP status; partial bytes kept), {@link ChecksumMismatchError}
 * (bad bytes; the file is deleted) or a permission error when this process
 * may not reach the host.
 */
export async function pullModel(
  manifest: ModelManifest,
  modelsDir: string,
  options: PullOptions,
): Promise<InstallResult> {
  const dir = join(modelsDir, manifest.name);
  const missingUrl = manifest.files.find((f) => f.url === null);
  if (missingUrl) {
    throw new DownloadError(
      `Model "${manifest.name}" lists "${missingUrl.name}" without a URL; install it with heimdall model import ${manifest.name} --from DIR`,
      "",
      0,
    );
  }
  return await withModelLock(modelsDir, manifest.name, () => pullFiles(manifest, dir, options));
}

async function pullFiles(
  manifest: ModelManifest,
  dir: string,
  options: PullOptions,
): Promise<InstallResult> {
  // Under $HEIMDALL_HOME, which is the user's alone (see src/config/private_files.ts).
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const files: InstalledFile[] = [];
  try {
    for (const f of manifest.files) files.push(await pullFile(f, join(dir, f.name), options));
  } catch (e) {
    // Leave no empty folder behind (a folder with .part files stays, for the resume).
    await Deno.remove(dir).catch(() => {});
    throw e;
  }
  // Without a manifest the folder stays an unfinished install: its checked files are kept.
  await checkModel(
    dir,
    manifest,
    options,
    `downloaded to "${dir}"`,
    "the files are kept (they match the manifest) and no manifest.json was written; fix the manifest and pull again",
  );
  await writeManifest(dir, manifest, files);
  return { name: manifest.name, dir, files };
}

async function pullFile(f: ModelFile, dest: string, options: PullOptions): Promise<InstalledFile> {
  const url = f.url!;
  const destSize = await size(dest);
  if (destSize >= 0 && (f.bytes === null || destSize === f.bytes)) {
    // Only a finished download is ever renamed to its final name.
    const digest = (await hashFile(dest)).digest("hex");
    if (f.sha256 === null || digest === f.sha256) {
      return {
        name: f.name,
        bytes: destSize,
        sha256: digest,
        pinned: f.sha256 !== null,
        how: "kept",
      };
    }
    await Deno.remove(dest);
  }
  const part = `${dest}.part`;
  let start = Math.max(0, await size(part));
  if (f.bytes !== null && start > f.bytes) {
    await Deno.remove(part);
    start = 0;
  }
  const hash = start > 0 ? await hashFile(part) : createHash("sha256");
  let res: Response;
  try {
    res = await fetch(url, {
      headers: start > 0 ? { Range: `bytes=${start}-` } : {},
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
      throw new DownloadError(
        `Not allowed to reach "${url}" (${
          (e as Error).message
        }); download the files yourself and run heimdall model import, or give this heimdall network access to that host`,
        url,
        start,
      );
    }
    throw new DownloadError(
      `Cannot download "${url}": ${(e as Error).message}; ${resumeHint(start)}`,
      url,
      start,
    );
  }
  let done = start;
  let how: InstalledFile["how"] = start > 0 ? "resumed" : "downloaded";
  if (res.status === 416 && start > 0) {
    // Nothing after `start`: the part already holds the whole file.
    await res.body?.cancel();
  } else if (res.ok) {
    const append = res.status === 206 && start > 0;
    const from = /^bytes (\d+)-/.exec(res.headers.get("content-range") ?? "");
    if (append && from && Number(from[1]) !== start) {
      await res.body?.cancel();
      await Deno.remove(part);
      throw new DownloadError(
        `"${url}" answered a request for bytes ${start}- with bytes ${
          from[1]
        }-; the partial file was removed, run the same command again`,
        url,
        0,
      );
    }
    if (!append && start > 0) {
      // The server ignored Range and sent the whole file: start over.
      done = 0;
      how = "downloaded";
    }
    const h = append ? hash : createHash("sha256");
    const total = contentTotal(res, append ? start : 0) ?? f.bytes;
    const out = await Deno.open(part, {
      write: true,
      create: true,
      append,
      truncate: !append,
      mode: 0o600,
    });
    try {
      for await (const chunk of res.body!) {
        let w = 0;
        while (w < chunk.length) w += await out.write(chunk.subarray(w));
        h.update(chunk);
        done += chunk.length;
        options.onProgress?.({ file: f.name, done, total });
      }
    } catch (e) {
      throw new DownloadError(
        `Download of "${url}" stopped at ${done} of ${total ?? "?"} bytes: ${
          (e as Error).message
        }; ${resumeHint(done)}`,
        url,
        done,
      );
    } finally {
      out.close();
    }
    if (total !== null && done < total) {
      throw new DownloadError(
        `Download of "${url}" ended at ${done} of ${total} bytes; ${resumeHint(done)}`,
        url,
        done,
      );
    }
    return finish(f, part, dest, h.digest("hex"), done, how);
  } else {
    await res.body?.cancel();
    throw new DownloadError(
      `Download of "${url}" failed: HTTP ${res.status} ${res.statusText}; check the model's URL or your network`,
      url,
      start,
    );
  }
  return finish(f, part, dest, hash.digest("hex"), done, how);
}

function resumeHint(done: number): string {
  return done > 0
    ? `the ${done} bytes received are kept; run the same command again to resume`
    : "run the same command again when the network is back";
}

/** Total size of the resource from Content-Range or Content-Length. */
function contentTotal(res: Response, offset: number): number | null {
  const range = res.headers.get("content-range");
  const m = range ? /\/(\d+)\s*$/.exec(range) : null;
  if (m) return Number(m[1]);
  const len = res.headers.get("content-length");
  return len === null ? null : offset + Number(len);
}

async function finish(
  f: ModelFile,
  part: string,
  dest: string,
  digest: string,
  bytes: number,
  how: InstalledFile["how"],
): Promise<InstalledFile> {
  if (f.bytes !== null && bytes !== f.bytes) {
    await Deno.remove(part);
    throw new ChecksumMismatchError(
      dest,
      `${f.bytes} bytes`,
      `${bytes} bytes`,
      "the download was removed; run the same command again, or check the model's URL",
      "size",
    );
  }
  try {
    check(
      f,
      dest,
      digest,
      "the download was removed; run the same command again, or check the model's URL",
    );
  } catch (e) {
    await Deno.remove(part);
    throw e;
  }
  await Deno.rename(part, dest);
  return { name: f.name, bytes, sha256: digest, pinned: f.sha256 !== null, how };
}

/** Where a model's files may sit in a folder: its own name, the URL's file name, Hugging Face's `onnx/`. */
function candidates(dir: string, f: ModelFile): string[] {
  const names = [f.name];
  if (f.url) names.push(basename(new URL(f.url).pathname));
  return [...new Set(names)].flatMap((n) => [join(dir, n), join(dir, "onnx", n)]);
}

/**
 * Installs model `name` from the local folder `from`: its manifest is
 * `from/manifest.json` when there is one (renamed to `name`), else the
 * built-in `builtin`. Under the model's lock, each file is copied into a
 * staging folder beside the models (one left by a killed import is removed
 * first), hashed and checked, then the model is loaded and run once
 * ({@link checkModel}); only a model that works replaces an installed one
 * of that name. Throws {@link ChecksumMismatchError}, {@link ManifestError}
 * for a `manifest.json` that is not JSON or not a manifest,
 * {@link ModelSourceError} naming a missing file, or
 * {@link ModelCheckError}; then nothing is installed and a model already
 * installed as `name` is as it was.
 */
export async function importModel(
  name: string,
  from: string,
  modelsDir: string,
  builtin: ModelManifest | undefined,
  options: CheckOptions,
): Promise<InstallResult> {
  let manifest: ModelManifest;
  const own = join(from, "manifest.json");
  try {
    manifest = { ...parseManifest(JSON.parse(await Deno.readTextFile(own)), `"${own}"`), name };
  } catch (e) {
    if (e instanceof SyntaxError) {
      throw new ManifestError(`"${own}" is not JSON (${e.message}); fix it or remove it`);
    }
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    if (!builtin) {
      throw new ModelSourceError(
        from,
        "manifest.json",
        `"${from}" has no manifest.json and "${name}" is not a built-in model; add a manifest.json (see the README) or use a built-in name (heimdall model list)`,
      );
    }
    manifest = builtin;
  }
  return await withModelLock(
    modelsDir,
    name,
    () => stageAndInstall(name, from, modelsDir, manifest, options),
  );
}

/** The prefix of the folders an import of `name` stages its files in. */
const stagingPrefix = (name: string) => `.${name}.import-`;

/** {@link importModel}'s work, under the model's lock. */
async function stageAndInstall(
  name: string,
  from: string,
  modelsDir: string,
  manifest: ModelManifest,
  options: CheckOptions,
): Promise<InstallResult> {
  // Holding the lock, any staging folder of this model is left by an import that was killed:
  // it may hold gigabytes, and nothing else will ever remove it.
  for (const e of [...Deno.readDirSync(modelsDir)]) {
    if (e.isDirectory && e.name.startsWith(stagingPrefix(name))) {
      await Deno.remove(join(modelsDir, e.name), { recursive: true });
    }
  }
  // Staged beside the models under a name no model can have (a leading dot): a model's
  // graph names its external weights by file name, so the files keep theirs.
  const staging = await Deno.makeTempDir({ dir: modelsDir, prefix: stagingPrefix(name) });
  try {
    const files: InstalledFile[] = [];
    // A refusal names the user's files, not their copies in a staging folder it removes.
    const sources = new Map<string, string>();
    for (const f of manifest.files) {
      const staged = await stageFile(f, from, staging, name);
      files.push(staged.file);
      sources.set(join(staging, f.name), staged.source);
    }
    await checkModel(
      staging,
      manifest,
      options,
      `"${from}"`,
      "nothing was installed",
      (message) => [...sources].reduce((m, [copy, source]) => m.replaceAll(copy, source), message),
    );
    const dir = join(modelsDir, name);
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    // The old manifest goes first: until the new one is written the folder is an unfinished
    // install, never a complete model whose files are half old, half new.
    await Deno.remove(join(dir, "manifest.json")).catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
    for (const f of files) await Deno.rename(join(staging, f.name), join(dir, f.name));
    await writeManifest(dir, manifest, files);
    return { name, dir, files };
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
}

/**
 * One file of a model copied into `staging` under its own name, and checked
 * against the manifest; with the path it was copied from.
 */
async function stageFile(
  f: ModelFile,
  from: string,
  staging: string,
  name: string,
): Promise<{ file: InstalledFile; source: string }> {
  let source: string | undefined;
  for (const c of candidates(from, f)) {
    if ((await size(c)) >= 0) {
      source = c;
      break;
    }
  }
  if (!source) {
    throw new ModelSourceError(
      from,
      f.name,
      `"${from}" has no ${f.name}${
        f.url && basename(new URL(f.url).pathname) !== f.name
          ? ` (nor ${basename(new URL(f.url).pathname)})`
          : ""
      }; model "${name}" needs it`,
    );
  }
  const dest = join(staging, f.name);
  await Deno.copyFile(source, dest);
  const digest = (await hashFile(dest)).digest("hex");
  const bytes = await size(dest);
  check(f, source, digest, `it is not the file model "${name}" expects`);
  return {
    file: { name: f.name, bytes, sha256: digest, pinned: f.sha256 !== null, how: "copied" },
    source,
  };
}
