import { meant, UsageError } from "../errors/mod.ts";

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
 * A command line that does not fit the command's flags: an unknown flag, a
 * missing or unwanted value, a positional the command does not take. The
 * message names the argument; the command line adds where the options are
 * listed.
 */
export class FlagError extends UsageError {}

/**
 * Parses a command's arguments against the flags it accepts, as Node's
 * `parseArgs` does in strict mode (without loading `node:util`, which costs
 * a command about 15 ms of its start): `--name value`, `--name=value`,
 * `-x` and grouped boolean letters (`-qv`), `--` before arguments that
 * begin with a dash.
 *
 * A flag that is not given is absent from `values`. An unknown flag (its
 * message says how to pass a path that begins with `-` when the argument
 * looks like one), a
 * string flag without a value (or with one that looks like a flag: write
 * `--name=-x`), a value given to a boolean flag, or a positional when
 * `positionals` is `false` throws {@link FlagError}.
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
  const kinds = new Map<string, "string" | "multiple" | "boolean">();
  for (const name of spec.string ?? []) kinds.set(name, "string");
  for (const name of spec.multiple ?? []) kinds.set(name, "multiple");
  for (const name of spec.boolean ?? []) kinds.set(name, "boolean");
  const values: Record<string, string | string[] | boolean> = {};
  const positionals: string[] = [];
  // A path that begins with a dash (`-notes/a.md`) reads as options: say how to pass it.
  const unknown = (shown: string, arg: string) => {
    // A slip of the keyboard (`--limt`): name the option it was probably meant to be.
    const guess = shown.startsWith("--") ? meant(shown.slice(2), [...kinds.keys()]) : undefined;
    return new FlagError(
      `Unknown option "${shown}"${
        spec.positionals !== false && /[./]/.test(arg)
          ? ` in "${arg}": a path that begins with "-" goes after -- (\`-- ${arg}\`) or as ./${arg}`
          : guess !== undefined
          ? ` (did you mean --${guess}?)`
          : ""
      }`,
    );
  };
  const take = (
    name: string,
    shown: string,
    inline: string | undefined,
    next: () => string | undefined,
  ) => {
    const kind = kinds.get(name);
    if (kind === undefined) throw unknown(shown, shown);
    if (kind === "boolean") {
      if (inline !== undefined) {
        throw new FlagError(`Option "${shown}" takes no value (got "${shown}=${inline}")`);
      }
      values[name] = true;
      return;
    }
    let value = inline;
    if (value === undefined) {
      value = next();
      if (value === undefined) {
        throw new FlagError(`Option "${shown}" needs a value: ${shown} VALUE`);
      }
      if (value.length > 1 && value.startsWith("-")) {
        throw new FlagError(
          `Option "${shown}" got "${value}", which looks like another option; write ${shown}=${value} if it is the value`,
        );
      }
    }
    if (kind === "multiple") ((values[name] ??= []) as string[]).push(value);
    else values[name] = value;
  };
  let i = 0;
  const next = () => (i + 1 < args.length ? args[++i] : undefined);
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      take(name, `--${name}`, eq === -1 ? undefined : arg.slice(eq + 1), next);
    } else if (arg.startsWith("-") && arg.length > 1) {
      // `-q`, `-qv` (letters of boolean flags), or `-l VALUE` / `-lVALUE` for a string flag.
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k]!;
        const name = spec.short?.[letter];
        if (name === undefined) throw unknown(`-${letter}`, arg);
        if (kinds.get(name) === "boolean") {
          take(name, `-${letter}`, undefined, next);
          continue;
        }
        const rest = arg.slice(k + 1);
        take(name, `-${letter}`, rest === "" ? undefined : rest, next);
        break;
      }
    } else {
      positionals.push(arg);
    }
  }
  if (spec.positionals === false && positionals.length > 0) {
    throw new FlagError(`Unexpected argument "${positionals[0]}": this command takes options only`);
  }
  return { values: values as ParsedFlags<S, M, B>["values"], positionals };
}

/**
 * The whole number `raw`, the value given for `option`, spells in decimal
 * digits, from `min` to `max`; `fallback` when the option was not given.
 * Anything else throws a UsageError naming the value and the range:
 * `Number()` alone takes "" (an unset shell variable) as 0, "1e2" as 100,
 * "0x10" as 16 and " 5" as 5.
 *
 * @example
 * ```ts
 * import { wholeNumber } from "./flags.ts";
 * console.assert(wholeNumber("12", "--limit", 1, 200, 8) === 12);
 * console.assert(wholeNumber(undefined, "--limit", 1, 200, 8) === 8);
 * ```
 */
export function wholeNumber(
  raw: string | undefined,
  option: string,
  min: number,
  max: number,
  fallback: number,
  what = "a whole number",
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`Invalid ${option} "${raw}": expected ${what} from ${min} to ${max}`);
  }
  return n;
}
