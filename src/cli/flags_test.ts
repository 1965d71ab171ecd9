import { deepStrictEqual, throws } from "node:assert/strict";
import { parseFlags } from "./flags.ts";

Deno.test("parseFlags() reads each kind of flag and keeps the positionals in order", () => {
  const { values, positionals } = parseFlags(
    ["a", "--kind", "x", "--about", "p", "--about", "q", "b", "--json", "-v"],
    {
      string: ["kind"],
      multiple: ["about"],
      boolean: ["json", "verbose"],
      short: { v: "verbose" },
    },
  );
  deepStrictEqual({ ...values }, { kind: "x", about: ["p", "q"], json: true, verbose: true });
  deepStrictEqual(positionals, ["a", "b"]);
});

Deno.test("parseFlags() leaves a flag that is not given out of values", () => {
  const { values } = parseFlags([], { string: ["limit"], boolean: ["json"] });
  deepStrictEqual({ ...values }, {});
});

Deno.test("parseFlags() rejects what parseArgs rejects, with its error code", () => {
  const cases: [string[], { positionals?: boolean }][] = [
    [["--nope"], {}],
    [["--limit"], {}],
    [["--json=yes"], {}],
    [["extra"], { positionals: false }],
  ];
  for (const [args, more] of cases) {
    throws(
      () => parseFlags(args, { string: ["limit"], boolean: ["json"], ...more }),
      (e: unknown) =>
        e instanceof TypeError &&
        String((e as { code?: string }).code).startsWith("ERR_PARSE_ARGS_"),
      args.join(" "),
    );
  }
});
