/**
 * FEVER wiki-pages: `{id, text, lines}` where `lines` holds one row per sentence,
 * `N<TAB>sentence<TAB>anchor1<TAB>target1<TAB>anchor2<TAB>target2...`, rows separated by "\n".
 *
 * Sentence N goes to index N exactly, and empty rows ("3\t") stay as "" so that FEVER's evidence
 * (page id, sentence number) keeps pointing at the right sentence. Hyperlinks come as (anchor text, target
 * page) pairs; the targets are collected, in order, without duplicates.
 */
import { FieldError, idField, stringField, type JsonObject } from './fields.js';
import { feverIdToTitle } from './fever-title.js';
import { readJsonRecords } from './read-json-records.js';
import type { RawDocument, ReadOptions, ReadResult } from './types.js';

export async function* readFever(path: string, opts?: ReadOptions): AsyncGenerator<ReadResult> {
  yield* readJsonRecords(path, opts, feverToDocument);
}

const ROW = /^(\d+)(?:\t|$)/;

export function feverToDocument(r: JsonObject): RawDocument {
  const id = idField(r, 'id');
  const lines = stringField(r, 'lines');
  const sentences: string[] = [];
  const links: string[] = [];
  const seen = new Set<string>();
  const rows = lines.split('\n');
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    if (row.length === 0) continue; // a trailing "\n"
    const m = ROW.exec(row);
    if (!m) throw new FieldError('lines', `row ${k + 1}: expected "<number>\\t<sentence>", found ${JSON.stringify(row.slice(0, 40))}`);
    const n = Number(m[1]);
    if (n < sentences.length) throw new FieldError('lines', `row ${k + 1}: sentence number ${n} repeats or goes backwards`);
    while (sentences.length < n) sentences.push(''); // a missing row still keeps later numbers aligned
    const cols = row.split('\t');
    sentences.push(cols[1] ?? '');
    for (let c = 3; c < cols.length; c += 2) {
      const target = cols[c]!;
      if (target && !seen.has(target)) {
        seen.add(target);
        links.push(target);
      }
    }
  }
  const doc: RawDocument = { id, title: feverIdToTitle(id), sentences };
  if (links.length) doc.links = links;
  return doc;
}
