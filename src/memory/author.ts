/** Who is writing a memory. */

/**
 * The author of memories written from this process: `$HEIMDALL_AUTHOR`, else
 * `git config user.name` (run in `cwd`; in `/` when `cwd` is gone, where
 * the person's global name still reads), else `$USER`, else "unknown".
 * Costs one `git` subprocess when the variable is unset (two when `cwd` is
 * gone); a missing git is fine.
 */
export function defaultAuthor(cwd?: string): string {
  const explicit = Deno.env.get("HEIMDALL_AUTHOR")?.trim();
  if (explicit) return explicit;
  return gitUserName(cwd) ?? (Deno.env.get("USER")?.trim() || Deno.env.get("USERNAME")?.trim() ||
    "unknown");
}

/**
 * git's `user.name` in `cwd` (this process's folder by default), or in `/`
 * when that is gone, where the person's global name still reads; null when
 * git has none or is not installed. One `git` subprocess (two when `cwd` is
 * gone).
 */
export function gitUserName(cwd?: string): string | null {
  let dir: string;
  try {
    dir = cwd ?? Deno.cwd();
  } catch {
    dir = "/"; // this process's folder was deleted
  }
  for (const at of dir === "/" ? [dir] : [dir, "/"]) {
    try {
      const out = new Deno.Command("git", {
        args: ["config", "user.name"],
        cwd: at,
        stdin: "null",
        stdout: "piped",
        stderr: "null",
      }).outputSync();
      const name = new TextDecoder().decode(out.stdout).trim();
      return out.success && name !== "" ? name : null;
    } catch { /* no git on this machine, or the folder is gone: try in / */ }
  }
  return null;
}
