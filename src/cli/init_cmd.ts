import { parseFlags } from "./flags.ts";
import { HARNESSES, type HarnessName, isHarness } from "../harness/harnesses/mod.ts";
import { join, readTextIfPresent, resolve } from "../files/mod.ts";
import { applyChange } from "../harness/install/apply.ts";
import { selfArgv } from "../harness/install/command.ts";
import { detectHarnesses } from "../harness/install/detect.ts";
import { unifiedDiff } from "../harness/install/diff.ts";
import { ConfigEditError } from "../harness/install/json_file.ts";
import {
  type InstallContext,
  type Manifest,
  type Plan,
  planHarness,
  type Scope,
} from "../harness/install/plan.ts";
import type { Context } from "./context.ts";
import { ensurePrivateDir, writePrivateFileAtomic } from "../config/private_files.ts";
import { UsageError } from "../errors/mod.ts";
import { fileStamp } from "../present/fmt.ts";
import { EXIT } from "./exit_codes.ts";

export const HELP = `heimdall init --harness NAME[,NAME…]|all [--scope user|project] [--project DIR]
              [--dry-run] [--uninstall] [--budget TOKENS] [--json]
heimdall init --detect [--json]
  Wires Heimdall into coding agents: each harness's hooks (\`heimdall hook\`)
  and its MCP server (\`heimdall mcp\`), in the harness's own files and format
  (${HARNESSES.join(", ")}; \`all\` = the ones --detect finds).
  Merges with what is there and never clobbers it; backs up every file it
  changes (FILE.heimdall-backup-TIME); a second run changes nothing;
  --uninstall removes exactly what it added; --dry-run prints the diff and
  writes nothing. --scope project writes into --project DIR (default: here).
  --detect lists the harnesses installed on this machine.`;

/** What earlier installs added where (so an uninstall removes exactly that). */
function readManifest(file: string): Manifest {
  try {
    const m = JSON.parse(Deno.readTextFileSync(file));
    return typeof m?.files === "object" && m.files !== null ? m.files as Manifest : {};
  } catch {
    return {};
  }
}

function writeManifest(file: string, files: Manifest): void {
  ensurePrivateDir(join(file, ".."));
  writePrivateFileAtomic(file, JSON.stringify({ version: 1, files }, null, 2) + "\n");
}

/** `heimdall init`. */
export function run(args: string[], ctx: Context): number {
  const { values } = parseFlags(args, {
    string: ["harness", "scope", "project", "budget"],
    boolean: ["dry-run", "uninstall", "detect", "json"],
    positionals: false,
  });
  const userHome = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE");
  if (!userHome) {
    throw new UsageError("Cannot find your home folder: HOME is not set; set HOME and run again");
  }
  const detected = detectHarnesses(userHome, Deno.env.get("PATH") ?? "");
  if (values.detect && values.harness === undefined) {
    if (values.json) ctx.out(JSON.stringify({ harnesses: detected }));
    else {
      for (const d of detected) {
        ctx.out(
          `${d.harness.padEnd(12)} ${d.found ? `found: ${d.evidence.join(", ")}` : "not found"}`,
        );
      }
    }
    return detected.some((d) => d.found) ? EXIT.ok : EXIT.none;
  }
  if (values.harness === undefined) {
    throw new UsageError(
      `Missing --harness: name one or more of ${HARNESSES.join(", ")}, or all (or pass --detect)`,
    );
  }
  const names: HarnessName[] = [];
  for (const n of values.harness.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    if (n === "all") names.push(...detected.filter((d) => d.found).map((d) => d.harness));
    else if (isHarness(n)) names.push(n);
    else {throw new UsageError(
        `Unknown harness "${n}": expected one of ${HARNESSES.join(", ")}, or all`,
      );}
  }
  if (names.length === 0) {
    ctx.err(
      "heimdall init: no harness found on this machine (`heimdall init --detect` shows what was looked for)",
    );
    return EXIT.none;
  }
  const scope = (values.scope ?? "user") as Scope;
  if (scope !== "user" && scope !== "project") {
    throw new UsageError(`Invalid --scope "${values.scope}": expected user or project`);
  }
  let budget: number | null = null;
  if (values.budget !== undefined) {
    budget = Number(values.budget);
    if (!Number.isInteger(budget) || budget < 100 || budget > 100_000) {
      throw new UsageError(
        `Invalid --budget "${values.budget}": expected a whole number of tokens from 100 to 100000`,
      );
    }
  }
  const explicitHome = Deno.env.get("HEIMDALL_HOME");
  const ic: InstallContext = {
    scope,
    userHome,
    project: resolve(values.project ?? Deno.cwd()),
    argv: selfArgv(),
    hookArgv: selfArgv("hook"),
    heimdallHome: explicitHome && explicitHome.trim() !== "" ? ctx.home.home : null,
    budget,
    env: (n) => Deno.env.get(n),
  };
  const uninstall = values.uninstall === true;
  const dry = values["dry-run"] === true;
  const when = fileStamp();
  const manifestFile = join(ctx.home.home, "init.json");
  const manifest = readManifest(manifestFile);
  const report: {
    harness: HarnessName;
    changes: { path: string; what: string; action: string; backup: string | null; diff?: string }[];
    notes: string[];
    error: string | null;
  }[] = [];
  let failed = false;
  for (const name of [...new Set(names)]) {
    let plan: Plan;
    try {
      plan = planHarness(name, ic, readTextIfPresent, uninstall, manifest);
    } catch (e) {
      if (!(e instanceof ConfigEditError)) throw e;
      failed = true;
      report.push({ harness: name, changes: [], notes: [], error: e.message });
      continue;
    }
    const changes = plan.changes.map((c) => {
      const action = c.after === null ? "remove" : c.before === null ? "create" : "update";
      const backup = dry ? null : applyChange(c, when);
      if (!dry) {
        if (c.record) manifest[c.path] = c.record;
        else delete manifest[c.path];
      }
      return {
        path: c.path,
        what: c.what,
        action,
        backup,
        ...(dry ? { diff: unifiedDiff(c.path, c.before, c.after) } : {}),
      };
    });
    report.push({ harness: name, changes, notes: plan.notes, error: null });
  }
  if (!dry && report.some((r) => r.changes.length > 0)) writeManifest(manifestFile, manifest);
  if (values.json) {
    ctx.out(JSON.stringify({ scope, uninstall, dry_run: dry, harnesses: report }));
  } else {
    for (const r of report) {
      if (r.error) {
        ctx.err(`${r.harness}: ${r.error}`);
        continue;
      }
      if (r.changes.length === 0) {
        ctx.out(
          `${r.harness}: nothing to ${uninstall ? "remove" : "change"} (already ${
            uninstall ? "absent" : "in place"
          })`,
        );
      }
      for (const c of r.changes) {
        if (dry) ctx.out(`${r.harness}: would ${c.action} ${c.path} (${c.what})\n${c.diff}`);
        else {
          ctx.out(
            `${r.harness}: ${
              c.action === "remove" ? "removed" : c.action === "create" ? "created" : "updated"
            } ${c.path} (${c.what})` +
              (c.backup ? `; backup ${c.backup}` : ""),
          );
        }
      }
      for (const n of r.notes) ctx.out(`${r.harness}: note: ${n}`);
    }
  }
  return failed ? EXIT.env : EXIT.ok;
}
