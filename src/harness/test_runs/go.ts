/**
 * `go test`: `--- FAIL: TestName (0.00s)` per failing test (subtests as
 * `TestTable/case`), `FAIL\tpkg\t…` / `ok  \tpkg\t…` per package.
 */
import { type ParsedRun, unique } from "./types.ts";

export function parseGoTest(out: string): ParsedRun | null {
  const failed = [...out.matchAll(/^[ \t]*--- FAIL: (\S+)/gm)].map((m) => m[1]!);
  const okPkgs = [...out.matchAll(/^ok\s+\S+\s+(?:[\d.]+s|\(cached\))/gm)].length;
  const failPkgs = [...out.matchAll(/^FAIL\s+\S+\s+(?:[\d.]+s|\[build failed\])/gm)].length;
  const passedTests = [...out.matchAll(/^[ \t]*--- PASS: /gm)].length;
  if (failed.length === 0 && okPkgs === 0 && failPkgs === 0) return null;
  // A failing parent (TestTable) is implied by its failing subtest (TestTable/x).
  const names = unique(failed).filter((n, _i, all) => !all.some((o) => o.startsWith(n + "/")));
  return {
    runner: "go test",
    failed: names,
    passed: passedTests > 0 ? passedTests : null,
    failedCount: failed.length > 0 || failPkgs > 0 ? names.length : 0,
  };
}
