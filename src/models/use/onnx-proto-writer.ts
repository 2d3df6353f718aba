/**
 * Minimal protobuf encoder for the handful of ONNX messages the USE graph needs.
 * Hand-written (small) so the runtime path does not depend on `onnx-proto`, which is only a
 * devDependency; field numbers follow onnx/onnx.proto (IR version 8).
 */

/**
 * A message under construction. Nested messages stay Writers until the single final copy in finish(), so
 * the 28 MB of weights are copied once instead of once per nesting level (lower peak RSS at load).
 */
class Writer {
  private parts: (Uint8Array | Writer)[] = [];
  private cachedSize = -1;

  private varint(v: bigint): this {
    // int64 fields: negative values are encoded as their 64-bit two's complement (10 bytes).
    let x = BigInt.asUintN(64, v);
    const out: number[] = [];
    while (x >= 0x80n) {
      out.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    out.push(Number(x));
    this.parts.push(Uint8Array.from(out));
    return this;
  }

  private tag(field: number, wire: number): this {
    return this.varint(BigInt((field << 3) | wire));
  }

  int(field: number, v: number | bigint): this {
    return this.tag(field, 0).varint(BigInt(v));
  }

  float(field: number, v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.tag(field, 5).parts.push(b);
    return this;
  }

  /** Length-delimited field; the bytes are referenced, not copied, until finish(). */
  bytes(field: number, b: Uint8Array | Writer): this {
    this.tag(field, 2);
    if (b instanceof Writer) this.parts.push(b);
    else this.varint(BigInt(b.length)).parts.push(b);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, new TextEncoder().encode(s));
  }

  size(): number {
    if (this.cachedSize < 0) {
      this.cachedSize = 0;
      for (const p of this.parts) this.cachedSize += p instanceof Writer ? varintLength(p.size()) + p.size() : p.length;
    }
    return this.cachedSize;
  }

  private writeInto(out: Uint8Array, offset: number): number {
    for (const p of this.parts) {
      if (p instanceof Writer) {
        for (let n = p.size(); ; n = Math.floor(n / 128)) {
          out[offset++] = n >= 128 ? (n & 0x7f) | 0x80 : n;
          if (n < 128) break;
        }
        offset = p.writeInto(out, offset);
      } else {
        out.set(p, offset);
        offset += p.length;
      }
    }
    return offset;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size());
    this.writeInto(out, 0);
    return out;
  }
}

function varintLength(n: number): number {
  let len = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    len++;
  }
  return len;
}


export const DT_FLOAT = 1;
export const DT_INT32 = 6;
export const DT_INT64 = 7;

export type AttrValue = number | number[] | string | { float: number };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  domain?: string;
  attrs?: Record<string, AttrValue>;
}

export interface OnnxTensor {
  name: string;
  dims: number[];
  dataType: number;
  data: Float32Array | Int32Array | BigInt64Array;
}

export interface OnnxValueInfo {
  name: string;
  elemType: number;
  /** number = fixed size, string = symbolic dimension. */
  shape: (number | string)[];
}

function attribute(name: string, v: AttrValue): Writer {
  const w = new Writer().string(1, name);
  // AttributeProto.type: FLOAT=1, INT=2, STRING=3, INTS=7.
  if (typeof v === 'string') return w.bytes(4, new TextEncoder().encode(v)).int(20, 3);
  if (typeof v === 'number') return w.int(3, v).int(20, 2);
  if (Array.isArray(v)) {
    for (const x of v) w.int(8, x);
    return w.int(20, 7);
  }
  return w.float(2, v.float).int(20, 1);
}

function node(n: OnnxNode, i: number): Writer {
  const w = new Writer();
  for (const x of n.inputs) w.string(1, x);
  for (const x of n.outputs) w.string(2, x);
  w.string(3, `${n.op}_${i}`).string(4, n.op);
  for (const [k, v] of Object.entries(n.attrs ?? {})) w.bytes(5, attribute(k, v));
  if (n.domain) w.string(7, n.domain);
  return w;
}

function tensor(t: OnnxTensor): Writer {
  const w = new Writer();
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.dataType).string(8, t.name);
  // raw_data is little-endian, which is what typed arrays hold on every platform Node supports.
  return w.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

function valueInfo(v: OnnxValueInfo): Writer {
  const shape = new Writer();
  for (const d of v.shape) {
    shape.bytes(1, typeof d === 'number' ? new Writer().int(1, d) : new Writer().string(2, d));
  }
  const tensorType = new Writer().int(1, v.elemType).bytes(2, shape);
  return new Writer().string(1, v.name).bytes(2, new Writer().bytes(1, tensorType));
}

export interface OnnxModel {
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  opsets: Record<string, number>;
}

export function encodeModel(m: OnnxModel): Uint8Array {
  const g = new Writer();
  m.nodes.forEach((n, i) => g.bytes(1, node(n, i)));
  g.string(2, 'use_lite');
  for (const t of m.initializers) g.bytes(5, tensor(t));
  for (const v of m.inputs) g.bytes(11, valueInfo(v));
  for (const v of m.outputs) g.bytes(12, valueInfo(v));
  const model = new Writer().int(1, 8).string(2, 'veracite');
  for (const [domain, version] of Object.entries(m.opsets)) {
    model.bytes(8, new Writer().string(1, domain).int(2, version));
  }
  return model.bytes(7, g).finish();
}
