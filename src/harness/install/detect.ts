/** Which harnesses are installed on this machine: a command on PATH or a config folder. */
import { isDirectory, join } from "../../files/mod.ts";
import { HARNESSES, type HarnessName, harnessSpec } from "../harnesses/mod.ts";

/** The evidence for one harness. */
export interface Detection {
  harness: HarnessName;
  found: boolean;
  /** What was found (`claude on PATH`, `~/.cursor`). */
  evidence: string[];
}

/** How a system finds commands on its PATH: the separator, and the endings a command takes. */
export interface PathRules {
  /** `;` on Windows, `:` elsewhere. */
  separator: string;
  /** Windows' PATHEXT (`.COM;.EXE;.BAT;.CMD`); empty elsewhere: the name as is, executable. */
  extensions: string[];
}

/** This system's {@link PathRules}. */
export function pathRules(
  os: string = Deno.build.os,
  pathext = Deno.env.get("PATHEXT"),
): PathRules {
  if (os !== "windows") return { separator: ":", extensions: [] };
  const exts = (pathext || ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "");
  return { separator: ";", extensions: exts };
}

/**
 * Where `command` is on `path` (a PATH value): its first executable file,
 * or null. On Windows a command is a file with one of PATHEXT's endings
 * (`claude.cmd` from npm, `heimdall.exe`), found in a `;`-separated PATH.
 */
export function onPath(command: string, path: string, rules = pathRules()): string | null {
  const names = rules.extensions.length === 0
    ? [command]
    : rules.extensions.map((e) => command + e.toLowerCase());
  for (const dir of path.split(rules.separator)) {
    if (dir === "") continue;
    for (const name of names) {
      try {
        const st = Deno.statSync(join(dir, name));
        const executable = rules.extensions.length > 0 || st.mode === null ||
          (st.mode & 0o111) !== 0;
        if (st.isFile && executable) return join(dir, name);
      } catch { /* not here */ }
    }
  }
  return null;
}

/** Looks for each harness's commands on `PATH` and its folders under `userHome` (its `signs`). */
export function detectHarnesses(
  userHome: string,
  path: string,
  rules = pathRules(),
): Detection[] {
  return HARNESSES.map((harness) => {
    const signs = harnessSpec(harness).install.signs;
    const evidence: string[] = [];
    for (const c of signs.commands) {
      const at = onPath(c, path, rules);
      if (at) evidence.push(`${c} on PATH (${at})`);
    }
    for (const d of signs.dirs) if (isDirectory(join(userHome, d))) evidence.push(`~/${d}`);
    return { harness, found: evidence.length > 0, evidence };
  });
}
