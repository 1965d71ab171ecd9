import { parseFlags, wholeNumber } from "./flags.ts";
import { HARNESSES, type HarnessName, isHarness } from "../harness/harnesses/mod.ts";
import {
  basename,
  dirname,
  exists,
  isDirectory,
  join,
  readTextIfPresent,
  relative,
  resolve,
} from "../files/mod.ts";
import { applyChange, ConfigWriteError } from "../harness/install/apply.ts";
import { selfArgv, transientProgram } from "../harness/install/command.ts";
import { detectHarnesses, onPath } from "../harness/install/detect.ts";
import { unifiedDiff } from "../harness/install/diff.ts";
import { ConfigEditError } from "../harness/install/json_file.ts";
import { inspectWiring } from "../harness/install/inspect.ts";
import {
  type FileChange,
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
import { shellQuote } from "../present/shell.ts";

export const HELP = `heimdall init --harness NAME[,NAME…]|all [--scope user|project] [--project DIR]
              [--dry-run] [--uninstall] [--budget TOKENS] [--json]
heimdall init --detect [--json]
  Wires Heimdall into coding agents: each harness's hooks (\`heimdall hook\`)
  and its MCP server (\`heimdall mcp\`), in the harness's own files and format
  (${HARNESSES.join(", ")}; \`all\` = the ones --detect finds).
  Merges with what is there and never clobbers it; backs up every file it
  changes (FILE.heimdall-backup-TIME); a second run changes nothing;
  --uninstall removes exactly what it added; --dry-run prints the diff and
  writes nothing. --scope project writes into --project DIR (default: here),
  files to commit: they run \`heimdall\` from PATH and name no path of this machine.
  --detect lists the harnesses installed on this machine.`;

const PAST: Record<HarnessReport["changes"][number]["action"], string> = {
  remove: "removed",
  create: "created",
  update: "updated",
};

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

/** A config file's text (null when absent); one that cannot be read refuses its harness. */
function readConfig(path: string): string | null {
  try {
    return readTextIfPresent(path);
  } catch (e) {
    throw new ConfigEditError(
      path,
      `Cannot read "${path}": ${(e as Error).message}; ` +
        `make it a readable file (or move it aside) and run init again`,
    );
  }
}

/** What init did (or would do) for one harness. */
interface HarnessReport {
  harness: HarnessName;
  changes: {
    path: string;
    what: string;
    action: "create" | "update" | "remove";
    backup: string | null;
    /** Where a symbolic link at `path` led: the file written instead of replacing the link. */
    target?: string;
    diff?: string;
  }[];
  notes: string[];
  error: string | null;
}

function actionOf(c: FileChange): "create" | "update" | "remove" {
  return c.after === null ? "remove" : c.before === null ? "create" : "update";
}

/** The diffs of a plan, nothing written. */
function dryRun(plan: Plan): HarnessReport {
  const changes = plan.changes.map((c) => ({
    path: c.path,
    what: c.what,
    action: actionOf(c),
    backup: null,
    diff: unifiedDiff(c.path, c.before, c.after),
  }));
  return { harness: plan.harness, changes, notes: plan.notes, error: null };
}

/**
 * Applies a plan's changes in order, recording each in `manifest` as soon
 * as it is written; the first that cannot be written stops the harness
 * (its error says what was done already), the ones before it stay recorded
 * so `--uninstall` takes out exactly what is there.
 */
function applyPlan(
  plan: Plan,
  manifest: Manifest,
  uninstall: boolean,
  when: string,
  backupAt?: (path: string) => string,
): HarnessReport {
  const r: HarnessReport = { harness: plan.harness, changes: [], notes: plan.notes, error: null };
  for (const c of plan.changes) {
    let done;
    try {
      done = applyChange(c, when, backupAt);
    } catch (e) {
      if (!(e instanceof ConfigWriteError)) throw e;
      const already = r.changes.map((d) => `${PAST[d.action]} ${d.path}`).join(", ");
      r.error = e.message +
        (already === ""
          ? ""
          : ` (${already} already${uninstall ? "" : "; recorded, so --uninstall takes it out"})`);
      return r;
    }
    if (c.record) manifest[c.path] = c.record;
    else delete manifest[c.path];
    r.changes.push({
      path: c.path,
      what: c.what,
      action: actionOf(c),
      backup: done.backup,
      ...(done.target !== c.path ? { target: done.target } : {}),
    });
  }
  return r;
}

/** A project's folder in `$HEIMDALL_HOME/backups`: its name, and a hash of its path. */
function projectFolder(project: string): string {
  let h = 0;
  for (let i = 0; i < project.length; i++) h = (Math.imul(h, 31) + project.charCodeAt(i)) | 0;
  return `${basename(project) || "root"}-${(h >>> 0).toString(36)}`;
}

/** The repository (a folder holding `.git`) above `dir`, when `dir` is not one itself; else null. */
function repositoryAbove(dir: string): string | null {
  if (exists(join(dir, ".git"))) return null;
  for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) {
    if (exists(join(d, ".git"))) return d;
  }
  return null;
}

/**
 * What a person installing at project scope should know: the files name
 * `heimdall` from PATH and no HEIMDALL_HOME (they are committed, and a
 * teammate's machine has none of this one's paths), so say when this
 * machine has no `heimdall` on PATH, or keeps its journal in a home of its own.
 */
