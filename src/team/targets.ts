/** What a person names on the command line (a path or a symbol), found in the local index. */
import { UsageError } from "../errors/mod.ts";
import { isDirectory, isFile, resolve } from "../files/mod.ts";
import { shellQuote } from "../present/shell.ts";
import { findSymbol, SymbolLookupError } from "../search/mod.ts";
import { getPath, type Journal } from "../store/mod.ts";
import { type LocalSymbol, symbolsById, symbolsOfFile } from "./symbol_key.ts";

/** A path or symbol that cannot be used; the message says why and what to type instead. */
export class TargetError extends UsageError {
  /** `arg` as typed, refused for the reason `message` gives. */
  constructor(message: string, readonly arg: string) {
    super(message);
  }
}

/** Code a command is about. */
export interface Target {
  /** As typed. */
  arg: string;
  /** The symbol, or for a file the file's own node. */
  symbol: LocalSymbol;
  /** The nodes it covers: the symbol, or every node of the file. */
  nodes: string[];
  /** True when `arg` named a file. */
  isFile: boolean;
}

/**
 * Resolves `arg` as an indexed file (relative to `cwd`) or else as a symbol
 * (`name`, `Class.method`, `path:name`). Throws {@link TargetError} for an
 * empty `arg`, an unknown or ambiguous name (listing the candidates), a
 * folder, a file the index does not hold, and a file indexed without symbols.
 */
export function resolveTarget(j: Journal, arg: string, cwd = Deno.cwd()): Target {
  // Resolved, an empty one would be the current folder, which nobody named.
  if (arg.trim() === "") {
    throw new TargetError(
      `Empty target ${
        JSON.stringify(arg)
      }: it names no file or symbol (an unset shell variable?); name a file, or a symbol in one`,
      arg,
    );
  }
  const abs = resolve(cwd, arg);
  let row = getPath(j, abs);
  let path = abs;
  if (!row) {
    try {
      path = Deno.realPathSync(abs);
      row = getPath(j, path);
    } catch { /* not a file on disk: a symbol name */ }
  }
  if (row) {
    const nodes = symbolsOfFile(j, path);
    const file = nodes.find((n) => n.kind === "file");
    if (!file) {
      throw new TargetError(
        `"${arg}" is indexed at L${row.effective_depth} without symbols${
          row.depth_reason ? ` (${row.depth_reason})` : ""
        }; claims and conflicts need parsed code: name a symbol, or \`heimdall depth ${arg}\` shows why`,
        arg,
      );
    }
    return { arg, symbol: file, nodes: nodes.map((n) => n.id), isFile: true };
  }
  try {
    const ref = findSymbol(j, arg, cwd);
    const symbol = symbolsById(j, [ref.id]).get(ref.id)!;
    return { arg, symbol, nodes: [symbol.id], isFile: false };
  } catch (e) {
    if (!(e instanceof SymbolLookupError)) throw e;
    // A path on disk the index has no file for: "check the spelling" would send them astray.
    if (e.candidates.length === 0 && isDirectory(abs)) {
      throw new TargetError(
        `"${abs}" is a folder; claims, conflicts and who-knows are about a file or a symbol: name one of its files, or a symbol in it`,
        arg,
      );
    }
    if (e.candidates.length === 0 && isFile(abs)) {
      throw new TargetError(
        `"${abs}" is not in the index, so it has no symbols; \`heimdall symbols ${
          shellQuote(abs)
        }\` says why`,
        arg,
      );
    }
    throw new TargetError(e.message, arg);
  }
}
