/**
 * Which models Heimdall knows (the built-in manifests) and which are
 * installed under `$HEIMDALL_HOME/models/<name>/`, and whether the semantic
 * leg is on. Reads only: installing is `install.ts`.
 *
 * A model is installed when its folder holds `manifest.json` (written last,
 * after every file arrived and was checked) and every file it lists, at its
 * recorded size. Sizes, not digests, are checked here: this is a glance for
 * `status`; digests are checked when a file is downloaded or imported.
 */
import { join } from "../files/mod.ts";
import { NO_MODEL_REASON } from "./default_model.ts";
import { MODEL_NAME, type ModelManifest, parseManifest } from "./manifest.ts";
import bgeM3 from "./manifests/bge-m3.json" with { type: "json" };
import bgeM3Int8 from "./manifests/bge-m3-int8.json" with { type: "json" };
import bgeSmall from "./manifests/bge-small-en-v1.5.json" with { type: "json" };
import e5Small from "./manifests/multilingual-e5-small.json" with { type: "json" };
import e5SmallInt8 from "./manifests/multilingual-e5-small-int8.json" with { type: "json" };
import gteSmall from "./manifests/gte-small.json" with { type: "json" };

/** The reference model (quality, long context), first in the built-in list. */
export const REFERENCE_MODEL = "bge-m3";

/** The built-in manifests, reference first. */
export const BUILTIN_MODELS: readonly ModelManifest[] = [
  bgeM3,
  bgeM3Int8,
  bgeSmall,
  e5Small,
  e5SmallInt8,
  gteSmall,
]
  .map((m) => parseManifest(m, `built-in manifest "${m.name}"`));

/** The built-in manifest called `name`, if any. */
export function builtinManifest(name: string): ModelManifest | undefined {
  return BUILTIN_MODELS.find((m) => m.name === name);
}

/**
 * The command that installs model `name` again: `pull` for a built-in (its
 * manifest says where the files are), `import` from a folder for any other
 * (`pull` refuses a name it has no manifest for).
 */
export function installCommand(name: string): string {
  return builtinManifest(name)
    ? `heimdall model pull ${name}`
    : `heimdall model import ${name} --from DIR`;
}

/** A model folder under `models/`. */
export interface InstalledModel {
  /** The model's name (its folder's). */
  name: string;
  /** Its folder. */
  dir: string;
  /** Null when the folder has no readable manifest (a pull still running or interrupted). */
  manifest: ModelManifest | null;
  /** Files the manifest lists that are absent or of another size. */
  missing: string[];
  /** Manifest present and nothing missing. */
  complete: boolean;
  /** Why the manifest could not be read, if it could not. */
  problem: string | null;
}

/** Every folder under `modelsDir`, in name order; none when the folder does not exist. */
export function installedModels(modelsDir: string): InstalledModel[] {
  let names: string[];
  try {
    names = [...Deno.readDirSync(modelsDir)]
      .filter((e) => e.isDirectory && MODEL_NAME.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return names.map((n) => readInstalled(modelsDir, n)!);
}

/** The model folder `name` under `modelsDir`, or undefined when there is none. */
export function readInstalled(modelsDir: string, name: string): InstalledModel | undefined {
  if (!MODEL_NAME.test(name)) return undefined;
  const dir = join(modelsDir, name);
  try {
    if (!Deno.statSync(dir).isDirectory) return undefined;
  } catch {
    return undefined;
  }
  const manifestPath = join(dir, "manifest.json");
  let manifest: ModelManifest | null = null;
  let problem: string | null = null;
  try {
    manifest = parseManifest(JSON.parse(Deno.readTextFileSync(manifestPath)), `"${manifestPath}"`);
  } catch (e) {
    problem = e instanceof Deno.errors.NotFound
      ? "no manifest.json (download not finished)"
      : e instanceof SyntaxError
      ? `"${manifestPath}" is not JSON: ${e.message}`
      : (e as Error).message;
  }
  const missing: string[] = [];
  for (const f of manifest?.files ?? []) {
    try {
      const size = Deno.statSync(join(dir, f.name)).size;
      if (f.bytes !== null && size !== f.bytes) missing.push(f.name);
    } catch {
      missing.push(f.name);
    }
  }
  return {
    name,
    dir,
    manifest,
    missing,
    complete: manifest !== null && missing.length === 0,
    problem,
  };
}

/** Whether the semantic leg can run, and on which model. */
export type ModelStatus =
  | { on: true; name: string; dims: number; dir: string; manifest: ModelManifest }
  | { on: false; reason: string };

/**
 * The active model (`active`, from config) if it is installed and complete.
 * Never throws for a missing or broken model: that is `{ on: false, reason }`
 * with the command that fixes it.
 */
export function modelStatus(modelsDir: string, active: string | null): ModelStatus {
  if (active === null) {
    return { on: false, reason: NO_MODEL_REASON };
  }
  let m: InstalledModel | undefined;
  try {
    m = readInstalled(modelsDir, active);
  } catch (e) {
    return { on: false, reason: `model "${active}" unreadable: ${(e as Error).message}` };
  }
  if (!m) {
    return {
      on: false,
      reason: `model "${active}" is not installed; run ${installCommand(active)}`,
    };
  }
  if (!m.complete || !m.manifest) {
    const why = m.problem ?? `missing ${m.missing.join(", ")}`;
    return {
      on: false,
      reason: `model "${active}" is incomplete (${why}); run ${installCommand(active)}`,
    };
  }
  return { on: true, name: m.name, dims: m.manifest.dims, dir: m.dir, manifest: m.manifest };
}
