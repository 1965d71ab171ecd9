import { writePrivateFile } from "../config/private_files.ts";
import { redactSecrets } from "../files/secrets.ts";

/** Where the reconciler reports what it did; the CLI and the daemon choose the sink. */
export interface Logger {
  /** Reports what was done (shown when verbose). */
  info(message: string): void;
  /** Reports what went wrong and was survived (always shown). */
  warn(message: string): void;
}

/** Logs nothing (tests, quiet one-shot commands). */
export const silentLogger: Logger = { info() {}, warn() {} };

/** Logs to stderr, secrets redacted; info only when verbose. */
export function stderrLogger(verbose = false): Logger {
  const enc = new TextEncoder();
  const write = (s: string) => Deno.stderr.writeSync(enc.encode(redactSecrets(s) + "\n"));
  return {
    info: (m) => verbose && write(m),
    warn: (m) => write(`heimdall: ${m}`),
  };
}

/** The size past which a log file moves aside to `FILE.1`: a daemon that runs for months keeps two files of it at most. */
export const LOG_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Appends timestamped lines to a log file (the daemon's `logs/daemon.log`, 0600),
 * and warnings to stderr too. Secrets in a message (an error quoting a line of
 * a file, say) are redacted, here and on stderr. Once the file holds
 * `maxBytes`, it is renamed `FILE.1` (replacing the one before) and a new one
 * begins: one stat per line.
 */
export function fileLogger(file: string, alsoStderr = true, maxBytes = LOG_MAX_BYTES): Logger {
  const line = (level: string, m: string) => {
    try {
      if (Deno.statSync(file).size >= maxBytes) Deno.renameSync(file, `${file}.1`);
    } catch { /* no file yet */ }
    try {
      writePrivateFile(file, `${new Date().toISOString()} ${level} ${redactSecrets(m)}\n`, {
        append: true,
      });
    } catch { /* a full disk must not stop the writer */ }
  };
  const err = stderrLogger(false);
  return {
    info: (m) => line("info", m),
    warn: (m) => {
      line("warn", m);
      if (alsoStderr) err.warn(m);
    },
  };
}
