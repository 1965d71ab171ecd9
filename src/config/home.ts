import { join, resolve } from "../files/mod.ts";
import { EnvironmentError } from "../errors/mod.ts";
import { expandTilde } from "./tilde.ts";

/** Every file and folder under `$HEIMDALL_HOME`. */
export interface HomePaths {
  /** The folder itself (`$HEIMDALL_HOME`). */
  home: string;
  /** The SQLite journal, `journal.db`. */
  journal: string;
  /** The settings, `config.json`. */
  config: string;
  /** Pending hints, one small file each. */
  hints: string;
  /** Installed embedding models, one folder each. */
  models: string;
  /** Native libraries extracted on first use (onnxruntime-node in a compiled binary). */
  lib: string;
  /** Logs (`daemon.log`, `hooks.log`, `usage.log`…). */
  logs: string;
  /** The writer's lock file, `writer.lock`. */
  lock: string;
  /** The label naming the lock's holder, `writer.pid`. */
  lockPid: string;
  /** Locked by a daemon that waits for the writer lock (its pid inside), `daemon.wait`. */
  waitLock: string;
  /** The user's global ignore rules (gitignore syntax). */
  ignore: string;
}

/**
 * `$HEIMDALL_HOME` (a leading `~` is the home folder, as in a shell: agents'
 * JSON settings pass it unexpanded), or `~/.heimdall` when unset. Pure
 * apart from reading env.
 * Throws an EnvironmentError when neither that nor a home folder is set.
 */
export function resolveHome(env: { get(name: string): string | undefined } = Deno.env): string {
  const explicit = env.get("HEIMDALL_HOME");
  const home = env.get("HOME") ?? env.get("USERPROFILE");
  if (explicit && explicit.trim() !== "") return resolve(expandTilde(explicit, home));
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
    waitLock: join(home, "daemon.wait"),
    ignore: join(home, "ignore"),
  };
}
