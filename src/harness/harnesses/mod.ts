/**
 * The registry of harnesses: every agent harness Heimdall wires into, one
 * module each in this folder, each a {@link HarnessSpec} (event table,
 * payload readers, answers, install plan). Adding a harness is adding its
 * module, listing it here, and adding its payload fixtures (with their
 * provenance) under `tests/fixtures/harness/<name>/`. Nothing here acts:
 * `engine.ts` reads payloads and writes answers, `install/` writes configs.
 */
import type { HarnessSpec } from "../spec.ts";
import { claudeCode } from "./claude_code.ts";
import { codex } from "./codex.ts";
import { cursor } from "./cursor.ts";
import { gemini } from "./gemini.ts";
import { kiro } from "./kiro.ts";
import { pi } from "./pi.ts";
import { windsurf } from "./windsurf.ts";

/** Every harness, in the order `init` and `doctor` go through them. */
const REGISTRY = [claudeCode, codex, cursor, windsurf, kiro, pi, gemini] as const;

/** The name of a registered harness (`--harness NAME`). */
export type HarnessName = typeof REGISTRY[number]["name"];

/** Every registered harness's name. */
export const HARNESSES: readonly HarnessName[] = REGISTRY.map((h) => h.name);

/** True when `name` is a registered harness. */
export function isHarness(name: string): name is HarnessName {
  return (HARNESSES as readonly string[]).includes(name);
}

/** The description of a registered harness. */
export function harnessSpec(name: HarnessName): HarnessSpec<HarnessName> {
  return REGISTRY.find((h) => h.name === name)!;
}
