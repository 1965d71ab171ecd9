/** Heimdall's entry point: argv → command → exit code, nothing else. */
import { main } from "./src/cli/mod.ts";

if (import.meta.main) {
  Deno.env.get("DENO_NO_UPDATE_CHECK") ?? Deno.env.set("DENO_NO_UPDATE_CHECK", "1");
  Deno.exit(await main(Deno.args));
}
