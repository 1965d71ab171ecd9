/// <reference lib="dom" />
/**
 * The Code map: repositories → folders → files → symbols, and the call
 * neighbourhood of a symbol; node size by PageRank, a betweenness overlay,
 * claims outlined in each person's colour, memory badges (×N for a
 * repeated failure).
 */
import type { MapLevel, MapNode } from "../code_map.ts";
import { get, personColour, timeToPaint } from "./api.ts";
import { GraphView, type ViewNode } from "./graph_view.ts";
import { html, useEffect, useState } from "./libs.ts";
import { editorUrl } from "./search_view.ts";

export interface Badge {
  memories: number;
  decisions: number;
  failures: number;
}

export interface Badges {
  nodes: Record<string, Badge>;
  files: Record<string, Badge>;
}

export interface ClaimMark {
  developer: string;
  qualname: string;
  node: { id: string; path: string; line: number | null } | null;
}

type Step =
  | { kind: "roots"; label: string }
  | { kind: "folder"; at: string; label: string }
  | { kind: "file"; path: string; label: string }
  | { kind: "symbol"; id: string; label: string };

function params(s: Step): Record<string, string> {
  if (s.kind === "folder") return { at: s.at };
  if (s.kind === "file") return { file: s.path };
  if (s.kind === "symbol") return { symbol: s.id };
  return {};
}

/** A badge's text: ×N for a repeated open failure, else the number of memories. */
export function badgeOf(b: Badge | undefined): Pick<ViewNode, "badge" | "badgeKind"> {
  if (!b) return {};
  if (b.failures > 0) return { badge: `×${b.failures}`, badgeKind: "failure" };
  if (b.memories > 0) {
    return { badge: b.decisions > 0 ? `D${b.decisions}` : `${b.memories}`, badgeKind: "memory" };
  }
  return {};
}

/** Decorates map nodes with claims and badges. */
export function decorate(nodes: MapNode[], badges: Badges, claims: ClaimMark[]): ViewNode[] {
  return nodes.map((n) => {
    let owners: string[];
    let badge: Badge | undefined;
    if (n.level === "symbol") {
      owners = claims.filter((c) => c.node?.id === n.id).map((c) => c.developer);
      badge = badges.nodes[n.id];
    } else {
      const inside = (p: string) => p === n.path || p.startsWith(n.path + "/");
      owners = claims.filter((c) => c.node && inside(c.node.path)).map((c) => c.developer);
      badge = undefined;
      for (const [p, b] of Object.entries(badges.files)) {
        if (!inside(p)) continue;
        badge ??= { memories: 0, decisions: 0, failures: 0 };
        badge.memories += b.memories;
        badge.decisions += b.decisions;
        badge.failures = Math.max(badge.failures, b.failures);
      }
    }
    const people = [...new Set(owners)];
    return {
      id: n.id,
      label: n.level === "symbol" && n.outside
        ? `${n.label} (${n.path.split("/").pop()})`
        : n.label,
      outline: people.length > 0 ? personColour(people[0]!) : undefined,
      outlineTitle: people.length > 0 ? `claimed by ${people.join(", ")}` : undefined,
      ...badgeOf(badge),
      fill: n.level === "folder" || n.level === "root"
        ? "#d9e6f5"
        : n.level === "file"
        ? "#e8eef5"
        : n.outside
        ? "#f1f1f1"
        : "#cfe3d4",
      dim: n.outside ?? false,
      data: {
        level: n.level,
        ...(people.length > 0 ? { "claimed-by": people.join(",") } : {}),
        ...(badge && badge.failures > 0 ? { failures: String(badge.failures) } : {}),
      },
    };
  });
}

export function MapView(props: { version: number; badges: Badges; claims: ClaimMark[] }) {
  const [trail, setTrail] = useState<Step[]>([{ kind: "roots", label: "Repositories" }]);
  const [level, setLevel] = useState<MapLevel | null>(null);
  const [error, setError] = useState("");
  const [overlay, setOverlay] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const step = trail[trail.length - 1]!;
  useEffect(() => {
    const t0 = performance.now();
    let live = true;
    get<MapLevel>("map", params(step)).then((l) => {
      if (!live) return;
      setLevel(l);
      setError("");
      timeToPaint(`open ${step.kind}`, t0, performance.now(), l.took_ms);
    }, (e) => setError((e as Error).message));
    return () => {
      live = false;
    };
  }, [trail, props.version]);
  const open = (id: string) => {
    const n = level?.nodes.find((x) => x.id === id);
    if (!n) return;
    setSelected(id);
    if (n.level === "root" || n.level === "folder") {
      setTrail([...trail, { kind: "folder", at: n.path, label: n.label }]);
    } else if (n.level === "file") {
      setTrail([...trail, { kind: "file", path: n.path, label: n.label }]);
    } else if (step.kind !== "symbol" || step.id !== n.id) {
      setTrail([...trail, { kind: "symbol", id: n.id, label: n.label }]);
    }
  };
  const nodes = level ? decorate(level.nodes, props.badges, props.claims) : [];
  const sel = level?.nodes.find((n) => n.id === selected) ??
    (step.kind === "symbol" ? level?.nodes.find((n) => n.id === step.id) : undefined);
  return html`<section class="view map">
    <nav class="crumbs">${
    trail.map((s, i) =>
      html`<button class="link crumb" onClick=${() =>
        setTrail(trail.slice(0, i + 1))}>${s.label}</button>${i < trail.length - 1 ? " / " : ""}`
    )
  }</nav>
    <div class="toolbar">
      <label><input type="checkbox" checked=${overlay} onChange=${() =>
    setOverlay(!overlay)} /> betweenness overlay</label>
      ${
    level &&
    html`
      <span
        class="dim">${level.nodes.length} nodes, ${level.edges.length} links${level.omitted > 0
          ? `, ${level.omitted} smaller left out`
          : ""}${level.links === "loading"
          ? " — links between files still loading"
          : ""} · size = PageRank</span>
    `
  }
    </div>
    ${error && html`<p class="error">${error}</p>`}
    <div class="mapgrid">
      ${
    level &&
    html`
      <${GraphView} nodes=${nodes} edges=${level.edges} overlay=${overlay} selected=${selected}
        onPick=${open} />
    `
  }
      <aside class="panel">${
    sel
      ? html`<h3>${sel.qualname ?? sel.label}</h3>
        <p class="dim">${sel.level}${sel.kind ? ` · ${sel.kind}` : ""}</p>
        <p><a href=${editorUrl(sel.path, sel.line ?? 1)}>${sel.path}${
        sel.line ? `:${sel.line}` : ""
      }</a></p>
        ${sel.level !== "symbol" && html`<p>${sel.files} files, ${sel.symbols} symbols</p>`}`
      : html`
        <p
          class="dim">Click a repository, folder or file to open it; a function to see what it calls and what calls it.</p>
      `
  }</aside>
    </div>
  </section>`;
}
