/**
 * Errors: the one base class every error Heimdall throws on purpose extends,
 * the kinds (usage, environment, drift, internal) that decide what a person
 * does about one, and the "did you mean" a usage error names. The lowest layer, so every folder may use it; it
 * imports nothing, and never maps a kind to an exit code or prints (that is
 * `src/cli`'s, in one table).
 */
export { clipped } from "./clipped.ts";
export { errorText } from "./error_text.ts";
export { meant, nearest } from "./nearest.ts";
export {
  DriftError,
  EnvironmentError,
  ERROR_KINDS,
  type ErrorKind,
  HeimdallError,
  InternalError,
  UsageError,
} from "./heimdall_error.ts";
