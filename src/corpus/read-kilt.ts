/**
 * KILT knowledge source (kilt_knowledgesource.json, one Wikipedia page per line):
 * `{wikipedia_id, wikipedia_title, text: string[], anchors?, wikipedia_url?, history?: {url}}`.
 *
 * `text` holds paragraphs, the first one being the title, so the body is split into sentences later.
 * KILT's layout markers are removed ("Section::::History." -> "History.", "BULLET::::- item" -> "item").
 * Anchors' target titles become the document's links.
 */
import { FieldError, idField, optionalString, stringArrayField, stringField, type JsonObject } from './fields.js';
import { readJsonRecords } from './read-json-records.js';
import type { RawDocument, ReadOptions, ReadResult } from './types.js';

export async function* readKilt(path: string, opts?: ReadOptions): AsyncGenerator<ReadResult> {
  yield* readJsonRecords(path, opts, kiltToDocument);
}

export function kiltToDocument(r: JsonObject): RawDocument {
  const id = idField(r, 'wikipedia_id');
  const title = stringField(r, 'wikipedia_title');
  const paragraphs = stringArrayField(r, 'text');
  // KILT always repeats the title as paragraph 0; the check only guards against a source that does not.
  const body = paragraphs.length > 0 && paragraphs[0]!.trim() === title.trim() ? paragraphs.slice(1) : paragraphs;
  const doc: RawDocument = { id, title, text: body.map(cleanParagraph).filter((p) => p.length > 0).join('\n\n') };
  const url = optionalString(r, 'wikipedia_url') ?? historyUrl(r);
  if (url !== undefined) doc.url = url;
  const links = anchorTitles(r);
  if (links.length) doc.links = links;
  return doc;
}

function cleanParagraph(p: string): string {
  const t = p.trim();
  if (t.startsWith('Section::::')) {
    const parts = t.slice('Section::::'.length).split(':::'); // nested sections: "Career.:::Film."
    return parts[parts.length - 1]!.trim();
  }
  if (t.startsWith('BULLET::::')) return t.slice('BULLET::::'.length).replace(/^[-*]\s*/, '');
  return t;
}

function historyUrl(r: JsonObject): string | undefined {
  const h = r['history'];
  if (h === undefined || h === null) return undefined;
  if (typeof h !== 'object' || Array.isArray(h)) throw new FieldError('history', 'expected an object');
  const url = (h as JsonObject)['url'];
  if (url === undefined || url === null) return undefined;
  if (typeof url !== 'string') throw new FieldError('history.url', 'expected a string');
  return url;
}

/** Link targets, leniently: anchors are extra information, a malformed one is ignored, not an error. */
function anchorTitles(r: JsonObject): string[] {
  const anchors = r['anchors'];
  if (!Array.isArray(anchors)) return [];
  const seen = new Set<string>();
  for (const a of anchors) {
    if (a === null || typeof a !== 'object') continue;
    const t = (a as JsonObject)['wikipedia_title'] ?? decodeHref((a as JsonObject)['href']);
    if (typeof t === 'string' && t.length > 0) seen.add(t);
  }
  return [...seen];
}

function decodeHref(href: unknown): string | undefined {
  if (typeof href !== 'string') return undefined;
  try {
    return decodeURIComponent(href).replace(/_/g, ' ');
  } catch {
    return href;
  }
}
