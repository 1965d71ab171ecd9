/// <reference lib="dom" />
/**
 * A graph drawn in SVG: nodes sized by PageRank, an optional betweenness
 * overlay, outlines in a person's colour, badges, red conflict paths. The
 * server never sends more than a few hundred nodes per level, so SVG stays
 * smooth and every node is an element a test (or a screen reader) can find.
 */
import { betweenness, html, layout, newGraph, pagerank, useMemo } from "./libs.ts";

/** A node as the views hand it over. */
export interface ViewNode {
  id: string;
  label: string;
  /** Colour of the outline (a person's), when claimed. */
  outline?: string | undefined;
  outlineTitle?: string | undefined;
  /** Text of a badge drawn at the top right (`×2`, `D`). */
  badge?: string | undefined;
  badgeKind?: "failure" | "memory" | undefined;
  fill?: string | undefined;
  dim?: boolean | undefined;
  /** Extra attributes for tests and styles. */
  data?: Record<string, string> | undefined;
}

/** An edge: `red` for a conflict path, `dashed` for a shared-caller chain. */
export interface ViewEdge {
  source: string;
  target: string;
  weight?: number;
  style?: "red" | "dashed" | undefined;
}

interface Placed {
  id: string;
  x: number;
  y: number;
  r: number;
  rank: number;
  between: number;
  node: ViewNode;
}

function seed(id: string, salt: number): number {
  let h = 2166136261 ^ salt;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return ((h >>> 0) % 10000) / 10000;
}

/** Positions, PageRank and betweenness of a level: computed once per level. */
function place(
  nodes: ViewNode[],
  edges: ViewEdge[],
  withBetweenness: boolean,
): { placed: Placed[]; maxRank: number } {
  const t0 = performance.now();
  const g = newGraph();
  for (const n of nodes) {
    g.addNode(n.id, { x: seed(n.id, 1) * 100, y: seed(n.id, 2) * 100 });
  }
  for (const e of edges) {
    if (e.source === e.target || !g.hasNode(e.source) || !g.hasNode(e.target)) continue;
    if (!g.hasEdge(e.source, e.target)) g.addEdge(e.source, e.target, { weight: e.weight ?? 1 });
  }
  // Fewer passes for a large level: it settles enough, and a click stays under 100 ms.
  if (g.size > 0) layout(g, g.order > 200 ? 15 : g.order > 80 ? 30 : 80);
  else {
    // No links: a grid, largest first.
    const cols = Math.ceil(Math.sqrt(nodes.length));
    nodes.forEach((n, i) => {
      g.setNodeAttribute(n.id, "x", (i % cols) * 10);
      g.setNodeAttribute(n.id, "y", Math.floor(i / cols) * 10);
    });
  }
  const ranks = g.order > 0 ? pagerank(g) : {};
  // Brandes' algorithm costs nodes × edges: only when the overlay asks, or on a small level.
  const betw = (withBetweenness || g.order <= 100) && g.order > 2 && g.size > 0
    ? betweenness(g)
    : {};
  const maxRank = Math.max(1e-9, ...Object.values(ranks));
  const placed = nodes.map((node) => {
    const a = g.getNodeAttributes(node.id);
    const rank = ranks[node.id] ?? 0;
    return {
      id: node.id,
      x: a.x as number,
      y: a.y as number,
      r: 5 + 13 * Math.sqrt(rank / maxRank),
      rank,
      between: betw[node.id] ?? 0,
      node,
    };
  });
  (globalThis as unknown as { __heimdallLayoutMs: number[] }).__heimdallLayoutMs?.push(
    performance.now() - t0,
  );
  return { placed, maxRank };
}

/** Heat colour for a betweenness share 0..1. */
function heat(v: number): string {
  const t = Math.min(1, Math.sqrt(v) * 2);
  return `hsl(${Math.round(210 - 210 * t)}, 80%, ${Math.round(60 - 10 * t)}%)`;
}

