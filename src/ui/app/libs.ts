/// <reference lib="dom" />
/**
 * The front-end's outside libraries, imported in this one place: preact and
 * htm for the views, graphology for the graphs, graphology-metrics for
 * PageRank and betweenness, ForceAtlas2 for the layout. Several are
 * CommonJS packages whose default export the bundler hands over as the
 * module itself; this file takes whichever form arrives.
 */
// deno-lint-ignore-file no-explicit-any
import { h, render } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import * as htmNs from "htm";
import * as graphologyNs from "graphology";
import * as pagerankNs from "graphology-metrics/centrality/pagerank.js";
import * as betweennessNs from "graphology-metrics/centrality/betweenness.js";
import * as fa2Ns from "graphology-layout-forceatlas2";

const either = (ns: any): any => ns.default ?? ns;

/** Tagged templates building preact elements. */
export const html: (strings: TemplateStringsArray, ...values: unknown[]) => any = either(htmNs)
  .bind(h);
export { render, useEffect, useMemo, useRef, useState };

/** A graph: nodes and directed edges with attributes. */
export interface GraphLike {
  addNode(id: string, attrs?: Record<string, unknown>): void;
  hasNode(id: string): boolean;
  addEdge(a: string, b: string, attrs?: Record<string, unknown>): void;
  hasEdge(a: string, b: string): boolean;
  order: number;
  size: number;
  setNodeAttribute(id: string, key: string, value: unknown): void;
  getNodeAttributes(id: string): Record<string, any>;
  forEachNode(fn: (id: string, attrs: Record<string, any>) => void): void;
}

/** A new directed graph (multi-edges merged by the caller). */
export function newGraph(): GraphLike {
  const Graph = either(graphologyNs);
  return new Graph({ type: "directed", multi: false, allowSelfLoops: false });
}

/** PageRank of every node (sums to 1). */
export function pagerank(g: GraphLike): Record<string, number> {
  return either(pagerankNs)(g, { getEdgeWeight: null });
}

/** Normalised betweenness centrality of every node. */
export function betweenness(g: GraphLike): Record<string, number> {
  return either(betweennessNs)(g, { normalized: true });
}

/** Lays the graph out with ForceAtlas2 (positions in the x and y attributes). */
export function layout(g: GraphLike, iterations: number): void {
  const fa2 = either(fa2Ns);
  fa2.assign(g, {
    iterations,
    settings: { ...fa2.inferSettings(g), barnesHutOptimize: g.order > 300 },
  });
}
