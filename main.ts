/** Heimdall's entry point: argv → command → exit code, nothing else. */
if (import.meta.main) {
  Deno.env.get("DENO_NO_UPDATE_CHECK") ?? Deno.env.set("DENO_NO_UPDATE_CHECK", "1");
  // `deno task heimdall …` runs in the clone; relative paths mean the user's folder.
  const typedIn = Deno.env.get("INIT_CWD");
  if (typedIn && Deno.cwd() === import.meta.dirname) {
    try {
      Deno.chdir(typedIn);
    } catch (e) {
      // The folder the task was typed in went away (deleted, or a drive unmounted) meanwhile.
      console.error(
        `heimdall: the folder it was run from, "${typedIn}" (INIT_CWD), cannot be entered (${
          (e as Error).message
        }); cd to a folder that exists and run it again`,
      );
      Deno.exit(3);
    }
  }
  const hook = Deno.args[0] === "hook";
  // An error that escapes the command (a background promise, a failed load)
  // still gets one line and its exit code, never a bare stack. `hook` keeps
  // its own fail-open handling.
  if (!hook) {
    const escaped = async (error: unknown): Promise<never> => {
      const { describeError } = await import("./src/cli/errors.ts");
      const env = Deno.env.get("HEIMDALL_DEBUG");
      const debug = Deno.args.includes("--debug") ||
        (env !== undefined && env !== "" && env !== "0");
      const { code, message } = describeError(error, { debug });
      console.error(`heimdall ${Deno.args[0] ?? ""}: ${message}`);
      Deno.exit(code);
    };
    globalThis.addEventListener("unhandledrejection", (e) => {
      e.preventDefault();
      void escaped(e.reason);
    });
    globalThis.addEventListener("error", (e) => {
      e.preventDefault();
      void escaped(e.error);
    });
  }
  // `hook` runs on every tool call an agent makes: it loads only its own small
  // module graph, never the whole CLI (tree-sitter, embeddings, …).
  // `search` asks the warm server first, loading the CLI only when it must.
  const { main } = hook
    ? { main: (await import("./src/cli/hook_cmd.ts")).hookMain }
    : Deno.args[0] === "search"
    ? await import("./src/cli/search_client.ts")
    : await import("./src/cli/mod.ts");
  Deno.exit(await main(Deno.args));
}
