/**
 * Reads an `apply_patch` body (Codex's patch format) into per-file edits (pure).
 *
 * ```
 * *** Begin Patch
 * *** Update File: src/a.ts
 * @@ function f
 * -  return 1;
 * +  return 2;
 * *** Add File: src/b.ts
 * +export const b = 1;
 * *** Delete File: src/c.ts
 * *** End Patch
 * ```
 *
 * Each file becomes one edit whose `oldText` is the hunk's context and removed
 * lines (what the edit replaces, to locate the region) and whose `newText` is
 * the context and added lines. A moved file is reported under its new path too.
 */

/** One file of a patch. */
export interface PatchFile {
  /** The file's path as the patch writes it. */
  path: string;
  /** What the patch does to it. */
  op: "add" | "update" | "delete";
  /** Context and removed lines of every hunk, joined; null for add and delete. */
  oldText: string | null;
  /** Context and added lines; the whole content for add; null for delete. */
  newText: string | null;
  /** The new path when the hunk says `*** Move to:`. */
  moveTo: string | null;
}

const HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;
const MOVE = /^\*\*\* Move to: (.+)$/;

/** Parses a patch body; lines outside any file section are ignored. */
export function parsePatch(text: string): PatchFile[] {
  const files: PatchFile[] = [];
  let cur: { file: PatchFile; old: string[]; neu: string[] } | null = null;
  const flush = () => {
    if (!cur) return;
    if (cur.file.op === "update") {
      cur.file.oldText = cur.old.length > 0 ? cur.old.join("\n") : null;
      cur.file.newText = cur.neu.length > 0 ? cur.neu.join("\n") : null;
    } else if (cur.file.op === "add") {
      cur.file.newText = cur.neu.join("\n");
    }
    files.push(cur.file);
    cur = null;
  };
  for (const line of text.split(/\r?\n/)) {
    const h = HEADER.exec(line);
    if (h) {
      flush();
      const op = h[1] === "Add" ? "add" : h[1] === "Update" ? "update" : "delete";
      cur = {
        file: { path: h[2]!.trim(), op, oldText: null, newText: null, moveTo: null },
        old: [],
        neu: [],
      };
      continue;
    }
    if (!cur) continue;
    const m = MOVE.exec(line);
    if (m) {
      cur.file.moveTo = m[1]!.trim();
      continue;
    }
    if (line.startsWith("*** ")) {
      flush();
      continue;
    }
    if (line.startsWith("@@")) continue;
    if (line.startsWith("+")) cur.neu.push(line.slice(1));
    else if (line.startsWith("-")) cur.old.push(line.slice(1));
    else if (line.startsWith(" ")) {
      cur.old.push(line.slice(1));
      cur.neu.push(line.slice(1));
    }
  }
  flush();
  return files;
}
