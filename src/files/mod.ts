/**
 * The filesystem as Heimdall sees it (a leaf, like ripgrep's `ignore`
 * crate): walking a root with git's ignore rules, and the secret screen that
 * keeps secret files and secret text out of everything Heimdall stores,
 * content hashes, and path arithmetic (Node's POSIX results without loading
 * `node:path`). Reads files; writes nothing.
 */
export { canonicalPath } from "./canonical.ts";
export { contentHash, contentHashAsync, sha1Hex, sha256Hex } from "./content_hash.ts";
export { decodeText, utf16Bom } from "./decode.ts";
export { exists, isDirectory, isFile, isFolderGone, isGone } from "./exists.ts";
export {
  basename,
  dirname,
  isAbsolute,
  join,
  posix,
  type PosixPath,
  relative,
  resolve,
  sep,
} from "./path.ts";
export { codeStamp, lastingBinaryPath, runningUnderDeno } from "./program.ts";
export { readTextIfPresent, readTextOrNull } from "./read_text.ts";
export { readTail } from "./tail.ts";
export { wildcardMatch } from "./wildcard.ts";
export { NOT_UTF8, type SkipReason, type WalkEvent, type WalkOptions, walkRoot } from "./walk.ts";
export {
  classifyPath,
  DEFAULT_IGNORED_DIRS,
  IGNORE_FILE_NAMES,
  IgnoreCache,
  IgnoreRules,
  IgnoreStack,
  loadIgnoreStack,
} from "./ignore.ts";
export {
  findSecrets,
  isSecretName,
  redactDeep,
  redactSecrets,
  screenRecord,
  SECRET_SCREEN_VERSION,
  type SecretFinding,
  sniffSecret,
  type StoredSecret,
} from "./secrets.ts";
