/// <reference lib="dom" />
/**
 * Map and health: the architectural map's components, constraints and
 * `map check` problems per root, and `heimdall status`'s facts (daemon,
 * queue, last audit, drift, depth clamps, vectors and model). Usage: the
 * local logs' counts per day.
 */
import { html } from "./libs.ts";

/** A JSON value drawn as nested definition lists. */
function Tree(props: { value: unknown; depth?: number }) {
  const v = props.value, depth = props.depth ?? 0;
  if (v === null || v === undefined) return html`<span class="dim">—</span>`;
  if (typeof v !== "object") return html`<span>${String(v)}</span>`;
  if (Array.isArray(v)) {
    if (v.length === 0) return html`<span class="dim">none</span>`;
    return html`<ul>${
      v.slice(0, 200).map((x) =>
        html`
          <li>
            <${Tree} value=${x} depth=${depth + 1} />
          </li>
        `
      )
    }</ul>`;
  }
  return html`<dl class=${`tree d${depth}`}>${
    Object.entries(v as Record<string, unknown>).map(([k, x]) =>
      html`
        <dt>${k}</dt>
        <dd>
          <${Tree} value=${x} depth=${depth + 1} />
        </dd>
      `
    )
  }</dl>`;
}

export function HealthView(
  props: { data: { status: unknown; map: unknown } | null; error: string },
) {
  if (!props.data) {
    return html`<section class="view health">${
      props.error ? html`<p class="error">${props.error}</p>` : html`<p>Loading…</p>`
    }</section>`;
  }
  return html`
    <section class="view health">
      <div class="columns">
        <div>
          <h3>Architectural map</h3>
          <${Tree} value=${props.data.map} />
        </div>
        <div>
          <h3>Health</h3>
          <${Tree} value=${props.data.status} />
        </div>
      </div>
    </section>
  `;
}

interface UsageDay {
  day: string;
  pruned: number;
  rebuilt: number;
  hookEvents: number;
  injections: number;
  injectedTokens: number;
  late: number;
  errors: number;
}

export function UsageView(
  props: { data: { days: UsageDay[]; logs: Record<string, number> } | null; error: string },
) {
  if (!props.data) {
    return html`<section class="view usage">${
      props.error ? html`<p class="error">${props.error}</p>` : html`<p>Loading…</p>`
    }</section>`;
  }
  const days = props.data.days;
  const max = Math.max(1, ...days.map((d) => d.hookEvents + d.pruned + d.rebuilt));
  return html`<section class="view usage">
    <p class="dim">From this machine's logs only (${
    Object.entries(props.data.logs).map(([k, n]) => `${k}: ${n} bytes`).join(", ")
  }); nothing is sent anywhere.</p>
    ${days.length === 0 && html`<p class="empty">No usage logged yet.</p>`}
    <table class="usage-table"><thead><tr><th>day</th><th>hook events</th><th>injections</th>
      <th>tokens injected</th><th>pruned results</th><th>re-anchored</th><th>late / errors</th><th></th></tr></thead>
      <tbody>${
    days.map((d) =>
      html`
        <tr>
          <td>${d.day}</td>
          <td>${d.hookEvents}</td>
          <td>${d.injections}</td>
          <td>${d.injectedTokens}</td>
          <td>${d.pruned}</td>
          <td>${d.rebuilt}</td>
          <td>${d.late} / ${d.errors}</td>
          <td>
            <div class="bar" style=${`width:${
              Math.round(200 * (d.hookEvents + d.pruned + d.rebuilt) / max)
            }px`}></div>
          </td>
        </tr>
      `
    )
  }</tbody></table>
  </section>`;
}
