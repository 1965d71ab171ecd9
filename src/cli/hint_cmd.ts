import { parseFlags } from "./flags.ts";
import { loadConfig } from "../config/mod.ts";
import { canonicalPath } from "../files/mod.ts";
import { pathsFromHookJson, validateHintPath, writeHintFile } from "../hints/mod.ts";
import { rootFor } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";

export const HELP = `heimdall hint PATH… | --stdin [--quiet|-q]
  Tells the writer "look at these paths" and returns at once: no lock, no
  journal write, O(1). --stdin reads a harness's hook JSON (or one path per
  line) and pulls the paths out of it. Values that are not usable paths, or
  that lie under no root, are dropped with a warning (none with --quiet) and
  never stored; exit 2 when none is left.`;

const MAX_STDIN = 4 * 1024 * 1024;

/** Dropped values warned about one by one; the rest are counted in one line. */
const MAX_WARNINGS = 10;

/** `heimdall hint`: record paths for the writer. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    boolean: ["stdin", "quiet"],
    short: { q: "quiet" },
  });
  let candidates: unknown[] = positionals;
  let cwd = Deno.cwd();
  let invalidJson: string | undefined;
  if (values.stdin) {
    const text = await readStdin();
    const parsed = parseStdin(text);
    candidates = [...positionals, ...parsed.paths];
    if (parsed.cwd) cwd = parsed.cwd;
    invalidJson = parsed.invalidJson;
  }
  if (candidates.length === 0) {
    throw new UsageError(
      invalidJson !== undefined
        ? `stdin is not valid JSON (${invalidJson}): send the hook's payload unchanged, or one path per line`
        : values.stdin
        ? "No path found on stdin: expected hook JSON with a file path, or one path per line"
        : "Usage: heimdall hint PATH… | --stdin",
    );
  }
  const roots = loadConfig(ctx.home.config).roots;
  const good: string[] = [];
  // A file piped by mistake (a binary, a log) was one warning per line: thousands.
  let dropped = 0;
  const drop = (line: string) => {
    if (!values.quiet && dropped < MAX_WARNINGS) ctx.err(line);
    dropped++;
  };
  for (const c of candidates) {
    const given = validateHintPath(c, cwd);
    // Roots are recorded by their real path: a path through a linked folder names the real one.
    const v = typeof given !== "string" || rootFor(roots, given) ? given : canonicalPath(given);
    if (typeof v !== "string") {
      drop(`heimdall: dropped hint ${v.value}: ${v.reason}`);
    } else if (!rootFor(roots, v)) {
      drop(
        `heimdall: dropped hint "${v}": not under any root; add one with \`heimdall roots add DIR\``,
      );
    } else good.push(v);
  }
  if (!values.quiet && dropped > MAX_WARNINGS) {
    ctx.err(
      `heimdall: dropped ${
        dropped - MAX_WARNINGS
      } more hints the same way (${dropped} of ${candidates.length} in all); --stdin takes a hook's JSON or one path per line`,
    );
  }
  if (good.length === 0) return EXIT.usage;
  writeHintFile(ctx.home.hints, good);
  return EXIT.ok;
}

async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.length;
    if (size > MAX_STDIN) {
      throw new UsageError(
        `stdin is larger than ${MAX_STDIN} bytes; send one hook payload at a time`,
      );
    }
    chunks.push(chunk);
  }
  const all = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  return new TextDecoder().decode(all);
}

/**
 * Hook JSON, or else one path per line (pure). Text that starts with `{` and
 * does not parse yields no path and `invalidJson`, the parser's complaint;
 * text that starts with `[` and does not parse is read as lines (a path may
 * be `[draft]/notes.md`).
 */
export function parseStdin(
  text: string,
): { paths: string[]; cwd?: string; invalidJson?: string } {
  const trimmed = text.trim();
  const lines = () => trimmed.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return pathsFromHookJson(JSON.parse(trimmed));
    } catch (e) {
      if (trimmed.startsWith("[")) return { paths: lines() };
      return { paths: [], invalidJson: (e as Error).message };
    }
  }
  return { paths: lines() };
}
