/**
 * A damaged journal is found and repaired, measured with the real CLI in
 * subprocesses on real SQLite files damaged on purpose:
 *
 * - garbage over two leaf pages of `memories`, over a third of the code
 *   index's pages, over a `notes` page; the file cut to 70%; a bad header;
 * - for each: does `status` exit 3 in one line naming `heimdall rebuild`,
 *   does any command print a stack trace, does `rebuild` keep the damaged
 *   file byte for byte and salvage every memory and note on a readable page;
 * - what `PRAGMA quick_check` costs per MiB, which decides when `status`
 *   runs it by default (up to 64 MiB).
 *
 * Run alone: `deno run -A scripts/faults/corruption.ts`.
 */
import { join } from "node:path";
import { Journal, quickCheck } from "../../src/store/mod.ts";
import {
  countPlanted,
  garbleHeader,
  garblePages,
  pagesOf,
  plantHome,
  truncateTo,
} from "../../tests/corruption_fixture.ts";
import { cli } from "../../tests/helpers.ts";
import type { FaultRow } from "./row.ts";

const PAGE = 4096;

interface Damage {
  name: string;
  /** Damages the journal; returns the pages that became unreadable (all past a cut). */
  apply(journal: string): number[];
}

const DAMAGES: Damage[] = [
  {
    name: "garbage over 2 memory pages",
    apply(j) {
      const leaves = pagesOf(j, /^memories$/);
      const bad = [leaves[2]!, leaves[Math.floor(leaves.length / 2)]!];
      garblePages(j, bad);
      return bad;
    },
  },
  {
    name: "garbage over a third of the code index's pages",
    apply(j) {
      const bad = pagesOf(j, /^(nodes|edges|paths|chunks|chunks_fts.*|nodes_.*|edges_.*)$/)
        .filter((_, i) => i % 3 === 0);
      garblePages(j, bad);
      return bad;
    },
  },
  {
    name: "garbage over a notes page",
    apply(j) {
      const bad = [pagesOf(j, /^notes$/)[1]!];
      garblePages(j, bad);
      return bad;
    },
  },
  {
    name: "cut to 70% of its length",
    apply(j) {
      const pages = Deno.statSync(j).size / PAGE;
      truncateTo(j, 0.7);
      const kept = Math.floor(Deno.statSync(j).size / PAGE);
      return Array.from({ length: pages - kept }, (_, i) => kept + 1 + i);
    },
  },
  {
    name: "a bad header",
    apply(j) {
      garbleHeader(j);
      return [];
    },
  },
];

/** Rows of `table` on each page of the healthy journal. */
function cellsPerPage(journal: string, table: string): Map<number, number> {
  const j = Journal.open(journal, { readOnly: true });
  try {
    return new Map(
      j.all<{ pageno: number; ncell: number }>(
        "SELECT pageno, ncell FROM dbstat WHERE name = ? AND pagetype = 'leaf'",
        table,
      ).map((r) => [r.pageno, r.ncell]),
    );
  } finally {
    j.close();
  }
}