function projectNotes(ic: InstallContext): string[] {
  const notes: string[] = [];
  const top = repositoryAbove(ic.project);
  if (top !== null) {
    notes.push(
      `"${ic.project}" is a folder inside the repository "${top}": an agent reads a project's files in the folder it starts in, usually the repository's top; to wire that, pass --project ${
        shellQuote(top)
      } (--uninstall here takes out what this wrote)`,
    );
  }
  if (onPath("heimdall", Deno.env.get("PATH") ?? "") === null) {
    notes.push(
      "the project's files run `heimdall` from PATH (they are shared, so they name no path of this machine), and this PATH has none: install it (docs/install.md: `deno task install` in a clone, or a release), or use --scope user",
    );
  }
  // HEIMDALL_HOME set to the default home is the default home: nothing is lost without it.
  if (ic.heimdallHome !== null && ic.heimdallHome !== join(ic.userHome, ".heimdall")) {
    notes.push(
      `HEIMDALL_HOME "${ic.heimdallHome}" is not written into the project's files (each teammate's home differs): start the agent with HEIMDALL_HOME set, or its hooks use ~/.heimdall; or use --scope user`,
    );
  }
  return notes;
}

/**
 * What to say when `harness` already runs Heimdall's hooks from the other
 * scope's file: the harness runs every hook its files hold, so each event
 * starts two hooks (of one home, the second does nothing: see
 * `hook_once.ts`; with two homes, both record it); null when it does not.
 */
function twice(harness: HarnessName, ic: InstallContext): string | null {
  const other: Scope = ic.scope === "user" ? "project" : "user";
  const there = inspectWiring(harness, { ...ic, scope: other }, readTextIfPresent);
  // Run in the home folder, the project's file is the user's own: one file, one hook.
  const here = inspectWiring(harness, ic, () => null).hooksFile;
  if (there.hookCommands.length === 0 || resolve(there.hooksFile) === resolve(here)) return null;
  return `${there.hooksFile} (${other} scope) runs Heimdall's hooks too: ${harness} runs both, so each event starts two hooks (sharing a HEIMDALL_HOME, the second finds the event taken and does nothing; with another home, it records the event there too); keep one: heimdall init --harness ${harness} --scope ${other} --uninstall`;
}

/** What a person installing at user scope should know: a command written that may not last. */
function userNotes(): string[] {
  const transient = transientProgram();
  return transient === null ? [] : [transient];
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
  const asked = values.harness.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (asked.length === 0) {
    throw new UsageError(
      `--harness "${values.harness}" names no harness: name one or more of ${
        HARNESSES.join(", ")
      }, or all`,
    );
  }
  for (const n of asked) {
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
    budget = wholeNumber(values.budget, "--budget", 100, 100_000, 0, "a whole number of tokens");
  }
  if (values.project !== undefined && scope !== "project") {
    throw new UsageError(
      `--project "${values.project}" is for --scope project: add --scope project (or leave --project out to write into your home)`,
    );
  }
  const project = resolve(values.project ?? Deno.cwd());
  // A mistyped folder would get a new tree of configs no agent ever reads.
  if (scope === "project" && !isDirectory(project)) {
    throw new UsageError(
      `No project folder "${project}": --project takes the folder the agent works in; check the path`,
    );
  }
  const explicitHome = Deno.env.get("HEIMDALL_HOME");
  const ic: InstallContext = {
    scope,
    userHome,
    project,
    argv: selfArgv(),
    hookArgv: selfArgv("hook"),
    heimdallHome: explicitHome && explicitHome.trim() !== "" ? ctx.home.home : null,
    budget,
    env: (n) => Deno.env.get(n),
  };
  const uninstall = values.uninstall === true;
  const shared = uninstall ? [] : scope === "project" ? projectNotes(ic) : userNotes();
  const dry = values["dry-run"] === true;
  const when = fileStamp();
  // A backup beside a project's file is in the repository, where `git add -A` commits it
  // (with the machine's paths an older init wrote there): kept in the home instead.
  const backupAt = scope === "project"
    ? (path: string) =>
      join(ctx.home.home, "backups", projectFolder(project), relative(project, path))
    : undefined;
  const manifestFile = join(ctx.home.home, "init.json");
  const manifest = readManifest(manifestFile);
  const report: HarnessReport[] = [];
  let failed = false;
  const recorded = JSON.stringify(manifest);
  try {
    for (const name of [...new Set(names)]) {
      let plan: Plan;
      try {
        plan = planHarness(name, ic, readConfig, uninstall, manifest);
      } catch (e) {
        if (!(e instanceof ConfigEditError)) throw e;
        failed = true;
        report.push({ harness: name, changes: [], notes: [], error: e.message });
        continue;
      }
      if (!uninstall) {
        const also = twice(name, ic);
        if (also !== null) plan.notes.push(also);
      }
      const r = dry ? dryRun(plan) : applyPlan(plan, manifest, uninstall, when, backupAt);
      report.push(r);
      failed ||= r.error !== null;
    }
  } finally {
    // Every change applied is recorded, even when a later one (or anything else) failed.
    if (JSON.stringify(manifest) !== recorded) writeManifest(manifestFile, manifest);
  }
  if (values.json) {
    ctx.out(JSON.stringify({ scope, uninstall, dry_run: dry, harnesses: report, notes: shared }));
  } else {
    for (const r of report) {
      if (r.changes.length === 0 && r.error === null) {
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
            `${r.harness}: ${PAST[c.action]} ${c.path}` +
              (c.target
                ? ` (a link: ${c.action === "remove" ? "removed" : "wrote"} its target ${c.target})`
                : "") +
              ` (${c.what})` + (c.backup ? `; backup ${c.backup}` : ""),
          );
        }
      }
      if (r.error) {
        ctx.err(`${r.harness}: ${r.error}`);
        continue;
      }
      for (const n of r.notes) ctx.out(`${r.harness}: note: ${n}`);
    }
    for (const n of shared) ctx.out(`note: ${n}`);
  }
  return failed ? EXIT.env : EXIT.ok;
}
