/**
 * The active model of a Heimdall home (`config.json`'s `model`, set by
 * `heimdall model use`), as the vector code needs it: a lazily opened
 * encoder for the embedding pass and the semantic leg, and a cheap status
 * that never loads the model.
 */
import { type HomePaths, loadConfig } from "../config/mod.ts";
import { embedderSource, modelFingerprint, modelStatus } from "../embed/mod.ts";
import type { EmbedderSource } from "./embedder.ts";
import type { ModelStatus } from "./semantic_leg.ts";

/** One process's view of the active model. */
export interface ActiveModel {
  /** Opens the active model on first use (cached; reopened when `model use` switches). */
  source: EmbedderSource;
  /** Installed and complete, or why not (with the command that fixes it). */
  status: ModelStatus;
}

/** The active model for `home`, read from its config at every call. */
export function activeModel(home: HomePaths): ActiveModel {
  let configError: string | undefined;
  const name = (): string | null => {
    try {
      configError = undefined;
      return loadConfig(home.config).model;
    } catch (e) {
      configError = (e as Error).message;
      return null;
    }
  };
  const source = embedderSource({ models: home.models, lib: home.lib }, name);
  return {
    source: async () => {
      const s = await source();
      return !s.on && configError ? { on: false, reason: configError } : s;
    },
    status: () => {
      const s = modelStatus(home.models, name());
      if (configError) return { on: false, reason: configError };
      return s.on
        ? { on: true, model: s.name, fingerprint: modelFingerprint(s.manifest) }
        : { on: false, reason: s.reason };
    },
  };
}
