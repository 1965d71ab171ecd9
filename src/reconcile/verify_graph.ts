import { backupJournal, getMeta, Journal, listRoots } from "../store/mod.ts";
import { Resolver } from "./resolve.ts";
import { resolveRoot } from "./resolve_root.ts";
import { defaultWorkerCount } from "../config/mod.ts";
import { readTsconfigAliases } from "./tsconfig.ts";
import { join } from "node:path";

/** A file whose resolved references differ from what resolving them afresh gives. */
export interface GraphDifference {
  /** The file that owns the references. */
  path: string;
  /** What differs, in words, with up to {@link SHOWN} references named. */
  reason: string;
}

/** References named in one difference's reason; the rest are counted. */
const SHOWN = 3;

/** One reference as resolution leaves it, in the words a reader compares. */
interface Reference {
  line: string;
  key: string;
}

/**
 * Checks that the journal's code graph is what a fresh index would give for
 * the same files: every root's references are resolved again whole, as a
 * first index resolves them, in a copy of the journal (the journal itself is
 * only read), and each file's resolved edges and pending references are
 * compared with the journal's. Incremental resolution (an edit, a checkout)
 * must end where a fresh one does; a file listed here is where it did not.
 * A root whose resolution was cut short (flagged in meta, finished by the
 * next reconcile) is reported as such instead of compared. The copy lives
 * in a private temporary folder, removed before this returns.
 */
export async function graphDifferences(
  live: Journal,
  options: { workers?: number } = {},
): Promise<GraphDifference[]> {
  const out: GraphDifference[] = [];
  const roots = listRoots(live);
  const compared = roots.filter((root) => {
    const cut = getMeta(live, `reresolve:${root.id}`) ??
      getMeta(live, `resolve_pending:${root.id}`);
    if (cut !== undefined) {
      out.push({
        path: root.path,
        reason:
          "its references' resolution was cut short and is not finished yet; `heimdall reconcile --all` finishes it",
      });
    }
    return cut === undefined;
  });
  if (compared.length === 0) return out;
  const dir = Deno.makeTempDirSync({ prefix: "heimdall-verify-" });
  try {
    const file = join(dir, "graph.db");
    await backupJournal(live, file);
    const fresh = Journal.open(file);
    try {
      const resolver = new Resolver(fresh, (rootId) => {
        const root = roots.find((r) => r.id === rootId);
        return root === undefined ? new Map() : readTsconfigAliases(root.path);
      });
      const unresolve = function* () {
        for (const root of compared) yield* resolver.unresolveSteps(root.id);
      };
      await fresh.txChunked(unresolve(), { maxMs: SCRATCH_TX_MS });
      for (const root of compared) {
        await resolveRoot(fresh, resolver, root.id, {
          roots: roots.map((r) => [r.id, r.path]),
          workers: options.workers ?? defaultWorkerCount(),
          parallelMin: 200,
          maxMs: SCRATCH_TX_MS,
        });
      }
      for (const ownerId of differingOwners(live, fresh)) {
        const path = live.get<{ path: string }>("SELECT path FROM paths WHERE id = ?", ownerId);
        const reason = differenceOf(references(live, ownerId), references(fresh, ownerId));
        if (path !== undefined && reason !== undefined) out.push({ path: path.path, reason });
      }
    } finally {
      fresh.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  return out.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** Transactions on the scratch copy: no other writer waits for it, so they may be long. */
const SCRATCH_TX_MS = 5_000;

/** Resolution's rows of every file, by owner, as one sortable key each (node ids, no row ids). */
const KEYS =
  `SELECT owner_id, 'e ' || kind || ' ' || src || ' ' || dst || ' ' || how AS k FROM edges
  WHERE target IS NOT NULL
  UNION ALL SELECT owner_id, 'p ' || kind || ' ' || src || ' ' || target FROM pending_edges
  ORDER BY owner_id, k`;

/**
 * The files whose resolution rows differ between the two journals, found
 * by reading both in the same order side by side: one pass over each, whatever
 * the graph's size.
 */
function differingOwners(live: Journal, fresh: Journal): number[] {
  type Row = { owner_id: number; k: string };
  const a = live.stmt(KEYS).iterate() as Iterator<Row>;
  const b = fresh.stmt(KEYS).iterate() as Iterator<Row>;
  const out = new Set<number>();
  let x = a.next();
  let y = b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && before(x.value, y.value))) {
      out.add(x.value.owner_id);
      x = a.next();
    } else if (x.done || before(y.value, x.value)) {
      out.add(y.value.owner_id);
      y = b.next();
    } else {
      x = a.next();
      y = b.next();
    }
  }
  return [...out];
}

