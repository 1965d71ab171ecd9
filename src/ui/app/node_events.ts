/**
 * Node's `EventEmitter` for the browser bundle, from the npm `events`
 * package: graphology extends it, and `deno bundle` leaves its `events`
 * import pointing at Node's built-in, which a browser lacks;
 * `scripts/build_ui.ts` puts this in its place.
 */
// deno-lint-ignore-file no-explicit-any
import * as events from "events";

(globalThis as any).__heimdallEvents = (events as any).default ?? events;
