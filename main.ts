/** Heimdall's entry point: argv → command → exit code, nothing else. */
if (import.meta.main) {
  Deno.env.get("DENO_NO_UPDATE_CHECK") ?? Deno.env.set("DENO_NO_UPDATE_CHECK", "1");
  // `deno task heimdall …` runs in the clone; relative paths mean the user's folder.
  const typedIn = Deno.env.get("INIT_CWD");
  if (typedIn && Deno.cwd() === import.meta.dirname) Deno.chdir(typedIn);
  // `hook` runs on every tool call an agent makes: it loads only its own small
  // module graph, never the whole CLI (tree-sitter, embeddings, …).
  const { main } = Deno.args[0] === "hook"
    ? { main: (await import("./src/cli/hook_cmd.ts")).hookMain }
    : await import("./src/cli/mod.ts");
  Deno.exit(await main(Deno.args));
}
