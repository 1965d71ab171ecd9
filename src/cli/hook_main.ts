/**
 * The hook's own entry module under `deno run` (`deno run … hook_main.ts hook
 * --harness NAME`): the same as `main.ts hook …`, without making Deno look at
 * the whole CLI's module graph on every tool call. A compiled binary needs no
 * such thing: `heimdall hook …` goes through main.ts.
 */
import { hookMain } from "./hook_cmd.ts";

if (import.meta.main) {
  Deno.exit(await hookMain(Deno.args));
}
