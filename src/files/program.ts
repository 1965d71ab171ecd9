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

/**
 * The path a command line written to last should name this program by
 * (heimdall, or the deno that runs it): a Homebrew binary's `opt` link
 * (`…/opt/heimdall/bin/heimdall`, `…/opt/deno/bin/deno`), which survives
 * `brew upgrade`; the versioned Cellar path it runs from (what Linux's
 * /proc/self/exe gives) is deleted by the upgrade. Any other path as is.
 */
export function lastingBinaryPath(execPath: string): string {
  const brew = /^(.*)\/Cellar\/(heimdall|deno)\/[^/]+\/bin\/(heimdall|deno)$/.exec(execPath);
  return brew && brew[2] === brew[3] ? `${brew[1]}/opt/${brew[2]}/bin/${brew[2]}` : execPath;
}

/** The checkout this module belongs to (under `deno run`). */
const CHECKOUT = `${import.meta.dirname}/../..`;

/**
 * A number that changes when the code this process runs is replaced on
 * disk. In a compiled binary: the files `execPath` and the path that lasts
 * for it name (a Homebrew upgrade points the `opt` link at the new
 * version, and its cleanup removes the old one). Under `deno run`: the
 * newest modification time of the checkout's `src/` modules and its
 * `main.ts`, `deno.json` and `deno.lock`, so that a `git pull` changing any
 * module shows. A few hundred stats, a few ms.
 */
export function codeStamp(execPath = Deno.execPath()): number {
  if (!runningUnderDeno(execPath)) {
    // Which files the two paths name, and when they were written: a binary
    // moved into place (the install script's `mv`, whatever its time) is
    // another inode; a version older than the one it replaces still differs.
    let sum = 0;
    for (const path of new Set([execPath, lastingBinaryPath(execPath)])) {
      try {
        const st = Deno.statSync(path);
        sum += (st.mtime?.getTime() ?? 0) + (st.ino ?? 0) + st.size;
      } catch {
        sum -= 1; // gone: Homebrew's cleanup removed the version this process runs
      }
    }
    return sum;
  }
  let newest = 0;
  const stamp = (path: string) => {
    try {
      newest = Math.max(newest, Deno.statSync(path).mtime?.getTime() ?? 0);
    } catch { /* gone: another change shows it */ }
  };
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
