/** A unified diff of two texts, for `heimdall init --dry-run` (pure). */

/**
 * Line diff by longest common subsequence, printed as unified hunks with
 * three lines of context. Config files are small; O(n·m) is fine.
 */
export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  const a = before === null ? [] : before.replace(/\n$/, "").split("\n");
  const b = after === null ? [] : after.replace(/\n$/, "").split("\n");
  const n = a.length, m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j]
        ? lcs[i + 1]![j + 1]! + 1
        : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: { op: " " | "-" | "+"; text: string; ai: number; bi: number }[] = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ op: " ", text: a[i]!, ai: i++, bi: j++ });
    else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      ops.push({ op: "-", text: a[i]!, ai: i++, bi: j });
    } else ops.push({ op: "+", text: b[j]!, ai: i, bi: j++ });
  }
  const out = [
    `--- ${before === null ? "/dev/null" : path}`,
    `+++ ${after === null ? "/dev/null" : path}`,
  ];
  const changed = ops.map((o, k) => (o.op === " " ? -1 : k)).filter((k) => k >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - 3);
    let end = Math.min(ops.length, changed[k]! + 4);
    while (k + 1 < changed.length && changed[k + 1]! - 3 <= end) {
      end = Math.min(ops.length, changed[++k]! + 4);
    }
    k++;
    const hunk = ops.slice(start, end);
    const aStart = hunk[0]!.ai, bStart = hunk[0]!.bi;
    const aLen = hunk.filter((o) => o.op !== "+").length,
      bLen = hunk.filter((o) => o.op !== "-").length;
    out.push(
      `@@ -${aLen === 0 ? aStart : aStart + 1},${aLen} +${
        bLen === 0 ? bStart : bStart + 1
      },${bLen} @@`,
    );
    for (const o of hunk) out.push(`${o.op}${o.text}`);
  }
  return out.join("\n");
}
