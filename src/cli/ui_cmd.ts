/** `heimdall ui`: the local dashboard. */
import { dirname, join } from "../files/mod.ts";
import { parseFlags } from "./flags.ts";
import { homePaths, loadConfig } from "../config/mod.ts";
import { defaultAuthor } from "../memory/mod.ts";
import { Journal } from "../store/mod.ts";
import type { DemoPlayer, DemoState } from "../ui/mod.ts";
import type { Context } from "./context.ts";
import { EnvironmentError, UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";

export const HELP = `heimdall ui [--port N] [--no-open] [--author NAME] [--demo]
  Serves the dashboard on 127.0.0.1 (default port ${8765}, or any free one
  when taken): search, the code map with the team's claims and conflicts,
  memory with its timeline, the architectural map and health, usage. Prints
  the URL with its token (every request needs it) and opens the browser
  unless --no-open, on a link with a one-time code instead (the command
  that opens it is seen by every user of the machine in ps): it works
  once, within 2 minutes; used twice, the token changes and the new URL
  is printed. Reads the journal without the writer lock; decisions
  added from the browser are recorded as by \`heimdall remember\`, with
  --author (default: git's user.name). --demo plays a scripted
  three-developer scenario (a task, claims, a conflict two calls away, a
  repeated failure and its fix, a superseding decision, a hand-off) into a
  throwaway home, one step per click; nothing of yours is read or written.
  Stop with Ctrl-C.`;

const DEFAULT_PORT = 8765;

/** Runs another command with its output captured as JSON (status, map check). */
async function captured(
  ctx: Context,
  run: (args: string[], ctx: Context) => number | Promise<number>,
  args: string[],
): Promise<unknown> {
  const out: string[] = [];
  const errs: string[] = [];
  let code: number;
  try {
    code = await run(args, { ...ctx, out: (t) => out.push(t), err: (t) => errs.push(t) });
  } catch (e) {
    // As the command line would have said it (an unreadable map.toml: environment, exit 3),
    // not a 500 "Internal error" for the whole view.
    const { describeError } = await import("./errors.ts");
    const described = describeError(e, { journal: ctx.home.journal });
    code = described.code;
    errs.push(described.message);
  }
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
export async function run(args: string[], given: Context): Promise<number> {
  const { values } = parseFlags(args, {
    string: ["port", "author"],
    boolean: ["no-open", "demo"],
    positionals: false,
  });
  // Digits only: Number() takes "" as 0 (any port), "1e3" as 1000 and "0x50" as 80.
  const port = values.port === undefined
    ? DEFAULT_PORT
    : /^[0-9]{1,5}$/.test(values.port)
    ? Number(values.port)
    : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`Invalid --port "${values.port}": expected a port number from 0 to 65535`);
  }
  if (values.author !== undefined && values.author.trim() === "") {
    // Caught now, not at the first decision added from the browser.
    throw new UsageError(
      `Empty --author "${values.author}": give the name decisions added here are recorded with`,
    );
  }
  if (!values.demo) return await serve(given, given, values, port);
  const throwaway = await Deno.makeTempDir({ prefix: "heimdall-demo-" });
  try {
    const started = await startDemo(given, throwaway);
    return await serve(started.ctx, given, values, port, started.demo);
  } finally {
    // Also when it never served (a --port in use): each try left a home in the temp folder.
    await Deno.remove(throwaway, { recursive: true }).catch(() => {});
  }
}

/**
 * Serves the dashboard of `ctx`'s home (the demo's throwaway one, or the
 * person's) until Ctrl-C (SIGINT) or SIGTERM, telling `given`'s output;
 * throws when it cannot listen.
 */