function before(a: { owner_id: number; k: string }, b: { owner_id: number; k: string }): boolean {
  return a.owner_id !== b.owner_id ? a.owner_id < b.owner_id : a.k < b.k;
}

/**
 * The references a file owns that resolution decides (edges found from a
 * reference, and those still pending), by what they say: no row ids, which
 * depend on history.
 */
function references(j: Journal, ownerId: number): Reference[] {
  const resolved = j.all<{ kind: string; src: string; dst: string; how: string; to: string }>(
    `SELECT e.kind, coalesce(s.qualname, e.src) AS src, e.dst, e.how,
       coalesce(p.rel || ':' || d.qualname, e.dst) AS "to"
     FROM edges e LEFT JOIN nodes s ON s.id = e.src LEFT JOIN nodes d ON d.id = e.dst
     LEFT JOIN paths p ON p.id = d.path_id
     WHERE e.owner_id = ? AND e.target IS NOT NULL`,
    ownerId,
  );
  const pending = j.all<{ kind: string; src: string; target: string; line: number | null }>(
    `SELECT pe.kind, coalesce(s.qualname, pe.src) AS src, pe.target, pe.line FROM pending_edges pe
     LEFT JOIN nodes s ON s.id = pe.src WHERE pe.owner_id = ?`,
    ownerId,
  );
  return [
    ...resolved.map((e) => ({
      key: `e\0${e.kind}\0${e.src}\0${e.dst}\0${e.how}`,
      line: `${e.kind} ${e.src || "(file)"} → ${e.to} (${e.how})`,
    })),
    ...pending.map((e) => ({
      key: `p\0${e.kind}\0${e.src}\0${e.target}`,
      line: `${e.kind} ${e.src || "(file)"} → ${e.target} unresolved`,
    })),
  ];
}

/** What `live` holds that `fresh` does not and the other way round, in words; undefined when equal. */
function differenceOf(live: Reference[], fresh: Reference[]): string | undefined {
  if (live.length === 0 && fresh.length === 0) return undefined;
  const count = new Map<string, number>();
  for (const r of fresh) count.set(r.key, (count.get(r.key) ?? 0) + 1);
  const extra: string[] = [];
  for (const r of live) {
    const n = count.get(r.key) ?? 0;
    if (n === 0) extra.push(r.line);
    else count.set(r.key, n - 1);
  }
  const missing: string[] = [];
  for (const r of fresh) {
    const n = count.get(r.key) ?? 0;
    if (n > 0) {
      missing.push(r.line);
      count.set(r.key, n - 1);
    }
  }
  if (extra.length === 0 && missing.length === 0) return undefined;
  const listed = (what: string, lines: string[]) =>
    lines.length === 0 ? [] : [
      `${what} ${lines.length}: ${lines.slice(0, SHOWN).join("; ")}${
        lines.length > SHOWN ? `; and ${lines.length - SHOWN} more` : ""
      }`,
    ];
  return [
    ...listed("the journal has, a fresh index would not,", extra),
    ...listed("a fresh index would have, the journal has not,", missing),
  ].join(" — ") + "; `heimdall rebuild` re-indexes from scratch";
}
