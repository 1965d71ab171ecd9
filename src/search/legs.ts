/**
 * The semantic leg's plug: the embeddings code registers a leg here and
 * search calls it; with none registered (or one that is off or fails) search
 * runs on its other legs and says why the semantic leg is off. Never fails a
 * search.
 */
import type { Journal } from "../store/mod.ts";

/** What a semantic leg says about itself before it is asked anything. */
export type LegStatus = { on: true; model: string } | { on: false; reason: string };

/** Restricts a leg to some chunks (when a filter narrows the search to few of them). */
export interface LegFilter {
  /** When present, only these chunk ids may be returned. */
  chunkIds?: ReadonlySet<number>;
}

/** A ranked chunk from a leg: higher scores are better. */
export interface LegHit {
  /** The id of a row of `chunks`. */
  chunkId: number;
  /** The leg's score for it (higher is better). */
  score: number;
}

/**
 * A semantic leg: ranks chunks (the `chunks` table's ids) by meaning. It may
 * be slow to start (a model to load) but must not throw for an ordinary
 * query; if it does, search records the error as the reason it was off.
 */
export interface SemanticLeg {
  /** The leg's name, as search reports it (`semantic`). */
  readonly name: string;
  /** Whether the leg is on (and with which model) or why not; cheap, and never throws. */
  status(): LegStatus;
  /** The `limit` best chunks for `query` among those `filter` allows, best first. */
  search(query: string, limit: number, filter: LegFilter): Promise<LegHit[]>;
}

/**
 * A leg that is off, saying why (no model, a config error): what a search
 * reports when there is nothing to rank by meaning.
 *
 * @example
 * ```ts
 * import { legOff } from "./legs.ts";
 * import assert from "node:assert/strict";
 * const leg = legOff("no model");
 * assert.deepEqual(leg.status(), { on: false, reason: "no model" });
 * assert.deepEqual(await leg.search("q", 10, {}), []);
 * ```
 */
export function legOff(reason: string): SemanticLeg {
  return {
    name: "semantic",
    status: () => ({ on: false, reason }),
    search: () => Promise.resolve([]),
  };
}

/** Makes the leg for one open journal (the registration point). */
export type SemanticLegFactory = (j: Journal) => SemanticLeg | undefined;

/** What search says when no semantic leg is registered: the same words as `status` and `doctor`. */
export { NO_MODEL_REASON } from "../embed/default_model.ts";

let factory: SemanticLegFactory | undefined;

/**
 * Registers (or, with undefined, removes) the semantic leg: a leg, or a
 * factory called with the journal of each search. The last registration wins.
 */
export function setSemanticLeg(leg: SemanticLeg | SemanticLegFactory | undefined): void {
  factory = leg === undefined ? undefined : typeof leg === "function" ? leg : () => leg;
}

/** The registered semantic leg for `j`, if any. A factory that throws counts as none. */
export function semanticLegFor(j: Journal): SemanticLeg | undefined {
  try {
    return factory?.(j);
  } catch {
    return undefined;
  }
}
