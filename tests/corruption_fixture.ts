/**
 * Damaged journals on purpose: a real home with an indexed repository and
 * planted memories and notes, then real damage to the real SQLite file
 * (garbage over chosen pages, truncation, a bad header). Shared by
 * tests/corruption_test.ts and scripts/faults/corruption.ts.
 */
import { join } from "node:path";
import { remember } from "../src/memory/mod.ts";
import { insertNote } from "../src/search/mod.ts";
import { Journal } from "../src/store/mod.ts";
import { cli, tempDir, writeTree } from "./helpers.ts";

/** A home whose journal holds `memories` memories and `notes` notes, each text unique. */
export interface Planted {
  home: string;
  repo: string;
  journal: string;
  memories: number;
  notes: number;
}

/** The text of planted memory `i`: unique, long enough that they fill many pages. */
export function memoryText(i: number): string {
  return `planted memory ${i}: the retry loop keeps its backoff under the budget ` +
    "because the upstream rate limiter drops bursts; ".repeat(4) + `marker-m${i}`;
}

/** The body of planted note `i`. */
export function noteBody(i: number): string {
  return `planted note ${i}: how the cache is warmed after a deploy. ` +
    "Warm the hot keys first, then the long tail. ".repeat(4) + `marker-n${i}`;
}

/** Indexes a small repository and plants memories and notes in a fresh home. */
export async function plantHome(memories = 300, notes = 60): Promise<Planted> {
  const home = tempDir("heimdall-corrupt-");
  const repo = tempDir("heimdall-corrupt-repo-");
  const files: Record<string, string> = {};
  for (let f = 0; f < 30; f++) {
    files[`src/mod${f}.ts`] = Array.from(
      { length: 12 },
      (_, k) =>
        `/** Computes part ${k} of module ${f}. */\nexport function part${f}_${k}(x: number): number {\n  return x * ${k} + ${f};\n}\n`,
    ).join("\n");
  }
  writeTree(repo, files);
  const r = await cli(home, ["index", repo]);
  if (r.code !== 0) throw new Error(`index failed: ${r.stderr}`);
  const journal = join(home, "journal.db");
  const j = Journal.open(journal);
  try {
    for (let i = 0; i < memories; i++) {
      remember(j, {
        kind: i % 3 === 0 ? "decision" : "note",
        text: memoryText(i),
        about: [join(repo, `src/mod${i % 30}.ts`)],
        author: "tester",
        keep: true,
      });
    }
    for (let i = 0; i < notes; i++) {
      insertNote(j, { title: `Planted note ${i}`, body: noteBody(i), keywords: ["cache"] });
    }
    // Everything into the main file, so that damage to its pages is damage.
    j.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    j.close();
  }
  return { home, repo, journal, memories, notes };
}

/** The pages of the tables (and their indexes) whose names match `pattern`, leaves only. */
export function pagesOf(journal: string, pattern: RegExp): number[] {
  const j = Journal.open(journal, { readOnly: true });
  try {
    return j.all<{ name: string; pageno: number; pagetype: string }>(
      "SELECT name, pageno, pagetype FROM dbstat",
    ).filter((p) => pattern.test(p.name) && p.pagetype === "leaf").map((p) => p.pageno);
  } finally {
    j.close();
  }
}

/** Overwrites whole pages (1-based, 4096 bytes) of `file` with deterministic garbage. */
export function garblePages(file: string, pages: readonly number[], pageSize = 4096): void {
  const f = Deno.openSync(file, { read: true, write: true });
  try {
    for (const p of pages) {
      const junk = new Uint8Array(pageSize);
      for (let i = 0; i < pageSize; i++) junk[i] = (i * 131 + p * 17 + 7) & 255;
      f.seekSync((p - 1) * pageSize, Deno.SeekMode.Start);
      f.writeSync(junk);
    }
  } finally {
    f.close();
  }
}

/** Cuts `file` to `fraction` of its length (a partial last page). */
export function truncateTo(file: string, fraction: number): void {
  const size = Deno.statSync(file).size;
  Deno.truncateSync(file, Math.floor(size * fraction) + 100);
}

/** Overwrites the 16-byte magic string at the start of `file`. */
export function garbleHeader(file: string): void {
  const f = Deno.openSync(file, { read: true, write: true });
  try {
    f.writeSync(new TextEncoder().encode("NOT A DATABASE!!"));
  } finally {
    f.close();
  }
}

/** How many planted memories and notes the (rebuilt) journal at `journal` holds. */
export function countPlanted(journal: string): { memories: number; notes: number } {
  const j = Journal.open(journal, { readOnly: true });
  try {
    return {
      memories: j.get<{ n: number }>(
        "SELECT count(*) AS n FROM memories WHERE text LIKE 'planted memory %'",
      )!.n,
      notes:
        j.get<{ n: number }>("SELECT count(*) AS n FROM notes WHERE body LIKE 'planted note %'")!
          .n,
    };
  } finally {
    j.close();
  }
}
