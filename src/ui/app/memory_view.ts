/// <reference lib="dom" />
/**
 * The Memory view: decisions and conventions as a timeline with their
 * supersession chains and an as-of slider, attempts with their counts (×N)
 * and what resolved them, and a form that records a decision or convention
 * through the server's `remember`.
 */
import type { AnchorRow, Memory } from "../../memory/mod.ts";
import { AUTHOR, post, when } from "./api.ts";
import { html, useState } from "./libs.ts";

/** A memory as the view shows it: the server's row, with what it is attached to. */
export type MemoryItem = Omit<Memory, "anchors"> & {
  anchors: Pick<AnchorRow, "original" | "path" | "symbol" | "state">[];
};

export interface MemoryData {
  /** Why the team store's memories could not be pulled, when it could not be reached. */
  warning?: string | null;
  memories: MemoryItem[];
  /** Memories in the journal visible here, loaded or not. */
  total: number;
  events: { at: number; event: string; memory_id: string; kind: string; detail: string }[];
  now: number;
}

/** Whether `m` stood as current at instant `t` (recorded by then, not yet superseded or forgotten, valid then). */
export function currentAt(m: MemoryItem, t: number): boolean {
  return m.recorded_at <= t && (m.superseded_at === null || m.superseded_at > t) &&
    (m.forgotten_at === null || m.forgotten_at > t) && m.valid_from <= t &&
    (m.valid_to === null || m.valid_to > t);
}

function about(m: MemoryItem): string {
  return m.anchors.map((a) => a.symbol ?? a.path.split("/").slice(-2).join("/")).join(", ");
}

function AddForm(props: { onAdded: () => void }) {
  const [kind, setKind] = useState("decision");
  const [text, setText] = useState("");
  const [aboutText, setAbout] = useState("");
  const [author, setAuthor] = useState(AUTHOR);
  const [supersedes, setSupersedes] = useState("");
  const [msg, setMsg] = useState("");
  const submit = async (e: Event) => {
    e.preventDefault();
    try {
      const r = await post<{ memory: { id: string }; superseded: string[] }>("remember", {
        kind,
        text,
        about: aboutText.split(",").map((s) => s.trim()).filter(Boolean),
        author,
        supersedes: supersedes.split(",").map((s) => s.trim()).filter(Boolean),
      });
      setMsg(
        `remembered ${r.memory.id}${
          r.superseded.length ? `; supersedes ${r.superseded.join(", ")}` : ""
        }`,
      );
      setText("");
      props.onAdded();
    } catch (err) {
      setMsg(`not recorded: ${(err as Error).message}`);
    }
  };
  const input = (set: (v: string) => void) => (e: Event) =>
    set((e.target as HTMLInputElement).value);
  return html`<form class="addmemory" onSubmit=${submit}>
    <h3>Add a decision or convention</h3>
    <select name="kind" value=${kind} onChange=${input(setKind)}>
      <option value="decision">decision</option><option value="convention">convention</option>
    </select>
    <textarea name="text" placeholder="What was decided, and why" value=${text} onInput=${
    input(setText)
  } required></textarea>
    <input name="about" placeholder="about: symbols or paths, comma-separated" value=${aboutText} onInput=${
    input(setAbout)
  } />
    <input name="supersedes" placeholder="supersedes: memory ids (optional)" value=${supersedes} onInput=${
    input(setSupersedes)
  } />
    <input name="author" placeholder="author" value=${author} onInput=${input(setAuthor)} />
    <button type="submit">Remember</button>
    ${msg && html`<p class="msg">${msg}</p>`}
  </form>`;
}

