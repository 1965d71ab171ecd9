import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

/**
 * The flags one command accepts, by kind: each name becomes `--name`.
 *
 * `string` flags take one value (the last one given wins), `multiple` flags
 * collect every value given, `boolean` flags take none. `short` maps a letter
 * to one of those names (`{ q: "quiet" }` makes `-q` mean `--quiet`).
 * Positionals are allowed unless `positionals` is `false`.
 */
export interface FlagSpec<S extends string, M extends string, B extends string> {
  readonly string?: readonly S[];
  readonly multiple?: readonly M[];
  readonly boolean?: readonly B[];
  readonly short?: Readonly<Record<string, S | M | B>>;
  readonly positionals?: boolean;
}

/** What {@linkcode parseFlags} read: each flag given, by name, and the positionals in order. */
export interface ParsedFlags<S extends string, M extends string, B extends string> {
  values: { [K in S]?: string } & { [K in M]?: string[] } & { [K in B]?: boolean };
  positionals: string[];
}

/**
 * Parses a command's arguments against the flags it accepts.
 *
 * A flag that is not given is absent from `values`. An unknown flag, a string
 * flag without a value, a value given to a boolean flag, or a positional when
 * `positionals` is `false` throws the `TypeError` of `node:util`'s
 * `parseArgs` (its `code` starts with `ERR_PARSE_ARGS_`), which the command
 * line reports as a usage error.
 *
 * @example Read a search's flags
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parseFlags } from "./flags.ts";
 *
 * const { values, positionals } = parseFlags(["lock", "--limit", "3", "--json"], {
 *   string: ["limit"],
 *   boolean: ["json"],
 * });
 * deepStrictEqual([values.limit, values.json], ["3", true]);
 * deepStrictEqual(positionals, ["lock"]);
 * ```
 */
export function parseFlags<
  S extends string = never,
  M extends string = never,
  B extends string = never,
>(args: string[], spec: FlagSpec<S, M, B>): ParsedFlags<S, M, B> {
  const options: ParseArgsOptionsConfig = {};
  for (const name of spec.string ?? []) options[name] = { type: "string" };
  for (const name of spec.multiple ?? []) options[name] = { type: "string", multiple: true };
  for (const name of spec.boolean ?? []) options[name] = { type: "boolean" };
  for (const [letter, name] of Object.entries(spec.short ?? {})) {
    const option = options[name];
    if (option !== undefined) option.short = letter;
  }
  const { values, positionals } = parseArgs({
    args,
    options,
    allowPositionals: spec.positionals ?? true,
  });
  return { values: values as ParsedFlags<S, M, B>["values"], positionals };
}
