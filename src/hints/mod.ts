/**
 * Hints: "look at these paths", written by any process in O(1) without the
 * writer lock (one small file each under `$HEIMDALL_HOME/hints/`) and read by
 * the writer; and the paths a harness's hook payload names. A hint is never
 * believed about what happened: it only costs the writer a stat.
 */
export { parsePatch, type PatchFile } from "./patch.ts";
export * from "./hints.ts";
