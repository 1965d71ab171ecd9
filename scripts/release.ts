/**
 * Builds release archives locally, as `.github/workflows/release.yml` does on
 * its runners: `deno compile` per target (through scripts/compile.ts, same
 * flags and includes), one archive per binary, and `SHA256SUMS`.
 *
 *   DENORT_BIN=/path/to/denort deno run -A scripts/release.ts [build] [--target T] [--out dist/release]
 *   deno run -A scripts/release.ts pack --target T --binary PATH [--out DIR]   (pack a built binary)
 *   deno run -A scripts/release.ts sums [--out DIR]                           (rewrite SHA256SUMS)
 *
 * `deno compile` downloads its runtime base (denort) for the target unless
 * DENORT_BIN names a local copy; on a machine without internet `build`
 * refuses to start without one (`--download` lets deno try). The version is
 * deno.json's unless `--version`; archive times are SOURCE_DATE_EPOCH's.
 * Exit codes: 0 ok, 2 usage, 3 environment (no runtime base, compile failed).
 */
import { parseScriptArgs } from "./script_args.ts";
import { join } from "node:path";
import {
  archiveName,
  type NamedBytes,
  packArchive,
  releaseTarget,
  sha256sums,
  TARGETS,
} from "./release_archive.ts";

const ROOT = join(import.meta.dirname!, "..");

/** deno.json's version: the one `heimdall --version` reports. */
export function projectVersion(): string {
  return JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json"))).version;
}

/** The time stamped on archive entries: SOURCE_DATE_EPOCH (reproducible), else now. */
function archiveTime(): Date {
  const epoch = Deno.env.get("SOURCE_DATE_EPOCH");
  return epoch && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date();
}

/** Packs `binary` for `target` into `out`, then rewrites `out/SHA256SUMS`; returns the archive's path. */
export async function packInto(
  out: string,
  version: string,
  target: string,
  binary: Uint8Array,
  mtime = archiveTime(),
): Promise<string> {
  Deno.mkdirSync(out, { recursive: true });
  const archive = await packArchive(version, target, binary, mtime);
  const path = join(out, archive.name);
  Deno.writeFileSync(path, archive.bytes);
  await writeSums(out);
  return path;
}

/** Writes `out/SHA256SUMS` over every release archive in `out`; returns the names listed. */
export async function writeSums(out: string): Promise<string[]> {
  const files: NamedBytes[] = [];
  for (const e of Deno.readDirSync(out)) {
    if (e.isFile && /^heimdall-.+\.(tar\.gz|zip)$/.test(e.name)) {
      files.push({ name: e.name, bytes: Deno.readFileSync(join(out, e.name)) });
    }
  }
  Deno.writeTextFileSync(join(out, "SHA256SUMS"), await sha256sums(files));
  return files.map((f) => f.name).sort();
}

class ReleaseError extends Error {
  constructor(message: string, readonly code: number) {
    super(message);
  }
}

const NO_DENORT = (target: string) =>
  `Cannot compile for ${target}: DENORT_BIN is not set, and deno compile's runtime base (denort) ` +
  `cannot be downloaded on this machine (it has no internet). On a machine with internet, ` +
  `download denort-${target}.zip of deno ${Deno.version.deno} from the Deno release ` +
  `(github.com/denoland/deno/releases/tag/v${Deno.version.deno}), unzip it here, and rerun with ` +
  `DENORT_BIN=/path/to/denort; or pass --download where deno can fetch it itself.`;

async function build(out: string, version: string, targets: string[], download: boolean) {
  const denort = Deno.env.get("DENORT_BIN");
  if (!denort && !download) throw new ReleaseError(NO_DENORT(targets[0]!), 3);
  if (denort && targets.length > 1) {
    throw new ReleaseError(
      `DENORT_BIN="${denort}" is the runtime base of one target; build one --target at a time`,
      2,
    );
  }
  for (const target of targets) {
    const binary = join(out, target, releaseTarget(target).exe);
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-run",
        join(ROOT, "scripts/compile.ts"),
        "--target",
        target,
        "--output",
        binary,
      ],
      cwd: ROOT,
    }).spawn().status;
    if (code !== 0) throw new ReleaseError(`deno compile for ${target} failed (exit ${code})`, 3);
    const path = await packInto(out, version, target, Deno.readFileSync(binary));
    console.error(`packed ${path}`);
  }
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseScriptArgs(
    "release",
    "deno run -A scripts/release.ts [build|pack|sums] [--target T]… [--binary PATH] [--out DIR] [--version V] [--download]",
    {
      args,
      allowPositionals: true,
      options: {
        target: { type: "string", multiple: true },
        binary: { type: "string" },
        out: { type: "string", default: join(ROOT, "dist", "release") },
        version: { type: "string" },
        download: { type: "boolean" },
      },
    },
  );
  const action = positionals[0] ?? "build";
  const version = values.version ?? projectVersion();
  const targets = values.target ?? [Deno.build.target];
  try {
    for (const t of targets) releaseTarget(t);
    if (action === "build") {
      await build(values.out, version, targets, values.download ?? false);
    } else if (action === "pack") {
      if (!values.binary || targets.length !== 1) {
        throw new ReleaseError("pack needs --binary PATH and one --target", 2);
      }
      console.error(
        `packed ${await packInto(
          values.out,
          version,
          targets[0]!,
          Deno.readFileSync(values.binary),
        )}`,
      );
    } else if (action === "sums") {
      const names = await writeSums(values.out);
      console.error(`SHA256SUMS lists ${names.length} archives: ${names.join(", ")}`);
    } else {
      throw new ReleaseError(`Unknown action "${action}"; use build, pack or sums`, 2);
    }
    return 0;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    console.error(`release: ${message}`);
    return e instanceof ReleaseError ? e.code : /Unknown target/.test(message) ? 2 : 3;
  }
}

export { archiveName, TARGETS };

if (import.meta.main) Deno.exit(await main(Deno.args));
