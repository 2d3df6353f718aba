/**
 * SciFact corpus.jsonl: `{doc_id, title, abstract: string[], structured}`. The abstract's sentence list is
 * kept exactly: SciFact's rationale sentence ids index into it.
 */
import { idField, stringArrayField, stringField, type JsonObject } from './fields.js';
import { readJsonRecords } from './read-json-records.js';
import type { RawDocument, ReadOptions, ReadResult } from './types.js';

export async function* readScifact(path: string, opts?: ReadOptions): AsyncGenerator<ReadResult> {
  yield* readJsonRecords(path, opts, scifactToDocument);
}

export function scifactToDocument(r: JsonObject): RawDocument {
  return { id: idField(r, 'doc_id'), title: stringField(r, 'title'), sentences: stringArrayField(r, 'abstract') };
}