export function MemoryView(
  props: { data: MemoryData | null; error: string; onChange: () => void },
) {
  const data = props.data;
  const instants = data
    ? [
      ...new Set([
        ...data.memories.flatMap((m) => [m.recorded_at, m.superseded_at ?? 0, m.forgotten_at ?? 0]),
        data.now,
      ]),
    ].filter((t) => t > 0).sort((a, b) => a - b)
    : [];
  const [pos, setPos] = useState<number | null>(null);
  if (!data) {
    return html`<section class="view memory">${
      props.error ? html`<p class="error">${props.error}</p>` : html`<p>Loading…</p>`
    }</section>`;
  }
  const index = pos === null || pos >= instants.length ? instants.length - 1 : pos;
  const t = instants[index] ?? data.now;
  const rules = data.memories.filter((m) => m.kind === "decision" || m.kind === "convention");
  const standing = rules.filter((m) => currentAt(m, t));
  const attempts = data.memories.filter((m) => m.kind === "attempt");
  const byId = new Map(data.memories.map((m) => [m.id, m]));
  const supersededBy = (m: MemoryItem) => (m.superseded_by ? byId.get(m.superseded_by) : undefined);
  return html`
    <section class="view memory">
      ${data.warning && html`<p class="warn">${data.warning}</p>`}
      ${data.total > data.memories.length &&
        html`
          <p
            class="dim partial">Showing ${data.memories.length} of ${data
              .total} memories: the newest, then the decisions, conventions and open failures still standing before them (at most 2,000 of each); the rest are searchable with heimdall history.</p>
        `}
    <div class="asof">
        <label>As of <b class="asof-time">${when(t)}</b>${index === instants.length - 1
          ? " (now)"
          : ""}
            <input type="range" name="asof" min="0" max=${Math.max(0, instants.length - 1)} step="1"
              value=${index} onInput=${(e: Event) =>
                setPos(Number((e.target as HTMLInputElement).value))} />
          </label>
      </div>
      <div class="columns">
        <div>
            <h3>Standing decisions and conventions</h3>
            <ul class="standing">${standing.map((m) =>
              html`
                <li class="memory-item" data-id=${m.id}
                  data-kind=${m.kind}><span class=${`kind k-${m.kind}`}>${m.kind}</span>
                        ${m.text} <span class="dim">— ${m.author}, ${when(m.recorded_at)}${about(m)
                          ? ` · on ${about(m)}`
                          : ""}</span></li>
              `
            )}</ul>
            ${standing.length === 0 && html`<p class="dim">None as of then.</p>`}
            <h3>Attempts</h3>
            <ul class="attempts">${attempts.filter((m) => m.recorded_at <= t).map((m) =>
              html`<li class="attempt" data-id=${m.id} data-status=${m.status ?? m.outcome ?? ""}>
        ${m.count > 1 && html`<span class="badge failure count">×${m.count}</span>`}
        <span class=${`kind k-${m.outcome}`}>${m.outcome}</span> ${m.text}
        <span class="dim">— ${about(m)}</span>
        ${
                m.status === "resolved" &&
                html`<div class="dim">resolved ${when(m.resolved_at)} by ${
                  byId.get(m.resolved_by ?? "")?.text ?? m.resolved_by
                }</div>`
              }
        ${m.fix && html`<div class="dim">fix: ${m.fix}</div>`}
      </li>`
            )}</ul>
          </div>
        <div>
          <h3>Timeline</h3>
          <ol class="timeline">${[...rules].sort((a, b) => b.recorded_at - a.recorded_at).map((m) =>
            html`<li class=${`tl ${m.superseded_at !== null ? "superseded" : ""}`} data-id=${m.id}>
        <span class="dim">${
              when(m.recorded_at)
            }</span> <span class=${`kind k-${m.kind}`}>${m.kind}</span> ${m.text}
        <span class="dim"> — ${m.author}${about(m) ? ` · on ${about(m)}` : ""}</span>
        ${
              m.superseded_at !== null &&
              html`<div class="chain">superseded ${when(m.superseded_at)} by ${
                supersededBy(m)?.text ?? m.superseded_by
              }</div>`
            }
      </li>`
          )}</ol>
          <${AddForm} onAdded=${props.onChange} />
        </div>
      </div>
    </section>
  `;
}
