/**
 * The program this process runs, as the files that hold it: a compiled
 * binary, or under `deno run` this checkout's modules. A long-running
 * process (the daemon, the hooks' warm server) compares {@link codeStamp}
 * with the one it started with to learn that an upgrade replaced its code.
 */
import { basename } from "./path.ts";

/** True when this process is the Deno CLI itself rather than a compiled Heimdall binary. */
export function runningUnderDeno(execPath = Deno.execPath()): boolean {
  return /^deno(\.exe)?$/i.test(basename(execPath));
}

/** The checkout this module belongs to (under `deno run`). */
const CHECKOUT = `${import.meta.dirname}/../..`;

/**
 * The newest modification time of the code this process runs: in a
 * compiled binary, the binary (0 once it is gone, as Homebrew's upgrade
 * removes the old one); under `deno run`, every module of the checkout's
 * `src/` and its `main.ts`, `deno.json` and `deno.lock`, so that a `git
 * pull` changing any module shows. A few hundred stats, a few ms.
 */
export function codeStamp(): number {
  let newest = 0;
  const stamp = (path: string) => {
    try {
      newest = Math.max(newest, Deno.statSync(path).mtime?.getTime() ?? 0);
    } catch { /* gone: another change shows it */ }
  };
  if (!runningUnderDeno()) {
    stamp(Deno.execPath());
    return newest;
  }
  const walk = (dir: string) => {
    try {
      for (const e of Deno.readDirSync(dir)) {
        if (e.isDirectory) walk(`${dir}/${e.name}`);
        else if (e.name.endsWith(".ts") && !/_(?:test|bench)\.ts$/.test(e.name)) {
          stamp(`${dir}/${e.name}`);
        }
      }
    } catch { /* unreadable: nothing to compare */ }
  };
  walk(`${CHECKOUT}/src`);
  for (const f of ["main.ts", "deno.json", "deno.lock"]) stamp(`${CHECKOUT}/${f}`);
  return newest;
}
