import { join, resolve } from "node:path";
import { EnvironmentError } from "../errors/mod.ts";

/** Every file and folder under `$HEIMDALL_HOME`. */
export interface HomePaths {
  home: string;
  journal: string;
  config: string;
  hints: string;
  models: string;
  /** Native libraries extracted on first use (onnxruntime-node in a compiled binary). */
  lib: string;
  logs: string;
  lock: string;
  lockPid: string;
  ignore: string;
}

/**
 * `$HEIMDALL_HOME`, or `~/.heimdall` when unset. Pure apart from reading env.
 * Throws an EnvironmentError when neither that nor a home folder is set.
 */
export function resolveHome(env: { get(name: string): string | undefined } = Deno.env): string {
  const explicit = env.get("HEIMDALL_HOME");
  if (explicit && explicit.trim() !== "") return resolve(explicit);
  const home = env.get("HOME") ?? env.get("USERPROFILE");
  if (!home) {
    throw new EnvironmentError(
      "Cannot find a home folder: neither HEIMDALL_HOME nor HOME is set; set HEIMDALL_HOME=/path/to/.heimdall",
    );
  }
  return join(home, ".heimdall");
}

/** The layout of a home folder (no I/O). */
export function homePaths(home: string): HomePaths {
  return {
    home,
    journal: join(home, "journal.db"),
    config: join(home, "config.json"),
    hints: join(home, "hints"),
    models: join(home, "models"),
    lib: join(home, "lib"),
    logs: join(home, "logs"),
    lock: join(home, "writer.lock"),
    lockPid: join(home, "writer.pid"),
    ignore: join(home, "ignore"),
  };
}
