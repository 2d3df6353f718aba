/**
 * WiCE pooled retrieval corpus: `{doc_id, title, sentences: string[]}`. Sentences are kept exactly: WiCE's
 * supporting sentence ids index into them.
 */
import { idField, optionalString, stringArrayField, stringField, type JsonObject } from './fields.js';
import { readJsonRecords } from './read-json-records.js';
import type { RawDocument, ReadOptions, ReadResult } from './types.js';

export async function* readWice(path: string, opts?: ReadOptions): AsyncGenerator<ReadResult> {
  yield* readJsonRecords(path, opts, wiceToDocument);
}

export function wiceToDocument(r: JsonObject): RawDocument {
  const doc: RawDocument = { id: idField(r, 'doc_id'), title: stringField(r, 'title'), sentences: stringArrayField(r, 'sentences') };
  const url = optionalString(r, 'url');
  if (url !== undefined) doc.url = url;
  return doc;
}