async function serve(
  ctx: Context,
  given: Context,
  values: { port?: string | undefined; author?: string | undefined; "no-open"?: boolean },
  port: number,
  demo?: DemoPlayer,
): Promise<number> {
  // Fails with the usual "nothing is indexed yet" before anything is served.
  Journal.open(ctx.home.journal, { readOnly: true }).close();
  const { startUi } = await import("../ui/mod.ts");
  const status = async () => captured(ctx, (await import("./status_cmd.ts")).run, ["--json"]);
  const mapCheck = async (repos: string[]) => {
    const { mapCmd } = await import("./map_cmd.ts");
    const out: Record<string, unknown> = {};
    for (const repo of repos) out[repo] = await captured(ctx, mapCmd, ["check", repo, "--json"]);
    return out;
  };
  const options = {
    home: ctx.home,
    config: ctx.config,
    author: values.author ?? defaultAuthor(),
    status,
    mapCheck,
    onReuse: (message: string, url: string) => given.err(`heimdall ui: ${message}: ${url}`),
    ...(demo ? { demo } : {}),
  };
  let server;
  try {
    server = startUi({ ...options, port });
  } catch (e) {
    if (!(e instanceof Deno.errors.AddrInUse) || values.port !== undefined) {
      if (e instanceof Deno.errors.AddrInUse) {
        throw new EnvironmentError(
          `Port ${port} is in use; pass another --port (0: any free one)`,
          { cause: e },
        );
      }
      throw e;
    }
    server = startUi({ ...options, port: 0 });
  }
  given.out(`Heimdall dashboard: ${server.url}`);
  // Not the token: xdg-open's and open's command lines are there for any user to read
  // (ps). The browser gets a one-time code, worth nothing once it is exchanged.
  if (!values["no-open"]) openBrowser(server.openUrl());
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

/**
 * Builds the demo's throwaway home under `dir` (the repository indexed) and
 * the player that runs each step as the real command, in this process, as
 * the person acting.
 */
async function startDemo(
  ctx: Context,
  dir: string,
): Promise<{ ctx: Context; demo: DemoPlayer }> {
  const [{ DEMO_FILES, DEMO_STEPS, fillStep, idFrom }, { main }] = await Promise.all([
    import("../ui/demo.ts"),
    import("./mod.ts"),
  ]);
  const repo = join(dir, "shop");
  for (const [rel, text] of Object.entries(DEMO_FILES)) {
    await Deno.mkdir(dirname(join(repo, rel)), { recursive: true });
    await Deno.writeTextFile(join(repo, rel), text);
  }
  const home = homePaths(join(dir, "home"));
  let out: string[] = [];
  const demoCtx: Context = {
    ...ctx,
    home,
    config: () => loadConfig(home.config),
    out: (t) => out.push(t),
    err: (t) => out.push(t),
    tty: false,
  };
  const run = async (args: string[], who: string): Promise<number> => {
    out = [];
    const before = Deno.env.get("HEIMDALL_AUTHOR");
    Deno.env.set("HEIMDALL_AUTHOR", who);
    try {
      return await main(args, demoCtx);
    } finally {
      if (before === undefined) Deno.env.delete("HEIMDALL_AUTHOR");
      else Deno.env.set("HEIMDALL_AUTHOR", before);
    }
  };
  if (await run(["index", repo], "demo") !== EXIT.ok) {
    throw new Error(`The demo could not index its repository: ${out.join("\n")}`);
  }
  const ids: { task?: string; decision?: string } = {};
  let next = 0;
  let last = `indexed ${repo}`;
  const state = (): DemoState => ({
    home: home.home,
    steps: DEMO_STEPS.map((s, i) => ({ title: s.title, who: s.who, done: i < next })),
    next,
    last,
  });
  const demo: DemoPlayer = {
    state,
    async next() {
      const step = DEMO_STEPS[next];
      if (!step) return state();
      const code = await run(fillStep(step, ids), step.who);
      const text = out.join("\n");
      const id = step.provides ? idFrom(text, step.provides) : undefined;
      if (step.provides && id !== undefined) ids[step.provides] = id;
      last = `${step.who}: heimdall ${fillStep(step, ids).join(" ")} → exit ${code}\n${text}`;
      next++;
      return state();
    },
  };
  const cwd = Deno.cwd();
  Deno.chdir(repo); // claims and memory name code relative to where they run
  addEventListener("unload", () => Deno.chdir(cwd));
  return { ctx: demoCtx, demo };
}
