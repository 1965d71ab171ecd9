/** `heimdall export` / `heimdall import`: memories as JSON Lines, between machines. */
import { parseFlags } from "./flags.ts";
import { isHomeEntry, openPrivateFile } from "../config/mod.ts";
import { basename, dirname, isDirectory, join, utf16Bom } from "../files/mod.ts";
import { END_TYPE, exportMemories, importMemories, NOTE_TYPE } from "../memory/mod.ts";
import { Journal } from "../store/mod.ts";
import type { Context } from "./context.ts";
import { EnvironmentError, UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { plural } from "../present/fmt.ts";
import { typedPath } from "./path_arg.ts";

export const EXPORT_HELP = `heimdall export [--out FILE]
  Writes every memory (superseded, forgotten and orphaned ones too) with its
  anchors, and every note (\`heimdall insert\`) with its paths, as JSON Lines,
  to FILE or stdout (no --out, or --out -, as import reads - as stdin),
  ending with a record that counts them (an import refuses a file cut
  short). Lossless: \`heimdall import\` of it into an empty home,
  then export, gives the same bytes. FILE is created readable by its owner
  only (0600), as it holds private memories too; it may not be one of
  Heimdall's own files (the journal, the config) in $HEIMDALL_HOME.`;

/** `heimdall export`. */
export async function exportCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, { string: ["out"], positionals: false });
  if (positionals.length > 0) throw new UsageError("Unexpected argument; use --out FILE");
  // "-" is stdout, as `import -` reads stdin: it was a file named "-" in the current folder.
  const out = values.out === undefined || values.out === "-"
    ? undefined
    : exportFile(values.out, ctx.home.home);
  const j = Journal.open(ctx.home.journal, { readOnly: true });
  try {
    if (out === undefined) {
      for (const line of exportMemories(j)) ctx.out(line);
    } else {
      const count = { memories: -1, notes: 0 }; // the header is no memory
      await writeExport(out, (line) => {
        if (line.startsWith(`{"type":"${NOTE_TYPE}"`)) count.notes++;
        else if (!line.startsWith(`{"type":"${END_TYPE}"`)) count.memories++;
      }, exportMemories(j));
      ctx.err(
        `exported ${plural(count.memories, "memory", "memories")} and ${
          plural(count.notes, "note")
        } to ${out}`,
      );
    }
  } finally {
    j.close();
  }
  return EXIT.ok;
}

/**
 * Writes `lines` to `out`, created readable by its owner only (0600): every
 * memory, private ones too, goes there, and the journal is the user's alone.
 * A regular file (new, or replaced: an earlier export) is written beside it
 * under a temporary name and renamed over it once complete, so an export
 * that fails half-way (disk full, a damaged journal) leaves the earlier
 * file as it was, never a truncated one that would import as if whole. A
 * device or pipe (`/dev/stdout`) is written directly.
 */