/** quick_check's cost in ms per MiB, on a journal of about `mib` MiB. */
function quickCheckCost(mib: number): { msPerMiB: number; mib: number } {
  const dir = Deno.makeTempDirSync({ prefix: "heimdall-qc-" });
  const j = Journal.open(join(dir, "journal.db"));
  try {
    const body = "the retry loop keeps its backoff under the budget of the limiter ".repeat(8);
    const rows = Math.ceil((mib * 1048576) / (body.length * 2.2));
    j.tx(() => {
      for (let i = 0; i < rows; i++) {
        j.run(
          "INSERT INTO notes (title, body, keywords, created_ms) VALUES (?, ?, '', ?)",
          `note ${i}`,
          `${body} ${i}`,
          i,
        );
      }
      j.db.exec("CREATE INDEX notes_body ON notes(body)");
    });
    j.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const size = Deno.statSync(j.file).size / 1048576;
    const t0 = performance.now();
    const problem = quickCheck(j.db);
    const ms = performance.now() - t0;
    if (problem) throw new Error(`quick_check on a sound journal: ${problem}`);
    return { msPerMiB: ms / size, mib: size };
  } finally {
    j.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

/** Measures every damage; see the module comment. */
export async function run(): Promise<FaultRow[]> {
  let detected = 0;
  let stacks = 0;
  let kept = 0;
  let rebuilt = 0;
  const memories = { planted: 0, readable: 0, salvaged: 0 };
  const notes = { planted: 0, readable: 0, salvaged: 0 };
  const detail: string[] = [];
  for (const damage of DAMAGES) {
    const p = await plantHome(300, 40);
    const memCells = cellsPerPage(p.journal, "memories");
    const noteCells = cellsPerPage(p.journal, "notes");
    const bad = new Set(damage.apply(p.journal));
    const lost = (cells: Map<number, number>) =>
      [...cells].filter(([page]) => bad.has(page)).reduce((a, [, n]) => a + n, 0);
    memories.planted += p.memories;
    memories.readable += p.memories - lost(memCells);
    notes.planted += p.notes;
    notes.readable += p.notes - lost(noteCells);
    const damaged = Deno.readFileSync(p.journal);

    const status = await cli(p.home, ["status"]);
    const history = await cli(p.home, ["history", "--limit", "1000"]);
    for (const r of [status, history]) if (/^\s+at /m.test(r.stdout + r.stderr)) stacks++;
    if (status.code === 3 && /damaged .*`heimdall rebuild`/.test(status.stdout + status.stderr)) {
      detected++;
    }
    const rebuild = await cli(p.home, ["rebuild"]);
    if (/^\s+at /m.test(rebuild.stdout + rebuild.stderr)) stacks++;
    if (rebuild.code === 0 && (await cli(p.home, ["status"])).code === 0) rebuilt++;
    const aside = [...Deno.readDirSync(p.home)].find((e) =>
      /^journal\.db\.damaged-\d{8}T\d{6}Z$/.test(e.name)
    );
    if (aside) {
      const same = Deno.readFileSync(join(p.home, aside.name));
      if (same.length === damaged.length && same.every((b, i) => b === damaged[i])) kept++;
    }
    const got = rebuild.code === 0 ? countPlanted(p.journal) : { memories: 0, notes: 0 };
    memories.salvaged += got.memories;
    notes.salvaged += got.notes;
    detail.push(
      `${damage.name}: status ${status.code}, rebuild ${rebuild.code}, ${got.memories}/${p.memories} memories, ${got.notes}/${p.notes} notes`,
    );
    Deno.removeSync(p.home, { recursive: true });
    Deno.removeSync(p.repo, { recursive: true });
  }
  if (Deno.env.get("FAULTS_VERBOSE")) { for (const d of detail) console.error(d); }
  const n = DAMAGES.length;
  const qc = quickCheckCost(96);
  return [
    {
      figure: "damaged journals found by `status` (exit 3, one line naming `heimdall rebuild`)",
      value: `${detected} of ${n}`,
      target: `${n} of ${n}`,
      met: detected === n,
    },
    {
      figure: "stack traces printed on damaged journals (status, history, rebuild)",
      value: String(stacks),
      target: "0",
      met: stacks === 0,
    },
    {
      figure: "damaged journals rebuilt (rebuild exit 0, then status exit 0)",
      value: `${rebuilt} of ${n}`,
      target: `${n} of ${n}`,
      met: rebuilt === n,
    },
    {
      figure: "damaged files kept aside byte for byte by rebuild",
      value: `${kept} of ${n}`,
      target: `${n} of ${n}`,
      met: kept === n,
    },
    {
      figure: "memories salvaged of planted (those on readable pages)",
      value: `${memories.salvaged} of ${memories.planted} (${memories.readable} readable)`,
      target: `${memories.readable} (every readable one)`,
      met: memories.salvaged >= memories.readable,
    },
    {
      figure: "notes salvaged of planted (those on readable pages)",
      value: `${notes.salvaged} of ${notes.planted} (${notes.readable} readable)`,
      target: `${notes.readable} (every readable one)`,
      met: notes.salvaged >= notes.readable,
    },
    {
      figure: `quick_check cost (${qc.mib.toFixed(0)} MiB journal); status runs it up to 64 MiB`,
      value: `${qc.msPerMiB.toFixed(1)} ms/MiB (${(qc.msPerMiB * 64).toFixed(0)} ms at 64 MiB)`,
      target: "≤ 1000 ms at 64 MiB",
      met: qc.msPerMiB * 64 <= 1000,
    },
  ];
}

if (import.meta.main) console.table(await run());
