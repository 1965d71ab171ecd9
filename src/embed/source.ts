/**
 * The active model as a lazily opened, cached {@link Embedder}: what the
 * reconciler's embedding pass and the semantic search leg call before each
 * use. Cheap after the first call; reopens when the active model changes
 * (`heimdall model use`), and says why the leg is off instead of throwing.
 */
import { join } from "../files/mod.ts";
import { Embedder, type EmbedderOptions } from "./embedder.ts";
import { builtinManifest, installCommand, modelStatus } from "./registry.ts";

/** The active model's embedder, or why there is none. */
export type ActiveEmbedder =
  | { on: true; embedder: Embedder }
  /** `failed`: the installed model that did not load, when that is why. */
  | { on: false; reason: string; failed?: string };

/** Where models live and where the native runtime may be extracted. */
export interface ModelPaths {
  /** `$HEIMDALL_HOME/models` */
  models: string;
  /** `$HEIMDALL_HOME/lib` */
  lib: string;
}

/**
 * Returns a function resolving the active model (`active()` is read at each
 * call, e.g. from config) to an open embedder. A model that fails to load
 * is reported as `{ on: false, reason }` and retried only when the active
 * name changes or the model is installed again (its `manifest.json`, written
 * last by an install, changed: one stat per call).
 */
export function embedderSource(
  paths: ModelPaths,
  active: () => string | null,
  options: Omit<EmbedderOptions, "libDir"> = {},
): () => Promise<ActiveEmbedder> {
  let current: { key: string; state: Promise<ActiveEmbedder> } | undefined;
  return () => {
    const name = active();
    const key = `${name}\0${name === null ? "" : installStamp(paths.models, name)}`;
    if (current && current.key === key) return current.state;
    const previous = current;
    const state = (async (): Promise<ActiveEmbedder> => {
      const old = await previous?.state;
      if (old?.on) await old.embedder.close();
      const status = modelStatus(paths.models, name);
      if (!status.on) return status;
      try {
        return {
          on: true,
          embedder: await Embedder.open(status.dir, { ...options, libDir: paths.lib }),
        };
      } catch (e) {
        return {
          on: false,
          reason: `model "${status.name}" failed to load: ${
            (e as Error).message.trim()
          }; install it again: ${installCommand(status.name)}${
            builtinManifest(status.name) ? ` (or model import ${status.name} --from DIR)` : ""
          }`,
          failed: status.name,
        };
      }
    })();
    current = { key, state };
    return state;
  };
}

/** When model `name`'s manifest was written, and its size: an install writes it last. */
function installStamp(models: string, name: string): string {
  try {
    const st = Deno.statSync(join(models, name, "manifest.json"));
    return `${st.mtime?.getTime() ?? 0}:${st.ino ?? 0}:${st.size}`;
  } catch {
    return "none";
  }
}
