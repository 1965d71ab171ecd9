import assert from "node:assert/strict";
import { INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, readMessage } from "./jsonrpc.ts";

Deno.test("readMessage() passes every kind of JSON-RPC message on", () => {
  for (
    const line of [
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"result":{}}',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}',
    ]
  ) {
    const r = readMessage(line);
    assert.ok("message" in r, line);
    assert.deepEqual(r.message, JSON.parse(line));
  }
});

Deno.test("readMessage() answers JSON that is no message with Invalid Request naming what is wrong", () => {
  const cases: [string, string | number | null, RegExp][] = [
    ['[{"jsonrpc":"2.0","id":2,"method":"ping"}]', null, /batch.*one message per line/],
    ['{"jsonrpc":"2.0","id":3}', 3, /no "method".*nor "result" or "error"/],
    ['{"id":4,"method":"ping"}', 4, /lacks "jsonrpc": "2.0"/],
    [
      '{"jsonrpc":"1.0","id":4,"method":"ping"}',
      4,
      /"jsonrpc" must be "2.0", not a string \("1.0"\)/,
    ],
    ['"str"', null, /a JSON object, not a string \("str"\)/],
    ["null", null, /a JSON object, not null/],
    ["42", null, /a JSON object, not a number \(42\)/],
    [
      '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
      null,
      /"id" must be a string or an integer, not an object/,
    ],
    ['{"jsonrpc":"2.0","id":23.5,"method":"ping"}', null, /"id" must be .* not a number \(23.5\)/],
    ['{"jsonrpc":"2.0","id":5,"method":7}', 5, /"method" must be a string, not a number/],
    [
      '{"jsonrpc":"2.0","id":6,"method":"ping","params":[1]}',
      6,
      /params of ping must be an object, not an array/,
    ],
    [
      '{"jsonrpc":"2.0","id":7,"method":"ping","extra":1}',
      7,
      /unexpected member "extra" in a request/,
    ],
    ['{"jsonrpc":"2.0","result":{}}', null, /response needs the "id"/],
  ];
  for (const [line, id, why] of cases) {
    const r = readMessage(line);
    assert.ok("error" in r, line);
    assert.equal(r.error.code, INVALID_REQUEST, line);
    assert.equal(r.error.id, id, line);
    assert.match(r.error.message, /^Invalid Request: /, line);
    assert.match(r.error.message, why, line);
    assert.doesNotMatch(r.error.message, /\n/, line);
  }
});

Deno.test("readMessage() answers a line that is not JSON with Parse error and no id", () => {
  for (const line of ["{not json", '{"jsonrpc":"2.0","id":1,', "ping"]) {
    const r = readMessage(line);
    assert.ok("error" in r, line);
    assert.equal(r.error.code, PARSE_ERROR, line);
    assert.equal(r.error.id, null, line);
    assert.match(r.error.message, /^Parse error: \S/, line);
  }
});

Deno.test("readMessage() answers a request whose _meta breaks MCP's rules with Invalid params naming it", () => {
  const cases: [string, string | number | null, string][] = [
    [
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":5}}',
      1,
      "Invalid params of ping: _meta: Invalid input: expected object, received number",
    ],
    [
      '{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"search","_meta":{"progressToken":[]}}}',
      "x",
      "Invalid params of tools/call: _meta.progressToken: expected string or number",
    ],
  ];
  for (const [line, id, message] of cases) {
    const r = readMessage(line);
    assert.ok("error" in r, line);
    assert.equal(r.error.code, INVALID_PARAMS, line);
    assert.equal(r.error.id, id, line);
    assert.equal(r.error.message, message, line);
  }
});
