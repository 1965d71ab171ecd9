/**
 * Configuration and the places Heimdall keeps its data.
 *
 * Owns: where `$HEIMDALL_HOME` is, what `config.json` may say (parsed and
 * validated in pure code, {@link parseConfig}), and writing it back atomically.
 * Never touches the journal: roots listed here are the *desired* set, which the
 * reconciler mirrors into the journal on its next pass.
 */
export { defaultConfig, ENV_OVERRIDES, parseConfig, teamUrlProblem } from "./config.ts";
export type { Config, RootConfig } from "./config.ts";
export { ConfigError } from "./config.ts";
export { homePaths, resolveHome } from "./home.ts";
export { expandTilde, tildeOf } from "./tilde.ts";
export type { HomePaths } from "./home.ts";
export { type ConfigEnv, loadConfig, saveConfig, updateConfig } from "./config_file.ts";
export {
  ensurePrivateDir,
  isHomeEntry,
  openPrivateFile,
  tightenHome,
  tightenPrivate,
  writePrivateFile,
  writePrivateFileAtomic,
} from "./private_files.ts";
export { depthName, DEPTHS, parseDepth } from "./depth.ts";
export type { Depth, DepthRequest } from "./depth.ts";
export { logUsage, usageLogPath, type UsageRecord } from "./usage_log.ts";
export { redactStoredLogs } from "./stored_logs.ts";
export { BULK_NICE, BULK_WORKER, defaultWorkerCount, yieldToForeground } from "./workers.ts";
