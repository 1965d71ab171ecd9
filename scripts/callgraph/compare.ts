/**
 * Scores Heimdall's resolved calls against a type checker's answers for the
 * same call sites (pure). A call site is (file, line of the callee's name,
 * name). A resolved edge is judged where the oracle saw a call at its site:
 * correct when one of the oracle's declarations there lies in the edge's
 * target (same file, the declaration's line within the target's lines, same
 * name), wrong otherwise (the oracle placed it elsewhere, outside the
 * repository, or nowhere). Precision = correct / judged. Recall = oracle
 * sites with a declaration in the repository that Heimdall resolved to one
 * of them / all such sites. Heimdall keeps one edge per caller and target, at
 * the first call, so a site is found by an edge of the same name whose
 * caller's lines hold it. Edges at sites the oracle did not see (a JSX
 * element, a call the extractor reads differently) are counted apart.
 */

/** One call as a checker sees it (see oracle_tsc.ts, oracle_jedi.py). */
export interface OracleCall {
  file: string;
  line: number;
  name: string;
  targets: { file: string; line: number; name: string }[];
  external: boolean;
}

/** One resolved call edge of Heimdall's journal. */
export interface HeimdallCall {
  file: string;
  line: number;
  name: string;
  how: string;
  /** The lines of the symbol that makes the call (the file's, for a call at its top level). */
  caller: { start: number; end: number };
  dst: { file: string; start: number; end: number; name: string; qualname: string };
}

/** What {@link compareCalls} found; the samples are a few of each, as `file:line name → …`. */
export interface Score {
  resolved: number;
  judged: number;
  correct: number;
  /** correct / judged, 1 when nothing was judged. */
  precision: number;
  /** Oracle call sites with a declaration in the repository. */
  inRepo: number;
  found: number;
  /** found / inRepo, 1 when there are none. */
  recall: number;
  unjudged: number;
  /** Judged edges per resolution kind (`import`, `member`, …): [judged, correct]. */
  byHow: Record<string, [number, number]>;
  wrong: string[];
  missed: string[];
}

const key = (c: { file: string; line: number; name: string }) =>
  `${c.file}\u0000${c.line}\u0000${c.name}`;

function hits(edge: HeimdallCall, t: OracleCall["targets"][number]): boolean {
  const d = edge.dst;
  return t.file === d.file && d.start <= t.line && t.line <= d.end && t.name === d.name;
}

/** Precision and recall of `heimdall` against `oracle` (see the module doc). */
export function compareCalls(
  heimdall: readonly HeimdallCall[],
  oracle: readonly OracleCall[],
  samples = 12,
): Score {
  const sites = new Map<string, OracleCall[]>();
  for (const o of oracle) {
    const k = key(o);
    const list = sites.get(k);
    if (list) list.push(o);
    else sites.set(k, [o]);
  }
  const edges = new Map<string, HeimdallCall[]>();
  for (const h of heimdall) {
    const k = `${h.file}\u0000${h.name}`;
    const list = edges.get(k);
    if (list) list.push(h);
    else edges.set(k, [h]);
  }
  const score: Score = {
    resolved: heimdall.length,
    judged: 0,
    correct: 0,
    precision: 1,
    inRepo: 0,
    found: 0,
    recall: 1,
    unjudged: 0,
    byHow: {},
    wrong: [],
    missed: [],
  };
  for (const h of heimdall) {
    const at = sites.get(key(h));
    if (!at) {
      score.unjudged++;
      continue;
    }
    score.judged++;
    const how = score.byHow[h.how] ??= [0, 0];
    how[0]++;
    if (at.some((o) => o.targets.some((t) => hits(h, t)))) {
      score.correct++;
      how[1]++;
    } else if (score.wrong.length < samples) {
      const said = at.flatMap((o) => o.targets.map((t) => `${t.file}:${t.line} ${t.name}`));
      score.wrong.push(
        `${h.file}:${h.line} ${h.name} → ${h.dst.file}:${h.dst.start} ${h.dst.qualname} (${h.how}); ` +
          `checker: ${said.join(", ") || (at.some((o) => o.external) ? "outside" : "unknown")}`,
      );
    }
  }
  for (const o of oracle) {
    if (o.targets.length === 0) continue;
    score.inRepo++;
    const callers = (edges.get(`${o.file}\u0000${o.name}`) ?? []).filter((h) =>
      h.caller.start <= o.line && o.line <= h.caller.end
    );
    if (callers.some((h) => o.targets.some((t) => hits(h, t)))) score.found++;
    else if (score.missed.length < samples) {
      score.missed.push(
        `${o.file}:${o.line} ${o.name} → ${o.targets.map((t) => `${t.file}:${t.line}`).join(", ")}`,
      );
    }
  }
  if (score.judged > 0) score.precision = score.correct / score.judged;
  if (score.inRepo > 0) score.recall = score.found / score.inRepo;
  return score;
}
