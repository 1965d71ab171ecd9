/// <reference lib="dom" />
/** The step bar of `heimdall ui --demo`: the scenario's steps, and a button that plays the next. */
import { get, post } from "./api.ts";
import { html, useEffect, useState } from "./libs.ts";

interface DemoState {
  home: string;
  steps: { title: string; who: string; done: boolean }[];
  next: number;
  last: string;
}

export function DemoBar() {
  const [state, setState] = useState<DemoState | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    get<DemoState>("demo").then(setState, () => setState(null));
  }, []);
  if (!state) return null;
  const step = async () => {
    setBusy(true);
    try {
      setState(await post<DemoState>("demo/next", {}));
    } finally {
      setBusy(false);
    }
  };
  const done = state.next >= state.steps.length;
  return html`<aside class="demo">
    <b>Demo</b> <span class="dim">(a throwaway home: ${state.home})</span>
    <ol class="demo-steps">${
    state.steps.map((s, i) =>
      html`<li class=${s.done ? "done" : i === state.next ? "next" : ""}>${s.title}</li>`
    )
  }</ol>
    <button class="demo-next" onClick=${step} disabled=${busy || done}>${
    done
      ? "Scenario done"
      : busy
      ? "Playing…"
      : `Next step (${state.next + 1}/${state.steps.length})`
  }</button>
    <details><summary>last command</summary><pre>${state.last}</pre></details>
  </aside>`;
}
