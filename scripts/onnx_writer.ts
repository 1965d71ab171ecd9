/**
 * A minimal ONNX writer for `scripts/make_tiny_model.ts`: the protobuf wire
 * format (varints, fixed32, length-delimited fields) and the handful of ONNX
 * messages a feed-forward graph needs (ModelProto, GraphProto, NodeProto,
 * AttributeProto, TensorProto, ValueInfoProto).
 *
 * Messages are kept as lists of byte chunks and never concatenated, so a
 * graph whose weights run to a gigabyte is written without a second copy.
 * Tensors can also go to an external data file (ONNX `external_data`), which
 * is how graphs over protobuf's 2 GB limit (bge-m3 in fp32) are stored.
 * Field numbers follow `onnx/onnx.proto` (IR version 8, opset 17).
 */

/** A serialised protobuf message: its chunks in order and their total length. */
export class Message {
  readonly chunks: Uint8Array[] = [];
  length = 0;

  #push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  #tag(field: number, wire: number): void {
    this.#push(varint(BigInt(field * 8 + wire)));
  }

  /** A varint field (int32, int64, enum, bool); negatives take ten bytes, as protobuf says. */
  int(field: number, value: number | bigint): this {
    this.#tag(field, 0);
    this.#push(varint(BigInt.asUintN(64, BigInt(value))));
    return this;
  }

  /** A 32-bit float field. */
  float(field: number, value: number): this {
    this.#tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.#push(b);
    return this;
  }

  /** A string field (UTF-8). */
  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  /** A bytes field; `value` is kept by reference, not copied. */
  bytes(field: number, value: Uint8Array): this {
    this.#tag(field, 2);
    this.#push(varint(BigInt(value.length)));
    this.#push(value);
    return this;
  }

  /** An embedded message field. */
  message(field: number, child: Message): this {
    this.#tag(field, 2);
    this.#push(varint(BigInt(child.length)));
    for (const c of child.chunks) this.#push(c);
    return this;
  }

  /** A packed repeated varint field. */
  packedInts(field: number, values: readonly (number | bigint)[]): this {
    const parts = values.map((v) => varint(BigInt.asUintN(64, BigInt(v))));
    const body = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
    let at = 0;
    for (const p of parts) {
      body.set(p, at);
      at += p.length;
    }
    return this.bytes(field, body);
  }
}

function varint(value: bigint): Uint8Array {
  const out: number[] = [];
  let v = value;
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return new Uint8Array(out);
}

/** ONNX TensorProto.DataType values used here. */
export const DType = { float: 1, uint8: 2, int8: 3, int32: 6, int64: 7 } as const;
export type DTypeName = keyof typeof DType;

/** One attribute of a node: a number is an INT unless `float` says otherwise. */
export type Attr =
  | { int: number }
  | { float: number }
  | { ints: number[] }
  | { string: string };

/** Appends tensors' bytes to an external data file, as ONNX `external_data` entries. */
export class ExternalData {
  offset = 0;
  constructor(readonly file: Deno.FsFile, readonly location: string) {}

  /** Writes `bytes` (64-byte aligned, like onnx's own writer) and returns where they went. */
  append(bytes: Uint8Array): { offset: number; length: number } {
    const pad = (64 - (this.offset % 64)) % 64;
    if (pad) this.#write(new Uint8Array(pad));
    const at = this.offset;
    this.#write(bytes);
    return { offset: at, length: bytes.length };
  }

  #write(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) done += this.file.writeSync(bytes.subarray(done));
    this.offset += bytes.length;
  }
}

/** A TensorProto with raw little-endian data, inline or in `external`. */
export function tensor(
  name: string,
  dtype: DTypeName,
  dims: readonly number[],
  data: Uint8Array,
  external?: ExternalData,
): Message {
  const t = new Message().packedInts(1, dims).int(2, DType[dtype]).string(8, name);
  if (external && data.length >= 1024) {
    const { offset, length } = external.append(data);
    const entry = (k: string, v: string) => new Message().string(1, k).string(2, v);
    t.message(13, entry("location", external.location));
    t.message(13, entry("offset", String(offset)));
    t.message(13, entry("length", String(length)));
    t.int(14, 1); // data_location = EXTERNAL
  } else {
    t.bytes(9, data);
  }
  return t;
}

/** A NodeProto. */
export function node(
  op: string,
  inputs: readonly string[],
  outputs: readonly string[],
  name: string,
  attrs: Record<string, Attr> = {},
  domain = "",
): Message {
  const n = new Message();
  for (const i of inputs) n.string(1, i);
  for (const o of outputs) n.string(2, o);
  n.string(3, name).string(4, op);
  if (domain) n.string(7, domain);
  for (const [key, a] of Object.entries(attrs)) {
    const m = new Message().string(1, key);
    if ("int" in a) m.int(3, a.int).int(20, 2);
    else if ("float" in a) m.float(2, a.float).int(20, 1);
    else if ("ints" in a) m.packedInts(8, a.ints).int(20, 7);
    else m.bytes(4, new TextEncoder().encode(a.string)).int(20, 3);
    n.message(5, m);
  }
  return n;
}

/** A ValueInfoProto for a graph input or output; a string dimension is symbolic. */
export function valueInfo(
  name: string,
  dtype: DTypeName,
  dims: readonly (number | string)[],
): Message {
  const shape = new Message();
  for (const d of dims) {
    shape.message(1, typeof d === "number" ? new Message().int(1, d) : new Message().string(2, d));
  }
  const tensorType = new Message().int(1, DType[dtype]).message(2, shape);
  return new Message().string(1, name).message(2, new Message().message(1, tensorType));
}

/** A whole ModelProto (IR version 8, default-domain opset `opset`). */
export function model(parts: {
  name: string;
  nodes: readonly Message[];
  initializers: readonly Message[];
  inputs: readonly Message[];
  outputs: readonly Message[];
  opset?: number;
  docString?: string;
}): Message {
  const g = new Message();
  for (const n of parts.nodes) g.message(1, n);
  g.string(2, parts.name);
  for (const t of parts.initializers) g.message(5, t);
  if (parts.docString) g.string(10, parts.docString);
  for (const i of parts.inputs) g.message(11, i);
  for (const o of parts.outputs) g.message(12, o);
  const opset = new Message().string(1, "").int(2, parts.opset ?? 17);
  return new Message()
    .int(1, 8)
    .string(2, "heimdall make_tiny_model")
    .string(3, "1")
    .message(7, g)
    .message(8, opset);
}

/** Writes a message's chunks to `path`. */
export function writeMessage(path: string, m: Message): void {
  const f = Deno.openSync(path, { write: true, create: true, truncate: true });
  try {
    for (const c of m.chunks) {
      let done = 0;
      while (done < c.length) done += f.writeSync(c.subarray(done));
    }
  } finally {
    f.close();
  }
}
