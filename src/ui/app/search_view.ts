/// <reference lib="dom" />
/** The Search view: the CLI's ranked, verified results, verdicts coloured, filters, editor links. */
import { get } from "./api.ts";
import { DEFAULT_EDITOR, fillEditorUrl } from "./editor_url.ts";
import { html, useState } from "./libs.ts";

interface Hit {
  rank: number;
  verdict: string;
  reason: string | null;
  path: string | null;
  line: number | null;
  symbol: string | null;
  kind: string | null;
  source: string;
  coverage: number;
  summary: string | null;
  /** For a whole file or a window of text: the line that matched. */
  match_line: number | null;
  others: number;
  symbols: { name: string; line: number }[];
}

/** Where a hit is shown: the line that matched in a whole file or window, else its first. */
const lineOf = (h: Hit) => h.match_line ?? h.line;

interface Result {
  hits: Hit[];
  summary: string;
  pruned: { path: string; reason: string }[];
  /** Why the team's memories could not be pulled first (this machine's copy was searched). */
  warning?: string | null;
}

interface Lines {
  path: string;
  first: number;
  lines: string[];
}

const EDITOR_KEY = "heimdall.editor";

/** The editor link of `path` at `line`, from the template the person chose (vscode://, idea://, …). */
export function editorUrl(path: string, line: number | null): string {
  return fillEditorUrl(localStorage.getItem(EDITOR_KEY) || DEFAULT_EDITOR, path, line);
}

export function SearchView() {
  const [q, setQ] = useState("");
  const [repo, setRepo] = useState("");
  const [lang, setLang] = useState("");
  const [kind, setKind] = useState("");
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<Lines | null>(null);
  const [editor, setEditor] = useState(localStorage.getItem(EDITOR_KEY) || DEFAULT_EDITOR);
  const run = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const params: Record<string, string> = { q, limit: "20" };
      if (repo) params.repo = repo;
      if (lang) params.lang = lang;
      if (kind) params.kind = kind;
      setResult(await get<Result>("search", params));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const view = async (h: Hit) => {
    if (!h.path) return;
    try {
      setShown(await get<Lines>("file", { path: h.path, line: String(h.line ?? 1) }));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return html`<section class="view search">
    <form class="searchbar" onSubmit=${run}>
      <input name="q" placeholder="What are you looking for?" value=${q} onInput=${(e: Event) =>
    setQ((e.target as HTMLInputElement).value)} autofocus />
      <input name="repo" placeholder="repository" value=${repo} onInput=${(e: Event) =>
    setRepo((e.target as HTMLInputElement).value)} />
      <input name="lang" placeholder="language" value=${lang} onInput=${(e: Event) =>
    setLang((e.target as HTMLInputElement).value)} />
      <select name="kind" value=${kind} onChange=${(e: Event) =>
    setKind((e.target as HTMLSelectElement).value)}>
        <option value="">everything</option><option value="code">code</option>
        <option value="docs">docs</option><option value="notes">notes</option>
        <option value="memory">memory</option>
      </select>
      <button type="submit" disabled=${busy}>${busy ? "Searching…" : "Search"}</button>
    </form>
    <details class="editor"><summary>Editor link</summary>
      <input value=${editor} onChange=${(e: Event) => {
    const v = (e.target as HTMLInputElement).value;
    localStorage.setItem(EDITOR_KEY, v);
    setEditor(v);
  }} />
      <small>{path} and {line} are filled in: vscode://file/{path}:{line}, idea://open?file={path}&line={line}</small>
    </details>
    ${error && html`<p class="error">${error}</p>`}
    ${
    result && html`${result.warning && html`<p class="warn">${result.warning}</p>`}<ol class="hits">
      ${
      result.hits.map((h) =>
        html`<li class="hit" data-verdict=${h.verdict}>
          <span class=${`verdict v-${h.verdict}`}>${h.verdict}</span>
          <span class="cov">cov ${Math.round(h.coverage * 100)}%</span>
          ${h.symbol && html`<b class="symbol">${h.symbol}</b>`}
          ${
          h.path &&
          html`
            <a class="where" href=${editorUrl(h.path, lineOf(h))} title="open in your editor">${h
              .path}${lineOf(h) !== null ? `:${lineOf(h)}` : ""}</a>
            <button class="link" onClick=${() => view(h)}>view</button>
          `
        }
          ${h.others > 0 && html`<span class="dim"> (+${h.others} more)</span>`}
          ${h.summary && html`<div class="summary">${h.summary}</div>`}
          ${
          h.symbols.length > 1 &&
          html`<div class="also">also: ${
            h.symbols.slice(1, 4).map((s) => html`<span>${s.name}:${s.line} </span>`)
          }</div>`
        }
          ${h.reason && html`<div class="why dim">why: ${h.reason}</div>`}
        </li>`
      )
    }
    </ol>
    ${result.hits.length === 0 && html`<p class="empty">No match for "${q}".</p>`}
    ${result.pruned.map((p) => html`<p class="dim">pruned (stale): ${p.path} — ${p.reason}</p>`)}
    <p class="dim summary-line">${result.summary}</p>`
  }
    ${
    shown && html`
      <div class="fileview">
        <div class="filehead">${shown.path}
              <button class="link" onClick=${() => setShown(null)}>close</button></div>
        <pre>${shown.lines.map((l, i) =>
          html`<div><span class="ln">${shown.first + i}</span>${l}</div>`
        )}</pre>
      </div>
    `
  }
  </section>`;
}
