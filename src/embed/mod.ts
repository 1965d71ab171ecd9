/**
 * Local embedding models: tokenizer, ONNX runtime, model registry.
 *
 * Owns turning text into unit vectors on this machine's CPU ({@link Embedder}:
 * the model's own tokenizer implemented from its `tokenizer.json`, the graph
 * on onnxruntime-node or onnxruntime-web's WASM loaded from `wasm/`, CLS or
 * mean pooling, L2 normalisation), what a model is (a manifest: data, not
 * code; built-ins in `manifests/`), and installing models into
 * `$HEIMDALL_HOME/models/` (download with resume and checksums, or import
 * from a folder). Never touches the journal and never stores a vector: the
 * vector code (`src/vector`) decides what gets embedded and keeps the results.
 * Never fetches anything at run time except an explicit `pullModel`.
 */
export { Embedder, type EmbedderOptions, type EmbedKind, ModelLoadError } from "./embedder.ts";
export { type ActiveEmbedder, embedderSource, type ModelPaths } from "./source.ts";
export { DEFAULT_MAX_TOKENS, type Encoding, Tokenizer, TokenizerConfigError } from "./tokenizer.ts";
export {
  fileWithRole,
  ManifestError,
  MODEL_NAME,
  type ModelFile,
  modelFingerprint,
  type ModelManifest,
  parseManifest,
  type Pooling,
} from "./manifest.ts";
export { DEFAULT_MODEL, NO_MODEL_REASON } from "./default_model.ts";
export {
  BUILTIN_MODELS,
  builtinManifest,
  installCommand,
  type InstalledModel,
  installedModels,
  type ModelStatus,
  modelStatus,
  readInstalled,
  REFERENCE_MODEL,
} from "./registry.ts";
export {
  ChecksumMismatchError,
  DownloadError,
  type FileProgress,
  importModel,
  type InstalledFile,
  type InstallResult,
  ModelCheckError,
  ModelSourceError,
  pullModel,
} from "./install.ts";
export { type BackendName, openSession, type Session } from "./runtime.ts";
export { NativeUnavailableError } from "./ort_native.ts";
export { WasmRuntimeError } from "./ort_wasm.ts";
export { cosine, normalizeL2, pool } from "./pool.ts";