async function writeExport(
  out: string,
  seen: (line: string) => void,
  lines: Iterable<string>,
): Promise<void> {
  let target = out;
  try {
    const st = Deno.statSync(out);
    if (!st.isFile) return await writeLines(out, out, seen, lines);
    target = Deno.realPathSync(out); // a link's file is replaced, not the link
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const tmp = join(dirname(target), `.${basename(target)}.${Deno.pid}.tmp`);
  try {
    await writeLines(tmp, out, seen, lines);
    await Deno.rename(tmp, target);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/**
 * Writes each line to `path` in full (a write may take fewer bytes than it
 * is given: at a size limit, on a full disk). A failed write is the
 * environment's (exit 3), named by `out`, the file the user asked for.
 */
async function writeLines(
  path: string,
  out: string,
  seen: (line: string) => void,
  lines: Iterable<string>,
): Promise<void> {
  const file = await openPrivateFile(path, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  try {
    for (const line of lines) {
      const bytes = enc.encode(line + "\n");
      try {
        for (let off = 0; off < bytes.length;) off += await file.write(bytes.subarray(off));
      } catch (e) {
        throw new EnvironmentError(
          `Cannot write the export to "${out}": ${
            (e as Error).message
          }; free some space or pass --out a file on another disk`,
        );
      }
      seen(line);
    }
  } finally {
    file.close();
  }
}

/**
 * The file `--out` names, checked before anything is read: a folder, or a
 * file in a folder that is not there, is a path typed wrong (exit 2 with
 * the remedy), not a disk that failed; so is a file Heimdall keeps in its
 * home (the journal, its side files, the config), which the export would
 * write over.
 */
function exportFile(typed: string, home: string): string {
  const out = typedPath(typed, "--out");
  let real = out;
  try {
    real = Deno.realPathSync(out);
  } catch { /* not there yet */ }
  if (isHomeEntry(home, out) || isHomeEntry(home, real)) {
    throw new UsageError(
      `Cannot export to "${out}": it is Heimdall's own file in ${home}, which the export would write over; pass a file outside it, such as --out ${
        join(dirname(home), "heimdall-export.jsonl")
      }`,
    );
  }
  if (isDirectory(out)) {
    throw new UsageError(
      `Cannot export to "${out}": it is a folder; pass a file, such as --out ${
        join(out, "heimdall-export.jsonl")
      }`,
    );
  }
  if (!isDirectory(dirname(out))) {
    throw new UsageError(
      `Cannot export to "${out}": there is no folder "${
        dirname(out)
      }"; create it first, or pass a file in a folder that exists`,
    );
  }
  return out;
}

export const IMPORT_HELP = `heimdall import FILE|- [--json]
  Reads an export into this journal in one transaction: new memories are
  added, one already here is replaced only by a newer copy (marks are never
  lost: a forget, supersede or resolve on either copy stays, unless the
  failure was seen again after it); a note is added
  unless one with the same time, title and body is here; anchors and note
  paths under a root of the same folder name here are moved onto it. Secrets in the text
  are redacted. Nothing is written when a line is bad (the error names it:
  a time outside 1970–2099 or in the future, a text over 64 KiB, bytes
  that are not UTF-8, a file cut short: its end record missing or counting
  other lines, …); UTF-16 with a byte order mark (PowerShell's >) is read.
  An export written before Heimdall's format version 3 has no end record: it
  is read, and whether it is complete cannot be checked (said on stderr).`;

/** `heimdall import`. */
export async function importCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, { boolean: ["json"] });
  if (positionals.length !== 1) throw new UsageError("Expected one FILE (or - for stdin)");
  const typed = positionals[0]!;
  const file = typed === "-"
    ? undefined
    : typedPath(typed, "FILE", "name an export file, or - for stdin");
  // What messages call it: "-:2: field …" named nothing a person could find.
  const name = file === undefined ? "stdin" : typed;
  let bytes: Uint8Array;
  try {
    bytes = file === undefined
      ? new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer())
      : await Deno.readFile(file);
  } catch (e) {
    throw new UsageError(`Cannot read "${name}": ${(e as Error).message}; pass an export file`);
  }
  const text = exportText(bytes, name);
  const j = Journal.open(ctx.home.journal);
  try {
    const r = importMemories(j, text, name);
    if (r.unchecked > 0) {
      ctx.err(
        `note: ${name} was written by an older heimdall (export format version 1 or 2), without the end record that counts its lines, so whether it is complete could not be checked; export it again with this version to be sure`,
      );
    }
    if (values.json) ctx.out(JSON.stringify(r));
    else {
      ctx.out(
        `imported ${
          plural(r.added, "new memory", "new memories")
        }, ${r.updated} updated, ${r.unchanged} unchanged, ${r.kept} kept (newer here)${
          r.notesAdded + r.notesUnchanged > 0
            ? `; ${plural(r.notesAdded, "new note")}, ${r.notesUnchanged} already here`
            : ""
        }${
          r.rebased > 0
            ? `; ${plural(r.rebased, "anchor or path", "anchors and paths")} moved onto roots here`
            : ""
        }${
          r.redacted > 0 ? `; secrets redacted in ${plural(r.redacted, "memory", "memories")}` : ""
        }`,
      );
    }
    return EXIT.ok;
  } finally {
    j.close();
  }
}

/**
 * An export's bytes as text: UTF-8, as `heimdall export` writes it, or
 * UTF-16 with its byte order mark (what Windows PowerShell's `>` makes of
 * it). Throws UsageError naming the line of the first bytes that are not
 * UTF-8 (a file re-saved in another encoding, damaged, or cut inside a
 * character): decoded anyway, they would be stored as U+FFFD in place of
 * what was written.
 */
function exportText(bytes: Uint8Array, name: string): string {
  const bom = utf16Bom(bytes);
  try {
    return new TextDecoder(bom ?? "utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Named below, by its line.
  }
  const fatal = new TextDecoder("utf-8", { fatal: true });
  for (let start = 0, line = 1;; line++) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl < 0 ? bytes.length : nl;
    try {
      if (bom === undefined) fatal.decode(bytes.subarray(start, end));
    } catch {
      throw new UsageError(
        `${name}:${line}: not UTF-8 text (as \`heimdall export\` writes it): the file was saved in another encoding, damaged or cut since; export it again, or import the file as it was written`,
      );
    }
    if (nl < 0 || bom !== undefined) break;
    start = nl + 1;
  }
  throw new UsageError(
    `${name}: not ${bom} text, though it starts with that byte order mark: the file was damaged or cut since it was written; export it again`,
  );
}
