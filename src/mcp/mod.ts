/**
 * The MCP server: Heimdall's tools for agents, over stdio.
 *
 * Owns the tool definitions (one file each under `tools/`, verb_noun names,
 * JSON schemas from zod, honest annotations), the server built on the
 * official SDK, the stateless 2026-07-28 layer the SDK lacks, and the stdio
 * transport (every line answered, a size limit that answers too, and the
 * requests in flight finished when the client closes stdin). Never writes
 * to stdout except protocol messages; never takes the writer lock (memory
 * and notes are plain transactions, whose waits for another process's
 * lock never hold up the other requests).
 */
export {
  createServer,
  discoverInfo,
  INSTRUCTIONS,
  SERVER_INFO,
  serveStdio,
  toolContext,
} from "./server.ts";
export {
  STATELESS_VERSION,
  StatelessBridge,
  SUPPORTED_VERSIONS,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "./stateless.ts";
export type { Annotations, ToolAnswer, ToolContext, ToolDef } from "./tool.ts";
export { TOOLS } from "./tools/mod.ts";
export { type IndexHealth, indexHealth } from "./health.ts";
