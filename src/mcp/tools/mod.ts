/** Every MCP tool Heimdall serves, in the order `tools/list` shows them. */
import type { ToolDef } from "../tool.ts";
import { blastRadiusTool } from "./blast_radius.ts";
import { calleesTool } from "./callees.ts";
import { claimTool } from "./claim.ts";
import { conflictsTool } from "./conflicts.ts";
import { constraintsTool } from "./constraints.ts";
import { handoffTool } from "./handoff.ts";
import { callersTool } from "./callers.ts";
import { insertNoteTool } from "./insert_note.ts";
import { recordAttemptTool } from "./record_attempt.ts";
import { rememberTool } from "./remember.ts";
import { searchTool } from "./search.ts";
import { statusTool } from "./status.ts";
import { symbolsTool } from "./symbols.ts";
import { listTasksTool, releaseTool, resumeTaskTool, startTaskTool } from "./tasks.ts";
import { whyTool } from "./why.ts";
import { whoKnowsTool } from "./who_knows.ts";

/** Every tool, in the order `tools/list` shows them. */
export const TOOLS: readonly ToolDef[] = [
  searchTool,
  insertNoteTool,
  rememberTool,
  recordAttemptTool,
  whyTool,
  blastRadiusTool,
  callersTool,
  calleesTool,
  symbolsTool,
  constraintsTool,
  conflictsTool,
  claimTool,
  releaseTool,
  startTaskTool,
  listTasksTool,
  handoffTool,
  resumeTaskTool,
  whoKnowsTool,
  statusTool,
];
