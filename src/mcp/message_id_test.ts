import assert from "node:assert/strict";
import { TopLevelId } from "./message_id.ts";

/** Feeds `text` in pieces of `size` bytes; returns the id found. */
function scan(text: string, size: number): string | number | null {
  const bytes = new TextEncoder().encode(text);
  const s = new TopLevelId();
  for (let i = 0; i < bytes.length; i += size) s.feed(bytes.subarray(i, i + size));
  return s.id;
}

Deno.test("TopLevelId finds the top-level id wherever it is, in pieces of any size", () => {
  const cases: [string, string | number | null][] = [
    ['{"jsonrpc":"2.0","id":2,"method":"ping"}', 2],
    ['{"method":"tools/call","params":{"name":"search","arguments":{"query":"zz"}},"id":9}', 9],
    ['{ "id" : "abc-1" , "method":"x"}', "abc-1"],
    ['{"id":-3}', -3],
    ['{"params":{"id":1,"nested":[{"id":2}]},"method":"x"}', null],
    ['{"q":"a \\"id\\":5 b","id":6}', 6],
    ['{"q":"\\\\","id":7}', 7],
    ['{"id":23.5}', null],
    ['{"id":{"a":1}}', null],
    ['{"id":[1]}', null],
    ['{"id":null}', null],
    ['{"id":1,"id":2}', 2],
    ['{"ids":1,"xid":2,"id ":3}', null],
    ['[{"id":1}]', null],
    ['"id"', null],
    ['{"params":{"q":"zzzz"},"id":"cut', null],
    ['{"id":"\\u00e9t\\u00e9"}', "été"],
  ];
  for (const [text, id] of cases) {
    for (const size of [1, 3, 7, 1024]) assert.equal(scan(text, size), id, `${text} in ${size}s`);
  }
});

Deno.test("TopLevelId reads past megabytes of params without keeping them", () => {
  const big = `{"jsonrpc":"2.0","method":"tools/call","params":{"q":"${
    "z".repeat(3_000_000)
  }"},"id":42}`;
  assert.equal(scan(big, 65536), 42);
});
