/// <reference lib="dom" />
/**
 * The dashboard's front-end: one page, a tab per view, data from the
 * server's JSON API, refreshed when the server says the journal changed.
 * Bundled into `../assets/app.js` by `deno task ui:build`.
 */
import { get } from "./api.ts";
import { DemoBar } from "./demo_bar.ts";
import { type Health, HealthView, UsageView } from "./health_view.ts";
import { html, render, useEffect, useState } from "./libs.ts";
import { type Badges, type ClaimMark, MapView } from "./map_view.ts";
import { type MemoryData, MemoryView } from "./memory_view.ts";
import { SearchView } from "./search_view.ts";
import { type Team, TeamView } from "./team_view.ts";

const TABS = ["search", "map", "team", "memory", "health", "usage"] as const;
type Tab = (typeof TABS)[number];
const TITLES: Record<Tab, string> = {
  search: "Search",
  map: "Code map",
  team: "Team",
  memory: "Memory",
  health: "Map & health",
  usage: "Usage",
};

function tabFromHash(): Tab {
  const h = location.hash.replace("#", "") as Tab;
  return TABS.includes(h) ? h : "search";
}

/** Loads `path` whenever `version` moves; returns the data and the last error. */
function useApi<T>(path: string, version: number, wanted: boolean): [T | null, string] {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    if (!wanted) return;
    get<T>(path).then((d) => {
      setData(d);
      setError("");
    }, (e) => setError((e as Error).message));
  }, [version, wanted]);
  return [data, error];
}

function App() {
  const [tab, setTab] = useState<Tab>(tabFromHash());
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const onHash = () => setTab(tabFromHash());
    addEventListener("hashchange", onHash);
    const events = new EventSource("/api/events");
    const bump = () => setVersion((v) => v + 1);
    events.addEventListener("change", bump);
    events.addEventListener("map-ready", bump);
    return () => {
      removeEventListener("hashchange", onHash);
      events.close();
    };
  }, []);
  const onMapOrTeam = tab === "map" || tab === "team";
  const [badges] = useApi<Badges>("badges", version, tab === "map");
  const [team, teamError] = useApi<Team>("team", version, onMapOrTeam);
  const [memory, memoryError] = useApi<MemoryData>("memory", version, tab === "memory");
  const [health, healthError] = useApi<Health>(
    "health",
    version,
    tab === "health",
  );
  const [usage, usageError] = useApi<{ days: never[]; logs: Record<string, number> }>(
    "usage",
    version,
    tab === "usage",
  );
  const claims: ClaimMark[] = team?.claims ?? [];
  return html`
    <header>
      <h1>Heimdall</h1>
      <nav class="tabs">${TABS.map((t) =>
        html`<a href=${`#${t}`} class=${`tab${t === tab ? " active" : ""}`} data-tab=${t}>${
          TITLES[t]
        }</a>`
      )}</nav>
    </header>
    <${DemoBar} />
    <main data-view=${tab}>
          ${tab === "search" && html`<${SearchView} />`}
          ${tab === "map" &&
            html`<${MapView} version=${version} badges=${
              badges ?? { nodes: {}, files: {} }
            } claims=${claims} />`}
          ${tab === "team" && html`<${TeamView} team=${team} error=${teamError} />`}
          ${tab === "memory" &&
            html`<${MemoryView} data=${memory} error=${memoryError} onChange=${() =>
              setVersion((v) => v + 1)} />`}
          ${tab === "health" && html`<${HealthView} data=${health} error=${healthError} />`}
          ${tab === "usage" && html`<${UsageView} data=${usage} error=${usageError} />`}
        </main>
  `;
}

const root = document.getElementById("app")!;
root.textContent = "";
render(html`<${App} />`, root);
document.body.dataset.ready = "true";
