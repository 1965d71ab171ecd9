/**
 * Runs the parties of a call-graph comparison as subprocesses: Heimdall's
 * one-shot index of a folder (from any Heimdall source tree, so that an
 * older commit can be measured the same way), the TypeScript checker
 * (./oracle_tsc.ts) and Jedi (./oracle_jedi.py). Each throws
 * {@link OracleUnavailableError} when its tool cannot run here.
 */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import type { HeimdallCall, OracleCall } from "./compare.ts";

/** A checker that cannot run on this machine: `tool` names it, `reason` says why. */
export class OracleUnavailableError extends Error {
  constructor(readonly tool: string, readonly reason: string) {
    super(`${tool} cannot run here: ${reason}`);
  }
}

const HERE = new URL(".", import.meta.url).pathname;
const decoder = new TextDecoder();

async function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(cmd, {
    args,
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

function parseLines<T>(text: string): T[] {
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as T);
}

/** Every call the TypeScript checker places in the `.ts`/`.tsx` files under `root`. */
export async function tscCalls(root: string): Promise<OracleCall[]> {
  const r = await run(Deno.execPath(), [
    "run",
    "--no-lock",
    "--allow-read",
    "--allow-env",
    "--allow-sys",
    join(HERE, "oracle_tsc.ts"),
    root,
  ]);
  if (r.code !== 0) {
    throw new OracleUnavailableError("typescript (npm)", r.stderr.trim().split("\n").at(-1) ?? "");
  }
  return parseLines<OracleCall>(r.stdout);
}

/**
 * The Python that has Jedi, as the path of its interpreter: Debian's
 * `python3-jedi` installs it for `/usr/bin/python3`, which a `python3`
 * earlier on the PATH (pyenv, a virtualenv) does not see; else `python3`
 * from the PATH. The path is the interpreter's own (`sys.executable`), not
 * a pyenv shim, whose choice of Python depends on the environment the
 * oracle later runs in (its HOME). Undefined when neither imports it.
 */
export function pythonWithJedi(): string | undefined {
  for (const python of ["python3", "/usr/bin/python3"]) {
    try {
      const r = new Deno.Command(python, {
        args: ["-c", "import jedi, sys; print(sys.executable)"],
        stderr: "null",
      }).outputSync();
      const path = new TextDecoder().decode(r.stdout).trim();
      if (r.success) return path === "" ? python : path;
    } catch {
      // not installed
    }
  }
  return undefined;
}

/** Every call Jedi places in the `.py` files under `root`. */
export async function jediCalls(root: string): Promise<OracleCall[]> {
  let r;
  try {
    r = await run(pythonWithJedi() ?? "python3", [join(HERE, "oracle_jedi.py"), root]);
  } catch (e) {
    throw new OracleUnavailableError("python3", String(e));
  }
  if (r.code !== 0) {
    const last = r.stderr.trim().split("\n").at(-1) ?? "";
    throw new OracleUnavailableError(/jedi/i.test(last) ? "python3-jedi" : "python3", last);
  }
  return parseLines<OracleCall>(r.stdout);
}

/**
 * Indexes `root` with the Heimdall of source tree `tree` (its main.ts, a
 * fresh HEIMDALL_HOME under `scratch`) and returns its resolved call edges.
 */
export async function heimdallCalls(
  root: string,
  tree: string,
  scratch: string,
): Promise<HeimdallCall[]> {
  const home = join(scratch, "home");
  const r = await run(
    Deno.execPath(),
    ["run", "-A", "--no-lock", join(tree, "main.ts"), "index", root],
    { HEIMDALL_HOME: home },
  );
  if (r.code !== 0) throw new Error(`heimdall index ${root} failed (${r.code}): ${r.stderr}`);
  const db = new DatabaseSync(join(home, "journal.db"), { readOnly: true });
  try {
    return (db.prepare(
      `SELECT ps.rel AS file, e.line, e.name, e.how, pd.rel AS dfile, d.start_line, d.end_line,
              d.name AS dname, d.qualname, s.start_line AS caller_start, s.end_line AS caller_end
       FROM edges e JOIN nodes d ON d.id = e.dst JOIN nodes s ON s.id = e.src
       JOIN paths ps ON ps.id = e.owner_id
       JOIN paths pd ON pd.id = d.path_id WHERE e.kind = 'calls'`,
    ).all() as Record<string, string | number>[]).map((row) => ({
      file: String(row.file),
      line: Number(row.line),
      name: String(row.name),
      how: String(row.how),
      caller: { start: Number(row.caller_start), end: Number(row.caller_end) },
      dst: {
        file: String(row.dfile),
        start: Number(row.start_line),
        end: Number(row.end_line),
        name: String(row.dname),
        qualname: String(row.qualname),
      },
    }));
  } finally {
    db.close();
  }
}
