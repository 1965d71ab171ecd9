/// <reference lib="dom" />
/**
 * The Team view: claimed functions outlined in each person's colour, each
 * conflict's call path in red, the closest shared caller of two claimed
 * functions that do not call one another (dashed), and the task board.
 */
import { personColour, when } from "./api.ts";
import { GraphView, type ViewEdge, type ViewNode } from "./graph_view.ts";
import { html } from "./libs.ts";

interface Step {
  id: string;
  kind: string;
  qualname: string;
  path: string;
  line: number | null;
}

export interface Team {
  store: string;
  claims: {
    id: number;
    developer: string;
    qualname: string;
    path: string;
    task_id: string | null;
    expires_at: number;
    node: { id: string; path: string; line: number | null } | null;
  }[];
  conflicts: {
    a: number;
    b: number;
    developers: [string, string];
    relation: string;
    hops: number;
    path: Step[];
    diverged: boolean;
  }[];
  shared: { a: number; b: number; caller: Step; toA: Step[]; toB: Step[] }[];
  tasks: {
    id: string;
    text: string;
    owner: string;
    state: string;
    updatedAt: number;
    events: { kind: string; actor: string; to: string | null; note: string | null; at: number }[];
  }[];
}

function short(qualname: string): string {
  return qualname;
}

/** The graph of claimed code, conflict paths and shared callers. */
function teamGraph(team: Team): { nodes: ViewNode[]; edges: ViewEdge[] } {
  const nodes = new Map<string, ViewNode>();
  const edges: ViewEdge[] = [];
  const ensure = (s: Step) => {
    if (!nodes.has(s.id)) nodes.set(s.id, { id: s.id, label: short(s.qualname), data: {} });
    return nodes.get(s.id)!;
  };
  for (const c of team.claims) {
    if (!c.node) continue;
    const n = ensure({
      id: c.node.id,
      kind: "",
      qualname: c.qualname,
      path: c.node.path,
      line: c.node.line,
    });
    const who = new Set((n.data?.["claimed-by"] ?? "").split(",").filter(Boolean));
    who.add(c.developer);
    n.outline = personColour([...who][0]!);
    n.outlineTitle = `claimed by ${[...who].join(", ")}`;
    n.data = { ...n.data, "claimed-by": [...who].join(",") };
  }
  for (const c of team.conflicts) {
    for (const s of c.path) ensure(s);
    for (let i = 0; i + 1 < c.path.length; i++) {
      edges.push({ source: c.path[i]!.id, target: c.path[i + 1]!.id, style: "red" });
    }
  }
  for (const s of team.shared) {
    const caller = ensure(s.caller);
    caller.data = { ...caller.data, "shared-caller": "true" };
    caller.badge = "shared caller";
    for (const chain of [s.toA, s.toB]) {
      for (const x of chain) ensure(x);
      for (let i = 0; i + 1 < chain.length; i++) {
        edges.push({ source: chain[i]!.id, target: chain[i + 1]!.id, style: "dashed" });
      }
    }
  }
  return { nodes: [...nodes.values()], edges };
}

export function TeamView(props: { team: Team | null; error: string }) {
  const team = props.team;
  if (!team) {
    return html`<section class="view team">${
      props.error ? html`<p class="error">${props.error}</p>` : html`<p>Loading…</p>`
    }</section>`;
  }
  const { nodes, edges } = teamGraph(team);
  const people = [...new Set(team.claims.map((c) => c.developer))].sort();
  const byState = (s: string) => team.tasks.filter((t) => t.state === s);
  const claimOf = (id: number) => team.claims.find((c) => c.id === id);
  return html`
    <section class="view team">
      <p class="dim">Team store: ${team.store}</p>
      <div class="legend">${people.map((p) =>
        html`<span class="person" data-person=${p}><i style=${`background:${
          personColour(p)
        }`}></i>${p}
        (${team.claims.filter((c) => c.developer === p).length})</span>`
      )}</div>
      <div class="mapgrid">
        <${GraphView} nodes=${nodes} edges=${edges} height=${460} />
        <aside class="panel">
            <h3>Conflicts</h3>
            ${team.conflicts.length === 0 && html`<p class="dim">None within reach.</p>`}
            <ul class="conflicts">${team.conflicts.map((c) =>
              html`<li class="conflict-item"><b>${c.developers[0]}</b> ↔ <b>${c.developers[1]}</b>:
        ${claimOf(c.a)?.qualname} and ${claimOf(c.b)?.qualname}, ${c.hops} call${
                c.hops === 1 ? "" : "s"
              } apart
        <div class="path">${c.path.map((s) => s.qualname).join(" → ")}</div>
        ${c.diverged && html`<div class="warn">already changed by one of you</div>`}</li>`
            )}</ul>
            <h3>Closest shared callers</h3>
            ${team.shared.length === 0 && html`<p class="dim">None.</p>`}
            <ul class="shared">${team.shared.map((s) =>
              html`<li class="shared-item"><b>${s.caller.qualname}</b> calls both ${
                claimOf(s.a)?.qualname
              }
        (${s.toA.length - 1} hop${s.toA.length === 2 ? "" : "s"}) and ${claimOf(s.b)?.qualname}
        (${s.toB.length - 1} hop${s.toB.length === 2 ? "" : "s"})</li>`
            )}</ul>
          </aside>
      </div>
      <h3>Tasks</h3>
      <div class="board">${["open", "handed_off", "done"].map((state) =>
        html`<div class="column" data-state=${state}><h4>${state.replace("_", " ")}</h4>${
          byState(state).map((t) =>
            html`<div class="card" data-task=${t.id}><b>${t.text}</b>
            <div class="dim">${t.id} · ${t.owner} · ${when(t.updatedAt)}</div>
            <ul>${
              t.events.map((e) =>
                html`<li>${when(e.at)} ${e.actor} ${e.kind}${e.to ? ` → ${e.to}` : ""}${
                  e.note ? `: ${e.note}` : ""
                }</li>`
              )
            }</ul></div>`
          )
        }</div>`
      )}</div>
    </section>
  `;
}
