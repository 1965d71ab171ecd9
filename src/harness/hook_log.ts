/** The hook's log, `$HEIMDALL_HOME/logs/hooks.log`: Deno APIs only, never throws. */
import { ensurePrivateDir, LOG_ROTATE_BYTES, writePrivateFile } from "../config/private_files.ts";
import { redactSecrets } from "../files/secrets.ts";

/**
 * Appends one timestamped line to `<home>/logs/hooks.log` (private: 0600 in a 0700
 * folder), secrets redacted.
 */
export function hookLog(homeDir: string, message: string): void {
  try {
    ensurePrivateDir(`${homeDir}/logs`);
    writePrivateFile(
      `${homeDir}/logs/hooks.log`,
      `${new Date().toISOString()} ${redactSecrets(message)}\n`,
      { append: true, rotateAt: LOG_ROTATE_BYTES },
    );
  } catch { /* logging must never fail the hook */ }
}
