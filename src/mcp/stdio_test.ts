import assert from "node:assert/strict";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
import { StdioLines } from "./stdio.ts";

type Msg = Record<string, unknown>;

/** A transport over in-memory streams: what the client writes, and every line the server wrote. */
function pipe(maxMessageBytes?: number) {
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const written: Msg[] = [];
  let pending = "";
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      pending += new TextDecoder().decode(chunk);
      let nl;
      while ((nl = pending.indexOf("\n")) >= 0) {
        written.push(JSON.parse(pending.slice(0, nl)));
        pending = pending.slice(nl + 1);
      }
    },
  });
  const stdio = new StdioLines(input.readable, output, maxMessageBytes);
  const writer = input.writable.getWriter();
  const send = (text: string) => writer.write(new TextEncoder().encode(text));
  return { stdio, written, send, end: () => writer.close() };
}

Deno.test("StdioLines.drain() waits, after input ends, for every request received to be answered", async () => {
  const { stdio, written, send, end } = pipe();
  const received: Msg[] = [];
  stdio.onmessage = (m) => {
    const msg = m as Msg;
    received.push(msg);
    if (msg.id === undefined) return;
    // Each request is answered later than input ends, the slowest first.
    setTimeout(
      () => stdio.send({ jsonrpc: "2.0", id: msg.id, result: { n: msg.id } } as JSONRPCMessage),
      msg.id === 1 ? 60 : 20,
    );
  };
  await stdio.start();
  await send('{"jsonrpc":"2.0","id":1,"method":"a"}\n{"jsonrpc":"2.0","id":2,"method":"b"}\n');
  await end();
  assert.deepEqual(await stdio.drain(10_000), []);
  assert.deepEqual(written.map((m) => m.id).sort(), [1, 2]);
  await stdio.close();
});

Deno.test("StdioLines.drain() does not wait for a request the client cancelled, nor past its grace", async () => {
  const { stdio, send, end } = pipe();
  stdio.onmessage = () => {}; // never answers
  await stdio.start();
  await send('{"jsonrpc":"2.0","id":"x","method":"slow"}\n');
  await send(
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x"}}\n',
  );
  await send('{"jsonrpc":"2.0","id":"y","method":"slow"}\n');
  await end();
  assert.deepEqual(await stdio.drain(50), ["y"]);
  await stdio.close();
});

Deno.test("StdioLines answers a message over its limit with its size, the limit and its id, then reads on", async () => {
  const { stdio, written, send, end } = pipe(100);
  const received: Msg[] = [];
  stdio.onmessage = (m) => void received.push(m as Msg);
  await stdio.start();
  const big = `{"jsonrpc":"2.0","method":"tools/call","params":{"q":"${"z".repeat(300)}"},"id":7}`;
  // In pieces, as a pipe delivers it; the limit is crossed in the middle of one.
  await send(big.slice(0, 60));
  await send(big.slice(60, 250));
  await send(big.slice(250) + "\n" + '{"jsonrpc":"2.0","id":8,"method":"ping"}\n');
  await end();
  // The refused message was no request received: only the ping is waited for.
  assert.deepEqual(await stdio.drain(50), [8]);
  const refused = written.find((m) => m.id === 7)?.error as Msg;
  assert.equal(refused.code, -32600);
  assert.match(String(refused.message), new RegExp(`${big.length} bytes.*limit of 100 bytes`));
  assert.deepEqual(refused.data, { size: big.length, limit: 100 });
  assert.deepEqual(received.map((m) => m.id), [8]);
  await stdio.close();
});

Deno.test("StdioLines answers lines that are no message, skips blank ones, and reads a last line without newline", async () => {
  const { stdio, written, send, end } = pipe();
  const received: Msg[] = [];
  stdio.onmessage = (m) => void received.push(m as Msg);
  await stdio.start();
  await send('{not json\n\n  \r\n[1]\n{"jsonrpc":"2.0","id":3}\r\n{"jsonrpc":"2.0","method":"n"}');
  await end();
  await stdio.drain(1000);
  assert.deepEqual(written.map((m) => [m.id, (m.error as Msg).code]), [
    [null, -32700],
    [null, -32600],
    [3, -32600],
  ]);
  assert.deepEqual(received, [{ jsonrpc: "2.0", method: "n" }]);
  await stdio.close();
});
