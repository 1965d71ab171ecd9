/** Who is writing a memory. */

/**
 * The author of memories written from this process: `$HEIMDALL_AUTHOR`, else
 * `git config user.name` (run in `cwd`), else `$USER`, else "unknown". Costs
 * one `git` subprocess when the variable is unset; a missing git is fine.
 */
export function defaultAuthor(cwd = Deno.cwd()): string {
  const explicit = Deno.env.get("HEIMDALL_AUTHOR")?.trim();
  if (explicit) return explicit;
  try {
    const out = new Deno.Command("git", {
      args: ["config", "user.name"],
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const name = new TextDecoder().decode(out.stdout).trim();
    if (out.success && name) return name;
  } catch { /* no git on this machine, or cwd is gone */ }
  return Deno.env.get("USER")?.trim() || Deno.env.get("USERNAME")?.trim() || "unknown";
}
