/// <reference lib="dom" />
/**
 * Map and health: the architectural map's components, their constraints
 * and `map check` problems per repository, and `heimdall status`'s facts
 * (daemon, queue, last audit, drift, depth clamps, vectors and model).
 * Usage: the local logs' counts per day.
 */
import type { Usage } from "../usage_data.ts";
import { when } from "./api.ts";
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

interface RepoMap {
  repo: string;
  file: string;
  error: string | null;
  components: {
    name: string;
    description: string | null;
    paths: string[];
    depends_on: string[];
    constraints: { level: string; text: string }[];
  }[];
}

interface Check {
  problems?: { kind: string; message: string }[];
  warnings?: string[];
  components?: { name: string; files: number }[];
  unmapped?: number;
}

export interface Health {
  status: Record<string, unknown> | null;
  check: Record<string, Check> | null;
  maps: RepoMap[];
}

function Maps(props: { maps: RepoMap[]; check: Record<string, Check> | null }) {
  if (props.maps.length === 0) {
    return html`<p class="empty">No repository here has a .heimdall/map.toml.</p>`;
  }
  return html`${
    props.maps.map((m) => {
      const c = props.check?.[m.repo];
      const files = new Map((c?.components ?? []).map((x) => [x.name, x.files]));
      return html`<div class="repomap" data-repo=${m.repo}>
        <h4>${m.repo.split("/").pop()} <span class="dim">${m.file}</span></h4>
        ${m.error && html`<p class="error">${m.error}</p>`}
        <table class="components"><thead><tr><th>component</th><th>paths</th><th>files</th>
          <th>depends on</th><th>constraints</th></tr></thead><tbody>${
        m.components.map((k) =>
          html`
            <tr class="component" data-component=${k.name}>
              <td><b>${k.name}</b>${k.description
                ? html`<div class="dim">${k.description}</div>`
                : null}</td>
              <td>${k.paths.join(", ")}</td>
              <td>${files.get(k.name) ?? ""}</td>
              <td>${k.depends_on.join(", ")}</td>
              <td>
                <ul>${k.constraints.map((x) =>
                  html`<li class=${`constraint c-${x.level}`}><span class="kind">${x.level}</span> ${x.text}</li>`
                )}</ul>
              </td>
            </tr>
          `
        )
      }</tbody></table>
        ${
        c?.problems && c.problems.length > 0 &&
        html`
          <h4>map check problems</h4>
          <ul class="problems">${c.problems.map((p) =>
            html`<li class="error">${p.kind}: ${p.message}</li>`
          )}</ul>
        `
      }
        ${c?.warnings?.map((w) => html`<p class="warn">${w}</p>`)}
        ${c?.unmapped ? html`<p class="dim">${c.unmapped} files in no component</p>` : null}
      </div>`;
    })
  }`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function Facts(props: { status: Record<string, unknown> }) {
  // deno-lint-ignore no-explicit-any
  const s = props.status as Record<string, any>;
  const daemon = s.daemon as { pid?: number } | null;
  const semantic = s.semantic as { on: boolean; reason?: string; model?: string } | undefined;
  const roots = (Array.isArray(s.roots) ? s.roots : []) as {
    path: string;
    files: number;
    gone?: boolean;
    removed?: boolean;
  }[];
  const rows: [string, unknown][] = [
    ["daemon", daemon ? `running (pid ${daemon.pid ?? "?"})` : "not running"],
    // Worded as `heimdall status` words a root gone from disk, or dropped from config.json.
    [
      "roots",
      roots.map((r) =>
        `${r.path}: ${plural(r.files ?? 0, "file")}${
          r.removed
            ? "; removed from config.json: the next writer pass drops its files"
            : r.gone
            ? `; gone from disk: put the folder back (it is indexed again), or drop the root (its memories stay): heimdall roots remove ${r.path}`
            : ""
        }`
      ),
    ],
    ["queue", `${s.queue ?? 0} waiting, ${s.hints_waiting ?? 0} hints`],
    ["last audit", s.last_audit_ms ? when(s.last_audit_ms as number) : "never"],
    ["last error", s.last_error ?? "none"],
    // Worded as `heimdall status` words them: the graph's nodes hold files and
    // folders as well as symbols, so they are not a count of symbols.
    [
      "files",
      Object.entries((s.paths ?? {}) as Record<string, number>).map(([k, n]) => `${n} ${k}`)
        .join(", ") || "none",
    ],
    [
      "graph",
      `${plural(s.nodes ?? 0, "node")}, ${plural(s.edges ?? 0, "edge")}, ${
        s.pending_edges ?? 0
      } pending`,
    ],
    ["depth clamps", Array.isArray(s.clamped) && s.clamped.length > 0 ? s.clamped : "none"],
    ["unreadable", Array.isArray(s.unreadable) && s.unreadable.length > 0 ? s.unreadable : "none"],
    ["secrets skipped", s.secrets_skipped],
    [
      "semantic leg",
      semantic
        ? (semantic.on ? `on (${semantic.model ?? "model"})` : `off: ${semantic.reason}`)
        : "—",
    ],
    ["vectors", s.vectors],
    ["journal", `${Math.round(Number(s.journal_bytes ?? 0) / 1024)} KiB`],
  ];
  return html`
    <dl class="facts">${rows.map(([k, v]) =>
      html`
        <dt>${k}</dt>
        <dd data-fact=${k}>
          <${Tree} value=${v} />
        </dd>
      `
    )}</dl>
    <details>
      <summary>everything heimdall status says</summary>
      <${Tree} value=${s} />
    </details>
  `;
}

export function HealthView(props: { data: Health | null; error: string }) {
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
          <${Maps} maps=${props.data.maps} check=${props.data.check} />
        </div>
        <div><h3>Health</h3>${props.data.status
          ? html`<${Facts} status=${props.data.status} />`
          : html`<p class="dim">—</p>`}</div>
      </div>
    </section>
  `;
}

export function UsageView(
  props: { data: Usage | null; error: string },
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
    <table class="usage-table"><thead><tr><th>day</th><th>searches</th><th>verdict mix</th>
      <th>hook events</th><th>injections</th><th>tokens injected</th><th>results used</th>
      <th>pruned results</th><th>re-anchored</th><th>late / errors</th><th></th></tr></thead>
      <tbody>${
    days.map((d) =>
      html`
        <tr>
          <td>${d.day}</td>
          <td class="searches">${d.searches}</td>
          <td class="verdicts">${["STRONG", "REBUILT", "WEAK"].filter((v) => d.verdicts[v]).map((
            v,
          ) => `${v.toLowerCase()} ${d.verdicts[v]}`).join(", ") || "—"}</td>
          <td>${d.hookEvents}</td>
          <td>${d.injections}</td>
          <td>${d.injectedTokens}</td>
          <td class="hit-rate">${d.injectedResults > 0
            ? `${d.usedResults} of ${d.injectedResults} (${
              Math.round(100 * d.usedResults / d.injectedResults)
            }%)`
            : "—"}</td>
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
