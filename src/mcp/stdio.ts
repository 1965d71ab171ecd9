/**
 * The MCP stdio transport: newline-delimited JSON-RPC on a byte stream in
 * and one out, in place of the SDK's `StdioServerTransport`, which
 *
 * - answers nothing to a line it cannot read, or a dump of its validator;
 * - on a message over its 10 MiB buffer closes itself and pauses stdin
 *   without a word, leaving the server neither reading nor ending;
 * - cannot tell when the requests it has handed on are answered, so a
 *   server that stops at end of input drops the answers still being worked on.
 *
 * Here a line that is not a message is answered with JSON-RPC's error
 * (see `jsonrpc.ts`); a message over {@link MAX_MESSAGE_BYTES} is read to
 * its end without being kept and answered with -32600 naming its size, the
 * limit and, when it can be read, its request's id; and {@link drain} waits,
 * once input has ended, for every request received to be answered.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
import { INVALID_REQUEST, obj, readMessage, type RequestId, type Unreadable } from "./jsonrpc.ts";
import { TopLevelId } from "./message_id.ts";

/** The largest message read, in bytes (10 MiB, the SDK's own limit). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

/** `n` bytes for a person: "11534336 bytes (11.0 MiB)". */
function bytesText(n: number): string {
  return `${n} bytes (${(n / 2 ** 20).toFixed(1)} MiB)`;
}

/**
 * Newline-delimited JSON-RPC over `input` and `output` (stdin and stdout by
 * default). Each message is handed to `onmessage` as soon as its line ends;
 * answers are written in the order they are sent.
 *
 * Named only inside this folder (the server and its tests).
 *
 * @internal
 */
export class StdioLines implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: unknown) => void;

  readonly #input: ReadableStream<Uint8Array>;
  readonly #output: WritableStreamDefaultWriter<Uint8Array>;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** The pieces of the line being read. */
  #pieces: Uint8Array[] = [];
  #size = 0;
  /** Set while a line over the limit is read to its end: its id, as far as read. */
  #oversized: TopLevelId | null = null;
  /** Requests handed on and not yet answered: id → how many (a client may reuse an id). */
  readonly #inFlight = new Map<RequestId, number>();
  /** Settles when every write so far has (the writes settle in order). */
  #written: Promise<unknown> = Promise.resolve();
  #inputEnded = false;
  readonly #ended: Promise<void>;
  #endInput!: () => void;
  /** Called when a request is answered or input ends. */
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(
    input: ReadableStream<Uint8Array> = Deno.stdin.readable,
    output: WritableStream<Uint8Array> = Deno.stdout.writable,
    readonly maxMessageBytes: number = MAX_MESSAGE_BYTES,
  ) {
    this.#input = input;
    this.#output = output.getWriter();
    this.#ended = new Promise((resolve) => this.#endInput = resolve);
  }

  /** Starts reading input; returns at once. */
  start(): Promise<void> {
    if (this.#reader) throw new Error("StdioLines already started");
    this.#reader = this.#input.getReader();
    void this.#read(this.#reader);
    return Promise.resolve();
  }

  /**
   * Writes one message. A response settles the request it answers (see
   * {@link drain}). Rejects when output is closed (the client has gone).
   */
  send(message: JSONRPCMessage): Promise<void> {
    const m = message as Record<string, unknown>;
    if (!("method" in m) && ("result" in m || "error" in m)) this.#answered(m.id);
    return this.#write(message);
  }

  /**
   * Resolves once input has ended and every request received has been
   * answered (or cancelled by the client) and written out; gives up on
   * requests still unanswered `graceMs` after input ended and returns their
   * ids (empty when none).
   */
  async drain(graceMs: number): Promise<RequestId[]> {
    await this.#ended;
    const deadline = Date.now() + graceMs;
    while (this.#inFlight.size > 0 && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    await this.#written;
    return [...this.#inFlight.keys()];
  }

  /** Stops reading, lets the writes in progress finish, and calls `onclose` (once). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reader?.cancel().catch(() => {});
    await this.#written;
    this.#output.releaseLock();
    this.onclose?.();
  }

  async #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.#take(value);
      }
      this.#endLine(); // a last line without its newline is still a message
    } catch (e) {
      if (!this.#closed) this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    } finally {
      this.#inputEnded = true;
      this.#endInput();
      this.#wake?.();
    }
  }

  /** Splits a chunk of input at its newlines. */
  #take(chunk: Uint8Array): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      this.#add(chunk.subarray(start, nl < 0 ? chunk.length : nl));
      if (nl < 0) return;
      this.#endLine();
      start = nl + 1;
    }
  }

  /** Adds a piece to the line being read; past the limit, only its id is looked for. */
  #add(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.#oversized === null && this.#size + piece.length > this.maxMessageBytes) {
      this.#oversized = new TopLevelId();
      for (const p of this.#pieces) this.#oversized.feed(p);
      this.#pieces = [];
    }
    this.#size += piece.length;
    if (this.#oversized !== null) this.#oversized.feed(piece);
    else this.#pieces.push(piece);
  }

  /** Handles the line read so far, if any. */
  #endLine(): void {
    const size = this.#size;
    const oversized = this.#oversized;
    const pieces = this.#pieces;
    this.#pieces = [];
    this.#size = 0;
    this.#oversized = null;
    if (oversized !== null) {
      this.#refuse({
        id: oversized.id,
        code: INVALID_REQUEST,
        message: `Invalid Request: the message is ${bytesText(size)}, over the limit of ${
          bytesText(this.maxMessageBytes)
        } per message; send less in one message`,
      }, { size, limit: this.maxMessageBytes });
      return;
    }
    if (size === 0) return;
    const line = this.#decoder.decode(pieces.length === 1 ? pieces[0] : concat(pieces, size));
    if (line.trim() === "") return;
    const read = readMessage(line);
    if ("error" in read) {
      this.#refuse(read.error);
      return;
    }
    const m = read.message as Record<string, unknown>;
    if (typeof m.method === "string") {
      if ("id" in m) this.#received(m.id as RequestId);
      else if (m.method === "notifications/cancelled") {
        // A cancelled request is never answered: nothing to wait for.
        this.#inFlight.delete(obj(m.params)?.requestId as RequestId);
        this.#wake?.();
      }
    }
    try {
      this.onmessage?.(read.message);
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /** Answers a line that is no message with its error (not counted as an answer to a request). */
  #refuse(why: Unreadable, data?: Record<string, unknown>): void {
    const error = { code: why.code, message: why.message, ...(data ? { data } : {}) };
    this.#write({ jsonrpc: "2.0", id: why.id, error } as unknown as JSONRPCMessage)
      .catch((e) => this.onerror?.(e));
  }

  #received(id: RequestId): void {
    this.#inFlight.set(id, (this.#inFlight.get(id) ?? 0) + 1);
  }

  #answered(id: unknown): void {
    const n = this.#inFlight.get(id as RequestId);
    if (n === undefined) return;
    if (n > 1) this.#inFlight.set(id as RequestId, n - 1);
    else this.#inFlight.delete(id as RequestId);
    if (this.#inputEnded) this.#wake?.();
  }

  #write(message: JSONRPCMessage): Promise<void> {
    const done = this.#output.write(this.#encoder.encode(JSON.stringify(message) + "\n"));
    this.#written = done.catch(() => {});
    return done;
  }
}

function concat(pieces: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
