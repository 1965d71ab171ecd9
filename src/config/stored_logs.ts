/**
 * Secrets an older build wrote into the logs under `$HEIMDALL_HOME/logs/`
 * before a rule of the screen existed (every log line is redacted as it is
 * written now): found by file, and redacted in place.
 */
import { join, screenRecord, type StoredSecret } from "../files/mod.ts";
import { writePrivateFileAtomic } from "./private_files.ts";

/**
 * The log files in `logsDir` (`hooks.log`, `search.log`, `daemon.log`, their
 * `.1` before them…) holding a secret-shaped value: each named with the
 * kinds found, never a value. With `apply`, each
 * is replaced (atomically) by its text with only those spans redacted, as a
 * log line is written now; a line another process appends while it is
 * rewritten may be lost. Reads every log whole; a missing folder holds none.
 */
export function redactStoredLogs(logsDir: string, apply: boolean): StoredSecret[] {
  const out: StoredSecret[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(logsDir)].filter((e) => e.isFile && !e.name.endsWith(".tmp"));
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const file = join(logsDir, e.name);
    let text: string;
    try {
      text = Deno.readTextFileSync(file);
    } catch {
      continue; // gone meanwhile (moved aside), or unreadable: nothing of it is shown
    }
    // Whole: a private key logged by an older build spans lines.
    const hit = screenRecord("logs", e.name, { text });
    if (hit === undefined) continue;
    out.push(hit.found);
    if (apply) writePrivateFileAtomic(file, hit.redacted.text as string);
  }
  return out;
}
