import assert from "node:assert/strict";
import { type ReadCache, readCached, substringCoverage } from "./file_reads.ts";

Deno.test("substringCoverage() finds words inside identifiers, case already folded", () => {
  const cases: [string[], string, number][] = [
    [["http", "request"], "function parsehttprequest()", 1],
    [["retry", "backoff", "jitter"], "def retry_with_backoff():", 2 / 3],
    [["zebra"], "", 0],
    [[], "anything", 1],
  ];
  for (const [words, text, want] of cases) assert.equal(substringCoverage(words, text), want);
});

Deno.test("readCached() reads a file once and remembers a missing one", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const file = `${dir}/a.txt`;
    Deno.writeTextFileSync(file, "hello");
    const cache: ReadCache = new Map();
    assert.equal(new TextDecoder().decode(readCached(file, cache, 100)), "hello");
    Deno.removeSync(file);
    assert.equal(
      new TextDecoder().decode(readCached(file, cache, 100)),
      "hello",
      "served from the cache",
    );
    assert.equal(readCached(`${dir}/gone`, cache, 100), undefined);
    assert.ok(cache.has(`${dir}/gone`));
    Deno.writeTextFileSync(file + "2", "x".repeat(200));
    assert.equal(readCached(file + "2", cache, 100)?.length, 200);
    assert.ok(!cache.has(file + "2"), "a file over the cap is not kept");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
