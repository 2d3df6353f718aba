/**
 * Column-wise Arrow batches for the LanceDB tables. Building columns directly (instead of handing row
 * objects to LanceDB's generic converter) keeps the ingest hot path cheap.
 */
import {
  Field,
  FixedSizeList,
  Float32,
  Int32,
  List,
  Schema,
  Table,
  Utf8,
  makeData,
  makeVector,
  type Vector,
} from 'apache-arrow';
import type { Document, Passage } from '../corpus/types.js';
import { titleKey } from './title-key.js';

export function passageSchema(dimension?: number): Schema {
  const fields: Field[] = [
    new Field('id', new Utf8(), false),
    new Field('doc_id', new Utf8(), false),
    new Field('title', new Utf8(), false),
    new Field('idx', new Int32(), false),
    new Field('sent_start', new Int32(), false),
    new Field('sent_end', new Int32(), false),
    new Field('text', new Utf8(), false),
    // Title + text: what BM25 indexes, so a passage matches on its document's title too (as BEIR does).
    new Field('search_text', new Utf8(), false),
  ];
  if (dimension) {
    fields.push(new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), true));
  }
  return new Schema(fields);
}

export function documentSchema(): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('title', new Utf8(), false),
    // Normalised base title, for entity/title matching of claim mentions.
    new Field('title_key', new Utf8(), false),
    new Field('url', new Utf8(), true),
    new Field('norm_url', new Utf8(), true),
    new Field('sentences', new List(new Field('item', new Utf8(), true)), false),
    new Field('links', new List(new Field('item', new Utf8(), true)), false),
  ]);
}

/** Anything with named columns readable by row: an Arrow table or record batch from a LanceDB query. */
interface Columns {
  getChild(name: string): { get(i: number): unknown } | null;
}

/**
 * Reads passage rows column by column (LanceDB's row proxies cost as much as a top-100 query): returns a
 * function from row index to Passage. The result must hold the passage columns.
 */
export function passageReader(table: Columns): (i: number) => Passage {
  const [id, docId, title, idx, start, end, text] = ['id', 'doc_id', 'title', 'idx', 'sent_start', 'sent_end', 'text'].map((c) => table.getChild(c)!);
  return (i) => ({
    id: id!.get(i) as string,
    docId: docId!.get(i) as string,
    title: title!.get(i) as string,
    index: idx!.get(i) as number,
    sentenceStart: start!.get(i) as number,
    sentenceEnd: end!.get(i) as number,
    text: text!.get(i) as string,
  });
}

export function searchTextOf(title: string, text: string): string {
  return title ? `${title}\n${text}` : text;
}

function int32(values: number[]): Vector {
  return makeVector(Int32Array.from(values));
}

const encoder = new TextEncoder();

/**
 * Utf8 column data from JS strings in one pass: every string is encoded straight into one growing byte
 * buffer (apache-arrow's generic builder is ~5x slower on the ingest hot path).
 */
function utf8Data(strings: (string | null | undefined)[]) {
  const n = strings.length;
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (const s of strings) total += s ? s.length : 0;
  let bytes = new Uint8Array(Math.max(16, total * 3));
  let at = 0;
  let nullCount = 0;
  const valid = new Uint8Array(Math.ceil(n / 8));
  for (let i = 0; i < n; i++) {
    const s = strings[i];
    if (s === null || s === undefined) nullCount++;
    else {
      valid[i >> 3]! |= 1 << (i & 7);
      if (s.length) {
        const { written } = encoder.encodeInto(s, bytes.subarray(at));
        at += written!;
      }
    }
    offsets[i + 1] = at;
  }
  bytes = bytes.subarray(0, at);
  return makeData({ type: new Utf8(), length: n, nullCount, nullBitmap: nullCount ? valid : undefined, valueOffsets: offsets, data: bytes });
}

export function utf8Vector(strings: (string | null | undefined)[]): Vector {
  return makeVector(utf8Data(strings));
}

/** List<Utf8> column (e.g. each document's sentences) built from the flattened strings. */
export function utf8ListVector(lists: string[][], type: List<Utf8>): Vector {
  const offsets = new Int32Array(lists.length + 1);
  const flat: string[] = [];
  lists.forEach((l, i) => {
    for (const s of l) flat.push(s);
    offsets[i + 1] = flat.length;
  });
  return makeVector(makeData({ type, length: lists.length, nullCount: 0, valueOffsets: offsets, child: utf8Data(flat) }));
}

export function passagesToArrow(passages: Passage[], schema: Schema, vectors?: (Float32Array | undefined)[]): Table {
  const n = passages.length;
  const ids = new Array<string>(n);
  const docIds = new Array<string>(n);
  const titles = new Array<string>(n);
  const idx = new Array<number>(n);
  const start = new Array<number>(n);
  const end = new Array<number>(n);
  const texts = new Array<string>(n);
  const search = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const p = passages[i]!;
    ids[i] = p.id;
    docIds[i] = p.docId;
    titles[i] = p.title;
    idx[i] = p.index;
    start[i] = p.sentenceStart;
    end[i] = p.sentenceEnd;
    texts[i] = p.text;
    search[i] = searchTextOf(p.title, p.text);
  }
  const columns: Record<string, Vector> = {
    id: utf8Vector(ids),
    doc_id: utf8Vector(docIds),
    title: utf8Vector(titles),
    idx: int32(idx),
    sent_start: int32(start),
    sent_end: int32(end),
    text: utf8Vector(texts),
    search_text: utf8Vector(search),
  };
  const vectorField = schema.fields.find((f) => f.name === 'vector');
  if (vectorField) columns.vector = fixedSizeVectors(vectorField.type as FixedSizeList<Float32>, n, vectors);
  return new Table(schema, columns as never);
}

/**
 * A FixedSizeList<Float32> column from one flat buffer (copying 512 floats per row through JS arrays
 * would dominate the ingest); rows without a vector are null.
 */
export function fixedSizeVectors(type: FixedSizeList<Float32>, n: number, vectors?: (Float32Array | undefined)[]): Vector {
  const dim = type.listSize;
  const flat = new Float32Array(n * dim);
  const valid = new Uint8Array(Math.ceil(n / 8));
  let nullCount = 0;
  for (let i = 0; i < n; i++) {
    const v = vectors?.[i];
    if (v) {
      if (v.length !== dim) throw new Error(`vector ${i} has ${v.length} dimensions, the index expects ${dim}`);
      flat.set(v, i * dim);
      valid[i >> 3]! |= 1 << (i & 7);
    } else nullCount++;
  }
  const child = makeData({ type: type.children[0]!.type, length: n * dim, data: flat });
  return makeVector(makeData({ type, length: n, nullCount, nullBitmap: nullCount ? valid : undefined, child }));
}

export function documentsToArrow(docs: Document[], normUrl: (u: string) => string): Table {
  const schema = documentSchema();
  return new Table(schema, {
    id: utf8Vector(docs.map((d) => d.id)),
    title: utf8Vector(docs.map((d) => d.title)),
    title_key: utf8Vector(docs.map((d) => titleKey(d.title))),
    url: utf8Vector(docs.map((d) => d.url ?? null)),
    norm_url: utf8Vector(docs.map((d) => (d.url ? normUrl(d.url) : null))),
    sentences: utf8ListVector(docs.map((d) => d.sentences), schema.fields[5]!.type as List<Utf8>),
    links: utf8ListVector(docs.map((d) => d.links ?? []), schema.fields[6]!.type as List<Utf8>),
  } as never);
}
