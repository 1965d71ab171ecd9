/** Which harnesses are installed on this machine: a command on PATH or a config folder. */
import { join } from "node:path";
import type { HarnessName } from "../event.ts";

/** The evidence for one harness. */
export interface Detection {
  harness: HarnessName;
  found: boolean;
  /** What was found (`claude on PATH`, `~/.cursor`). */
  evidence: string[];
}

const SIGNS: Record<HarnessName, { commands: string[]; dirs: string[] }> = {
  "claude-code": { commands: ["claude"], dirs: [".claude"] },
  codex: { commands: ["codex"], dirs: [".codex"] },
  cursor: { commands: ["cursor", "cursor-agent"], dirs: [".cursor"] },
  windsurf: { commands: ["windsurf"], dirs: [".codeium/windsurf"] },
  kiro: { commands: ["kiro-cli", "kiro"], dirs: [".kiro"] },
  pi: { commands: ["pi"], dirs: [".pi/agent"] },
  gemini: { commands: ["gemini"], dirs: [".gemini"] },
};

function isDir(p: string): boolean {
  try {
    return Deno.statSync(p).isDirectory;
  } catch {
    return false;
  }
}

function onPath(command: string, path: string): string | null {
  for (const dir of path.split(":")) {
    if (dir === "") continue;
    try {
      const st = Deno.statSync(join(dir, command));
      if (st.isFile && (st.mode === null || (st.mode & 0o111) !== 0)) return join(dir, command);
    } catch { /* not here */ }
  }
  return null;
}

/** Looks for each harness's command on `PATH` and its folder under `userHome`. */
export function detectHarnesses(userHome: string, path: string): Detection[] {
  return (Object.keys(SIGNS) as HarnessName[]).map((harness) => {
    const evidence: string[] = [];
    for (const c of SIGNS[harness].commands) {
      const at = onPath(c, path);
      if (at) evidence.push(`${c} on PATH (${at})`);
    }
    for (const d of SIGNS[harness].dirs) if (isDir(join(userHome, d))) evidence.push(`~/${d}`);
    return { harness, found: evidence.length > 0, evidence };
  });
}
