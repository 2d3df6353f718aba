/**
 * Generic JSONL: one document per line, `{id, title, text | sentences, url?, links?}`. `id` may be a
 * string or an integer; when both `text` and `sentences` are present the given sentences win.
 */
import { FieldError, idField, optionalString, optionalStringArray, stringField, type JsonObject } from './fields.js';
import { readJsonRecords } from './read-json-records.js';
import type { RawDocument, ReadOptions, ReadResult } from './types.js';

export async function* readJsonl(path: string, opts?: ReadOptions): AsyncGenerator<ReadResult> {
  yield* readJsonRecords(path, opts, jsonlToDocument);
}

export function jsonlToDocument(r: JsonObject): RawDocument {
  const doc: RawDocument = { id: idField(r, 'id'), title: stringField(r, 'title') };
  const sentences = optionalStringArray(r, 'sentences');
  if (sentences) doc.sentences = sentences;
  else {
    const text = optionalString(r, 'text');
    if (text === undefined) throw new FieldError('text', 'missing: give "text" or "sentences"');
    doc.text = text;
  }
  const url = optionalString(r, 'url');
  if (url !== undefined) doc.url = url;
  const links = optionalStringArray(r, 'links');
  if (links) doc.links = links;
  return doc;
}
