/**
 * The dashboard (`heimdall ui`): a local web app over the journal and the
 * team store — search, the code map with the team's claims and conflicts on
 * it, memory with its timeline, the architectural map and health, usage.
 *
 * Owns the HTTP server (loopback only, a random token on every request,
 * writes guarded against cross-site requests), the read models behind each
 * view (aggregated on the server so half a million symbols stay
 * responsive) and the front-end (`app/`, bundled into `assets/app.js` by
 * `deno task ui:build`). Reads through the store, search, memory and team
 * modules without the writer lock; writes only memories, through
 * `remember`. Never serves a file outside the indexed roots, never fetches
 * anything from the network, never sends anything anywhere.
 */
export { type DemoPlayer, startUi, type UiOptions, type UiServer } from "./server.ts";
export type { DemoState } from "./demo.ts";
export { checkRequest, cookieName, newToken } from "./guard.ts";
