import { parseFlags } from "./flags.ts";
import { resolve } from "../files/mod.ts";
import { updateConfig } from "../config/mod.ts";
import {
  BUILTIN_MODELS,
  builtinManifest,
  DEFAULT_MODEL,
  type FileProgress,
  importModel,
  installCommand,
  installedModels,
  type InstallResult,
  MODEL_NAME,
  type ModelManifest,
  parseManifest,
  pullModel,
  readInstalled,
} from "../embed/mod.ts";
import type { Context } from "./context.ts";
import { EnvironmentError, UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { statusLine } from "./progress.ts";

export const HELP = `heimdall model [list] | pull NAME | use NAME | import NAME --from DIR  [--json]
  Local embedding models for the semantic search leg, kept in
  $HEIMDALL_HOME/models/. list: built-in and installed models, the active one
  marked. pull: download a built-in model (or --manifest FILE) with resume and
  sha256 checks; the default model is ${DEFAULT_MODEL}. use: make an
  installed model the active one. import: install from a local folder holding
  the files (and optionally a manifest.json). pull and import load the model
  and run it once first, and refuse one that does not work. The first model
  installed becomes the active one.`;

/** `heimdall model …`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: ["from", "manifest"],
    boolean: ["json"],
  });
  const [sub = "list", name, ...extra] = positionals;
  if (extra.length > 0) {
    throw new UsageError(
      `Unexpected "${extra.join(" ")}"; \`heimdall help model\` shows the usage`,
    );
  }
  const json = values.json === true;
  switch (sub) {
    case "list":
      return list(ctx, json);
    case "pull":
      return await pull(ctx, name, values.manifest, json);
    case "use":
      return await use(ctx, needName(name, "use"), json);
    case "import":
      return await importCmd(ctx, needName(name, "import"), values.from, json);
    default:
      throw new UsageError(
        `Unknown model command "${sub}": expected list, pull, use or import`,
      );
  }
}

function needName(name: string | undefined, sub: string): string {
  if (name === undefined) throw new UsageError(`Usage: heimdall model ${sub} NAME`);
  if (!MODEL_NAME.test(name)) {
    throw new UsageError(
      `Invalid model name "${name}": lower-case letters, digits, '.', '_' or '-'`,
    );
  }
  return name;
}

const mib = (
  n: number | null,
) => (n === null ? "?" : `${(n / 1048576).toFixed(n < 10485760 ? 1 : 0)} MiB`);

function list(ctx: Context, json: boolean): number {
  const active = ctx.config().model;
  const installed = installedModels(ctx.home.models);
  const names = [
    ...new Set([...BUILTIN_MODELS.map((m) => m.name), ...installed.map((m) => m.name)]),
  ];
  const rows = names.map((name) => {
    const inst = installed.find((m) => m.name === name);
    const manifest = inst?.manifest ?? builtinManifest(name) ?? null;
    const state = inst?.complete
      ? (name === active ? "active" : "installed")
      : inst
      ? "incomplete"
      : "available";
    const bytes = manifest?.files.every((f) => f.bytes !== null)
      ? manifest.files.reduce((a, f) => a + f.bytes!, 0)
      : null;
    return {
      name,
      state,
      builtin: builtinManifest(name) !== undefined,
      dims: manifest?.dims ?? null,
      pooling: manifest?.pooling ?? null,
      quantization: manifest?.quantization ?? null,
      bytes,
      dir: inst?.dir ?? null,
      description: manifest?.description ?? inst?.problem ?? "",
    };
  });
  if (json) {
    ctx.out(JSON.stringify({ active, models: rows }));
    return EXIT.ok;
  }
  for (const r of rows) {
    ctx.out(
      `${r.state === "active" ? "*" : " "} ${r.name.padEnd(27)} ${r.state.padEnd(10)} ${
        String(r.dims ?? "?").padStart(4)
      }d ${(r.pooling ?? "?").padEnd(4)} ${(r.quantization ?? "?").padEnd(4)} ${
        mib(r.bytes).padStart(9)
      }  ${r.description}`,
    );
  }
  if (active === null) {
    ctx.out(`no active model: heimdall model pull ${DEFAULT_MODEL} (or use/import one)`);
  } else if (!rows.some((r) => r.state === "active")) {
    ctx.out(`active model "${active}" is not installed: ${installCommand(active)}`);
  }
  return EXIT.ok;
}

async function pull(
  ctx: Context,
  name: string | undefined,
  manifestFile: string | undefined,
  json: boolean,
): Promise<number> {
  let manifest: ModelManifest;
  if (manifestFile !== undefined) {
    const path = resolve(manifestFile);
    let raw: unknown;
    try {
      raw = JSON.parse(await Deno.readTextFile(path));
    } catch (e) {
      throw new UsageError(`Cannot read manifest "${path}": ${(e as Error).message}`);
    }
    manifest = parseManifest(raw, `"${path}"`);
    if (name !== undefined) manifest = { ...manifest, name: needName(name, "pull") };
  } else {
    const n = needName(name, "pull");
    const found = builtinManifest(n);
    if (!found) {
      throw new UsageError(
        `Unknown model "${n}": built-in models are ${
          BUILTIN_MODELS.map((m) => m.name).join(", ")
        }; for another, pass --manifest FILE or use heimdall model import ${n} --from DIR`,
      );
    }
    manifest = found;
  }
  const bar = downloadBar();
  let result: InstallResult;
  try {
    result = await pullModel(manifest, ctx.home.models, {
      onProgress: bar.update,
      libDir: ctx.home.lib,
    });
  } finally {
    bar.done();
  }
  return await installed(ctx, result, json);
}

async function importCmd(
  ctx: Context,
  name: string,
  from: string | undefined,
  json: boolean,
): Promise<number> {
  if (from === undefined) throw new UsageError(`Usage: heimdall model import ${name} --from DIR`);
  const dir = resolve(from);
  try {
    if (!(await Deno.stat(dir)).isDirectory) throw new Error("not a folder");
  } catch (e) {
    throw new UsageError(`Cannot import from "${dir}": ${(e as Error).message}; give a folder`);
  }
  const result = await importModel(name, dir, ctx.home.models, builtinManifest(name), {
    libDir: ctx.home.lib,
  });
  return await installed(ctx, result, json);
}

/** Reports an install and makes it the active model when none is. */
async function installed(ctx: Context, result: InstallResult, json: boolean): Promise<number> {
  let activated = false;
  await updateConfig(ctx.home.config, (c) => {
    if (c.model !== null && readInstalled(ctx.home.models, c.model)?.complete) return c;
    activated = true;
    return { ...c, model: result.name };
  });
  if (json) {
    ctx.out(JSON.stringify({ ...result, active: activated ? result.name : ctx.config().model }));
    return EXIT.ok;
  }
  for (const f of result.files) {
    ctx.out(
      `${f.how.padEnd(10)} ${f.name.padEnd(18)} ${mib(f.bytes).padStart(9)}  sha256 ${f.sha256}${
        f.pinned ? " (matches the manifest)" : " (no digest pinned: recorded)"
      }`,
    );
  }
  ctx.out(`installed ${result.name} in ${result.dir}`);
  const active = ctx.config().model;
  ctx.out(
    activated
      ? `active model: ${result.name}`
      : active === result.name
      ? `active model: ${result.name}, installed again: vectors made by its earlier files are embedded again`
      : `active model stays ${active}; heimdall model use ${result.name} to switch`,
  );
  return EXIT.ok;
}

async function use(ctx: Context, name: string, json: boolean): Promise<number> {
  const m = readInstalled(ctx.home.models, name);
  if (!m?.complete) {
    if (!m && !builtinManifest(name)) {
      throw new UsageError(
        `Unknown model "${name}": not installed and not built in; heimdall model list shows both`,
      );
    }
    throw new EnvironmentError(
      `Model "${name}" is ${
        m ? `incomplete (${m.problem ?? `missing ${m.missing.join(", ")}`})` : "not installed"
      } in ${ctx.home.models}; run ${installCommand(name)}`,
    );
  }
  await updateConfig(ctx.home.config, (c) => ({ ...c, model: name }));
  if (json) ctx.out(JSON.stringify({ active: name, dims: m.manifest!.dims, dir: m.dir }));
  else ctx.out(`active model: ${name} (${m.manifest!.dims} dims, ${m.dir})`);
  return EXIT.ok;
}

/** A byte progress line on a terminal's stderr; nothing otherwise. */
function downloadBar(): { update(p: FileProgress): void; done(): void } {
  return statusLine<FileProgress>((p, rate) => {
    const pct = p.total ? ` ${Math.floor((100 * p.done) / p.total)}%` : "";
    return `${p.file} ${mib(p.done)}/${mib(p.total)}${pct}  ${mib(rate)}/s`;
  });
}
