import assert from "node:assert/strict";
import { fileNodeId, nodeId } from "./desired.ts";

Deno.test("node ids are stable, distinct, and share their file's prefix", () => {
  const a = "/repo/src/a.ts";
  const b = "/repo/src/b.ts";
  const ids = [fileNodeId(a), nodeId(a, "function", "f"), nodeId(a, "function", "f", 1)];
  for (const id of ids) assert.match(id, /^[0-9a-f]{20}$/);
  assert.equal(new Set(ids).size, ids.length);
  // One file's nodes sort together in an index keyed by node id.
  assert.equal(new Set(ids.map((id) => id.slice(0, 8))).size, 1);
  assert.notEqual(nodeId(b, "function", "f").slice(0, 8), ids[1]!.slice(0, 8));
  // Another file in between does not change what a path gives.
  assert.equal(nodeId(a, "function", "f"), ids[1]);
  assert.notEqual(nodeId(b, "function", "f"), ids[1]);
});
