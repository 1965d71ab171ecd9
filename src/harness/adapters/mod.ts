/** The harness adapters, by name. */
import type { HarnessName } from "../event.ts";
import { claudeCode } from "./claude_code.ts";
import { codex } from "./codex.ts";
import type { Adapter } from "./common.ts";
import { cursor } from "./cursor.ts";
import { gemini } from "./gemini.ts";
import { kiro } from "./kiro.ts";
import { pi } from "./pi.ts";
import { windsurf } from "./windsurf.ts";

export type { Adapter, AdapterEnv } from "./common.ts";

/** Every adapter, keyed by harness name. */
export const ADAPTERS: Record<HarnessName, Adapter> = {
  "claude-code": claudeCode,
  codex,
  cursor,
  windsurf,
  kiro,
  pi,
  gemini,
};
