/** The hook's log, `$HEIMDALL_HOME/logs/hooks.log`: Deno APIs only, never throws. */

/** Appends one timestamped line to `<home>/logs/hooks.log`. */
export function hookLog(homeDir: string, message: string): void {
  try {
    Deno.mkdirSync(`${homeDir}/logs`, { recursive: true });
    Deno.writeTextFileSync(
      `${homeDir}/logs/hooks.log`,
      `${new Date().toISOString()} ${message}\n`,
      {
        append: true,
      },
    );
  } catch { /* logging must never fail the hook */ }
}