/** The SVG graph. `onPick` gets a node id on click. */
export function GraphView(props: {
  nodes: ViewNode[];
  edges: ViewEdge[];
  overlay?: boolean;
  selected?: string | null;
  onPick?: (id: string) => void;
  height?: number;
}) {
  // Laid out again only when the level's nodes or links change, not on every render.
  const key = props.nodes.map((n) => n.id).join("\u0000") + `|${props.edges.length}`;
  const { placed: laid } = useMemo(
    () => place(props.nodes, props.edges, props.overlay ?? false),
    [key, props.overlay && props.nodes.length > 100],
  );
  // Decorations (outlines, badges) may change without moving anything.
  const current = new Map(props.nodes.map((n) => [n.id, n]));
  const placed = laid.map((p) => ({ ...p, node: current.get(p.id) ?? p.node }));
  if (placed.length === 0) return html`<p class="empty">Nothing to draw here.</p>`;
  const xs = placed.map((p) => p.x), ys = placed.map((p) => p.y);
  const minX = Math.min(...xs),
    maxX = Math.max(...xs),
    minY = Math.min(...ys),
    maxY = Math.max(...ys);
  const W = 1000, H = props.height ?? 620, pad = 40;
  // A level of one node (or one column) is centred rather than pushed to a corner.
  const sx = (x: number) =>
    maxX - minX < 1e-9 ? W / 2 : pad + ((x - minX) / (maxX - minX)) * (W - 2 * pad - 110);
  const sy = (y: number) =>
    maxY - minY < 1e-9 ? H / 2 : pad + ((y - minY) / (maxY - minY)) * (H - 2 * pad);
  const byId = new Map(placed.map((p) => [p.id, p]));
  const maxBetween = Math.max(1e-9, ...placed.map((p) => p.between));
  const labelled = new Set(
    [...placed].sort((a, b) => b.rank - a.rank).slice(0, 60).map((p) => p.id),
  );
  const maxW = Math.max(1, ...props.edges.map((e) => e.weight ?? 1));
  return html`<svg class="graph" viewBox="0 0 ${W} ${H}" role="img" aria-label="code map">
    <defs>
      <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
        <path d="M 0 0 L 10 5 L 0 10 z" fill="#999" />
      </marker>
      <marker id="arrow-red" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
        <path d="M 0 0 L 10 5 L 0 10 z" fill="#d62728" />
      </marker>
    </defs>
    ${
    props.edges.map((e) => {
      const a = byId.get(e.source), b = byId.get(e.target);
      if (!a || !b) return null;
      const cls = e.style === "red"
        ? "edge conflict"
        : e.style === "dashed"
        ? "edge shared"
        : "edge";
      const w = e.style ? 3 : 0.6 + 2.4 * Math.log1p(e.weight ?? 1) / Math.log1p(maxW);
      // End the line at the target's rim, so its arrow head shows.
      const x1 = sx(a.x), y1 = sy(a.y), dx = sx(b.x) - x1, dy = sy(b.y) - y1;
      const len = Math.max(1e-9, Math.hypot(dx, dy)), cut = Math.max(0, 1 - (b.r + 3) / len);
      return html`
        <line class=${cls} data-source=${e.source} data-target=${e.target}
          x1=${x1} y1=${y1} x2=${x1 + dx * cut} y2=${y1 + dy * cut} stroke-width=${w}
          marker-end=${e.style === "red" ? "url(#arrow-red)" : "url(#arrow)"} />
      `;
    })
  }
    ${
    placed.map((p) => {
      const n = p.node;
      const fill = props.overlay ? heat(p.between / maxBetween) : n.fill ?? "#cfd8e3";
      const data: Record<string, string> = {};
      for (const [k, v] of Object.entries(n.data ?? {})) data[`data-${k}`] = v;
      return html`
        <g class=${`node${n.outline ? " claimed" : ""}${
          props.selected === n.id ? " selected" : ""
        }${n.dim ? " dim" : ""}`} data-id=${n.id} data-label=${n.label} data-rank=${p.rank.toFixed(
          4,
        )}
          data-betweenness=${p.between.toFixed(4)} ...${data}
          transform="translate(${sx(p.x)}, ${sy(p.y)})" onClick=${() => props.onPick?.(n.id)}>
                <title>${n.label}${n.outlineTitle ? ` — ${n.outlineTitle}` : ""} (PageRank ${p.rank
                  .toFixed(3)}, betweenness ${p.between.toFixed(3)})</title>
                <circle r=${p.r} fill=${fill} stroke=${n.outline ?? "#5b6b7f"}
                  stroke-width=${n.outline ? 4 : 1} />
                ${n.badge
                  ? html`
                    <g class=${`badge ${n.badgeKind ?? "memory"}`} transform="translate(${p.r}, ${-p
                      .r})">
                      <rect x="-2" y="-9" width=${8 + 7 * n.badge.length} height="16" rx="8" />
                      <text x="2" y="3">${n.badge}</text>
                    </g>
                  `
                  : null}
                ${labelled.has(p.id) || n.outline || props.selected === n.id
                  ? html`<text class="label" x=${p.r + 3} y="4">${n.label}</text>`
                  : null}
              </g>
      `;
    })
  }
  </svg>`;
}
