/**
 * The architectural map: components of a repository by path glob, what they
 * depend on, and the constraints (must / should / info) that hold in them,
 * declared in `.heimdall/map.toml` (or `map.json`) at the repository root.
 *
 * Owns parsing (a TOML subset, pure), glob matching and specificity (pure),
 * resolving a path to its component and constraints, and checking a map
 * against the files on disk. Never writes: the map lives in the repository.
 */
export {
  type ArchMap,
  type Component,
  type Level,
  LEVELS,
  MapError,
  parseMap,
} from "./map_file.ts";
export {
  type AppliedConstraint,
  componentFor,
  constraintsFor,
  constraintsIn,
  findMapFile,
  loadMap,
  type PathConstraints,
  type Resolution,
} from "./resolve.ts";
export { checkMap, type ComponentReport, type MapCheck, type MapProblem } from "./check.ts";
export {
  compareSpecificity,
  compileGlob,
  type Glob,
  globCovers,
  type Segment,
  type Token,
} from "./glob.ts";
export { parseToml, TomlError } from "./toml.ts";
export { type BehindHead, docsBehindHead } from "./freshness.ts";
