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

/** Where `command` is on `path` (a PATH value): its first executable file, or null. */
export function onPath(command: string, path: string): string | null {
  for (const dir of path.split(":")) {
    if (dir === "") continue;
    try {
      const st = Deno.statSync(join(dir, command));
      if (st.isFile && (st.mode === null || (st.mode & 0o111) !== 0)) return join(dir, command);
    } catch { /* not here */ }
  }
  return null;
}

/** Looks for each harness's commands on `PATH` and its folders under `userHome` (its `signs`). */
export function detectHarnesses(userHome: string, path: string): Detection[] {
  return HARNESSES.map((harness) => {
    const signs = harnessSpec(harness).install.signs;
    const evidence: string[] = [];
    for (const c of signs.commands) {
      const at = onPath(c, path);
      if (at) evidence.push(`${c} on PATH (${at})`);
    }
    for (const d of signs.dirs) if (isDirectory(join(userHome, d))) evidence.push(`~/${d}`);
    return { harness, found: evidence.length > 0, evidence };
  });
}
