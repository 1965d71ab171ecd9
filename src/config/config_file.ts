import { EnvironmentError } from "../errors/mod.ts";
import { dirname } from "../files/mod.ts";
import { type Config, ConfigError, parseConfig, withEnvOverrides } from "./config.ts";
import { ensurePrivateDir, openPrivateFile, writePrivateFileAtomic } from "./private_files.ts";

/** Where the `HEIMDALL_*` variables that beat the file come from (`Deno.env`, or a client's copy). */
export interface ConfigEnv {
  /** The value of variable `name`, or undefined when it is unset. */
  get(name: string): string | undefined;
}

/** No environment: what the file alone says (what a read-modify-write keeps). */
const FILE_ONLY: ConfigEnv = { get: () => undefined };

/**
 * Reads and validates `config.json`, then lets the `HEIMDALL_*` variables of
 * `env` beat it for this run (`ENV_OVERRIDES`). A missing file is the
 * defaults; a file that is not JSON raises {@link ConfigError} naming the file
 * and the parse error.
 */
export function loadConfig(file: string, env: ConfigEnv = Deno.env): Config {
  return withEnvOverrides(loadConfigFile(file), env);
}

function loadConfigFile(file: string): Config {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return parseConfig(undefined, file);
    // The home is a file: say which, as a writer creating it would (one message for both).
    if (e instanceof Deno.errors.NotADirectory) ensurePrivateDir(dirname(file));
    // A folder where the file goes (a container's bind mount of a file that
    // was not there makes one): said as the journal says it, not as "os error 21".
    if (e instanceof Deno.errors.IsADirectory) {
      throw new EnvironmentError(
        `Config "${file}" is a folder, not a file: move it aside (\`mv "${file}" "${file}.aside"\`) so that a config can be made there, or set HEIMDALL_HOME to another folder`,
      );
    }
    throw e;
  }
  refuseShared(file);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(
      "JSON",
      (e as Error).message,
      "fix the syntax or delete the file to start from the defaults",
      file,
    );
  }
  return parseConfig(raw, file);
}

/** Writes the config atomically (temporary file, then rename), 0600: it may hold a password. */
export function saveConfig(file: string, config: Config): void {
  ensurePrivateDir(dirname(file));
  writePrivateFileAtomic(file, JSON.stringify(config, null, 2) + "\n");
}

/**
 * Read-modify-write of the config under an exclusive file lock, so two
 * `heimdall roots add` at once both land.
 */
export async function updateConfig(
  file: string,
  change: (config: Config) => Config,
): Promise<Config> {
  ensurePrivateDir(dirname(file));
  const lock = await openPrivateFile(`${file}.lock`, { create: true, write: true });
  try {
    await lock.lock(true);
    // The file's own values: an override of this run is never written back.
    const next = change(loadConfig(file, FILE_ONLY));
    saveConfig(file, next);
    return next;
  } finally {
    lock.close();
  }
}

/**
 * Throws {@link ConfigError} when `file` is not its owner's private file in a
 * folder only its owner can write: another user's file, one that others
 * could read or write, or one others could replace (its roots, model and
 * team store would be theirs to choose, and it may hold the store's
 * password). POSIX only.
 */
function refuseShared(file: string): void {
  if (Deno.build.os === "windows") return;
  const me = Deno.uid();
  for (const [path, what] of [[file, "file"], [dirname(file), "folder"]] as const) {
    const st = Deno.statSync(path);
    if (st.uid !== null && me !== null && st.uid !== me) {
      throw new ConfigError(
        "owner",
        `uid ${st.uid}`,
        `the config ${what} "${path}" belongs to another user; use your own $HEIMDALL_HOME`,
        file,
      );
    }
    // Others may list a folder of the person's own (a HEIMDALL_HOME set to
    // their home folder), never write in it: they could replace the file.
    if (st.mode !== null && (st.mode & (what === "file" ? 0o077 : 0o022)) !== 0) {
      const mode = (st.mode & 0o777).toString(8).padStart(3, "0");
      throw new ConfigError(
        "mode",
        mode,
        what === "file"
          ? `the config file "${path}" is open to other users; run \`chmod 600 ${path}\``
          : `other users can write in the config folder "${path}"; run \`chmod go-w ${path}\``,
        file,
      );
    }
  }
}
