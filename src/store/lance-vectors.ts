/**
 * LanceDB side of adding vectors to an existing index (dense-backfill.ts): the vector column, the passages
 * still without a vector, and writing vectors into existing rows.
 */
import { createRequire } from 'node:module';
import type * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Schema, Table, Utf8 } from 'apache-arrow';
import type { Passage } from '../corpus/types.js';
import { fixedSizeVectors, passageReader, utf8Vector } from './arrow-batch.js';

/**
 * LanceDB's addColumns recognises a Field with `instanceof` against the CommonJS build of apache-arrow
 * that it requires; this ESM module's `import` gets the ESM build, a different class, and addColumns
 * threw "Invalid input type" (adding vectors to a BM25-only index failed). Build the field from the
 * CommonJS instance LanceDB uses.
 */
const arrowCjs = createRequire(import.meta.url)('apache-arrow') as typeof import('apache-arrow');

export function vectorColumnField(dimension: number): Field {
  return new arrowCjs.Field('vector', new arrowCjs.FixedSizeList(dimension, new arrowCjs.Field('item', new arrowCjs.Float32(), true)), true) as unknown as Field;
}

const COLUMNS = ['id', 'doc_id', 'title', 'idx', 'sent_start', 'sent_end', 'text'];

/** Passages whose vector is null, streamed from one table version, in batches of `batchSize`. */
export async function* lancePassagesWithoutVectors(table: lancedb.Table, batchSize: number): AsyncIterable<Passage[]> {
  let out: Passage[] = [];
  for await (const batch of table.query().where('vector IS NULL').select(COLUMNS)) {
    const passage = passageReader(batch);
    for (let i = 0; i < batch.numRows; i++) {
      out.push(passage(i));
      if (out.length >= batchSize) {
        yield out;
        out = [];
      }
    }
  }
  if (out.length) yield out;
}

/**
 * Writes vectors into existing rows: one merge-insert on `id` with only the id and vector columns (the
 * text is not rewritten), one atomic commit. Ids not in the table are ignored.
 */
export async function lanceSetPassageVectors(table: lancedb.Table, dimension: number, items: { passage: Passage; vector: Float32Array }[]): Promise<void> {
  if (items.length === 0) return;
  const type = new FixedSizeList(dimension, new Field('item', new Float32(), true));
  const schema = new Schema([new Field('id', new Utf8(), false), new Field('vector', type, true)]);
  const data = new Table(schema, {
    id: utf8Vector(items.map((i) => i.passage.id)),
    vector: fixedSizeVectors(type, items.length, items.map((i) => i.vector)),
  } as never);
  await table.mergeInsert('id').whenMatchedUpdateAll().execute(data);
}
