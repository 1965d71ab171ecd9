import { deepStrictEqual, throws } from "node:assert/strict";
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { UsageError } from "../errors/mod.ts";
import { FlagError, parseFlags } from "./flags.ts";

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

Deno.test("parseFlags() rejects a command line that does not fit, naming the argument", () => {
  const cases: [string[], { positionals?: boolean }, RegExp][] = [
    [["--nope"], {}, /Unknown option "--nope"/],
    [["-x"], {}, /Unknown option "-x"$/],
    [["--nope"], {}, /Unknown option "--nope"$/],
    [["--nope=1.5"], {}, /Unknown option "--nope"$/],
    [
      ["-notes/a.md"],
      {},
      /"-n" in "-notes\/a\.md": .* goes after -- \(`-- -notes\/a\.md`\) or as \.\/-notes\/a\.md$/,
    ],
    [["--x.ts"], {}, /"--x\.ts" in "--x\.ts": .* or as \.\/--x\.ts$/],
    [["-notes/a.md"], { positionals: false }, /Unknown option "-n"$/],
    [["--limit"], {}, /"--limit" needs a value/],
    [["--limit", "-5"], {}, /write --limit=-5/],
    [["--json=yes"], {}, /"--json" takes no value/],
    [["extra"], { positionals: false }, /Unexpected argument "extra"/],
  ];
  for (const [args, more, message] of cases) {
    throws(
      () => parseFlags(args, { string: ["limit"], boolean: ["json"], ...more }),
      (e: unknown) => e instanceof FlagError && e instanceof UsageError && message.test(e.message),
      args.join(" "),
    );
  }
});

Deno.test("parseFlags() reads values as Node's parseArgs does", () => {
  const spec = {
    string: ["limit"],
    multiple: ["about"],
    boolean: ["json", "quiet", "verbose"],
    short: { q: "quiet", v: "verbose", l: "limit" },
  } as const;
  const cases: [string[], Record<string, unknown>, string[]][] = [
    [["--limit=-5"], { limit: "-5" }, []],
    [["--limit="], { limit: "" }, []],
    [["--limit", "-"], { limit: "-" }, []],
    [["--limit", "1", "--limit", "2"], { limit: "2" }, []],
    [["-qv", "a"], { quiet: true, verbose: true }, ["a"]],
    [["-l", "7"], { limit: "7" }, []],
    [["-l7"], { limit: "7" }, []],
    [["-", "--json"], { json: true }, ["-"]],
    [["a", "--", "--json", "-q"], {}, ["a", "--json", "-q"]],
    [["--about=x", "--about", "y"], { about: ["x", "y"] }, []],
  ];
  for (const [args, values, positionals] of cases) {
    const got = parseFlags(args, spec);
    deepStrictEqual({ ...got.values }, values, args.join(" "));
    deepStrictEqual(got.positionals, positionals, args.join(" "));
    deepStrictEqual(
      { ...parseArgs({ args, options: nodeOptions(spec), allowPositionals: true }).values },
      values,
      `node:util agrees on ${args.join(" ")}`,
    );
  }
});

/** The same flags as node:util's options, to check that parseFlags() reads what it reads. */
function nodeOptions(spec: {
  string: readonly string[];
  multiple: readonly string[];
  boolean: readonly string[];
  short: Record<string, string>;
}): ParseArgsOptionsConfig {
  const options: ParseArgsOptionsConfig = {};
  for (const name of spec.string) options[name] = { type: "string" };
  for (const name of spec.multiple) options[name] = { type: "string", multiple: true };
  for (const name of spec.boolean) options[name] = { type: "boolean" };
  for (const [letter, name] of Object.entries(spec.short)) options[name]!.short = letter;
  return options;
}
