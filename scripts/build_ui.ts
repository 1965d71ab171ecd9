/**
 * Builds the dashboard's front-end (`src/ui/app/`) into the one committed
 * asset `src/ui/assets/app.js`, with `deno bundle` (esbuild inside Deno):
 * preact, htm, graphology, graphology-metrics and ForceAtlas2 from npm,
 * minified, nothing fetched at run time. Run by `deno task ui:build` after
 * changing anything under `src/ui/app/`; `tests/ui_test.ts` fails when the
 * committed bundle is older than its sources.
 *
 * graphology imports Node's `events`; the bundler leaves that import
 * pointing at Node's built-in, so the npm `events` package is bundled
 * separately (`node_events.ts`) and put in its place.
 */
import { ROOT } from "./build_flags.ts";

const APP = `${ROOT}src/ui/app`;
const OUT = `${ROOT}src/ui/assets/app.js`;

async function bundle(entry: string, format: "esm" | "iife"): Promise<string> {
  const out = await Deno.makeTempFile({ suffix: ".js" });
  try {
    const r = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform",
        "browser",
        "--minify",
        "--format",
        format,
        "--output",
        out,
        entry,
      ],
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!r.success) throw new Error(`deno bundle ${entry} failed`);
    return await Deno.readTextFile(out);
  } finally {
    await Deno.remove(out).catch(() => {});
  }
}

/** The bundle's text: the `events` shim, then the app with its Node import replaced. */
export async function buildUi(): Promise<string> {
  const [events, app] = await Promise.all([
    bundle(`${APP}/node_events.ts`, "iife"),
    bundle(`${APP}/main.ts`, "esm"),
  ]);
  const node = /import\s*\{\s*EventEmitter\s+as\s+([\w$]+)\s*\}\s*from\s*"node:events";?/;
  const m = node.exec(app);
  const patched = m
    ? app.replace(node, `const ${m[1]}=globalThis.__heimdallEvents.EventEmitter;`)
    : app;
  const left = /from\s*"node:[\w/]+"/.exec(patched);
  if (left) throw new Error(`The bundle still imports a Node built-in (${left[0]}); shim it`);
  return `${events.trim()}\n${patched}`;
}

if (import.meta.main) {
  const text = await buildUi();
  await Deno.writeTextFile(OUT, text);
  console.log(`wrote ${OUT} (${(text.length / 1024).toFixed(1)} KiB)`);
}
