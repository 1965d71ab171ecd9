/** `heimdall ui`: the local dashboard. */
import { parseArgs } from "node:util";
import { defaultAuthor } from "../memory/mod.ts";
import { Journal, listRoots } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "./errors.ts";
import { EXIT } from "./exit_codes.ts";

export const HELP = `heimdall ui [--port N] [--no-open] [--author NAME]
  Serves the dashboard on 127.0.0.1 (default port ${8765}, or any free one
  when taken): search, the code map with the team's claims and conflicts,
  memory with its timeline, the architectural map and health, usage. Prints
  the URL with its token (every request needs it) and opens the browser
  unless --no-open. Reads the journal without the writer lock; decisions
  added from the browser are recorded as by \`heimdall remember\`, with
  --author (default: git's user.name). Stop with Ctrl-C.`;

const DEFAULT_PORT = 8765;

/** Runs another command with its output captured as JSON (status, map check). */
async function captured(
  ctx: Context,
  run: (args: string[], ctx: Context) => number | Promise<number>,
  args: string[],
): Promise<unknown> {
  const out: string[] = [];
  const errs: string[] = [];
  const code = await run(args, { ...ctx, out: (t) => out.push(t), err: (t) => errs.push(t) });
  try {
    return JSON.parse(out.join("\n"));
  } catch {
    return { code, output: out.join("\n"), errors: errs.join("\n") };
  }
}

function openBrowser(url: string): void {
  const cmd = Deno.build.os === "darwin"
    ? ["open", url]
    : Deno.build.os === "windows"
    ? ["cmd", "/c", "start", "", url]
    : ["xdg-open", url];
  try {
    new Deno.Command(cmd[0]!, { args: cmd.slice(1), stdout: "null", stderr: "null" }).spawn()
      .status.catch(() => {});
  } catch { /* no browser here: the URL is printed */ }
}

/** `heimdall ui`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string" },
      "no-open": { type: "boolean" },
      author: { type: "string" },
    },
  });
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`Invalid --port "${values.port}": expected a port number from 0 to 65535`);
  }
  // Fails with the usual "nothing is indexed yet" before anything is served.
  Journal.open(ctx.home.journal, { readOnly: true }).close();
  const { startUi } = await import("../ui/mod.ts");
  const status = async () => captured(ctx, (await import("./status_cmd.ts")).run, ["--json"]);
  const mapCheck = async () => {
    const { mapCmd } = await import("./map_cmd.ts");
    const j = Journal.open(ctx.home.journal, { readOnly: true });
    const roots = listRoots(j).map((r) => r.path);
    j.close();
    const out: Record<string, unknown> = {};
    for (const root of roots) out[root] = await captured(ctx, mapCmd, ["check", root, "--json"]);
    return out;
  };
  const options = {
    home: ctx.home,
    config: ctx.config,
    author: values.author ?? defaultAuthor(),
    status,
    mapCheck,
  };
  let server;
  try {
    server = startUi({ ...options, port });
  } catch (e) {
    if (!(e instanceof Deno.errors.AddrInUse) || values.port !== undefined) {
      if (e instanceof Deno.errors.AddrInUse) {
        ctx.err(`heimdall ui: port ${port} is in use; pass another --port (0: any free one)`);
        return EXIT.env;
      }
      throw e;
    }
    server = startUi({ ...options, port: 0 });
  }
  ctx.out(`Heimdall dashboard: ${server.url}`);
  if (!values["no-open"]) openBrowser(server.url);
  const stop = Promise.withResolvers<void>();
  const onSignal = () => stop.resolve();
  Deno.addSignalListener("SIGINT", onSignal);
  if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", onSignal);
  await stop.promise;
  Deno.removeSignalListener("SIGINT", onSignal);
  if (Deno.build.os !== "windows") Deno.removeSignalListener("SIGTERM", onSignal);
  await server.close();
  return EXIT.ok;
}
