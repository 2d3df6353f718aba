/**
 * CirrusSearch dump (`*-cirrussearch-content.json.gz`): Elasticsearch bulk format, an action line
 * (`{"index":{"_id":"12"}}`) before each document line (`{namespace, title, text, wiki, language,
 * template, category, redirect, outgoing_link, ...}`). The text is already plain prose (one line, no
 * paragraph breaks), so no wikitext parser is needed.
 *
 * Main namespace only; pages transcluding a disambiguation template are reported through `onPage` and not
 * yielded. The content dump holds no redirect pages: each article lists the redirects to it
 * (`redirect`), which are reported as redirects. `skip` counts yielded records (articles and bad lines).
 */
import { stat } from 'node:fs/promises';
import { boundedLines } from './bounded-lines.js';
import { openDecompressed } from './decompress.js';
import { DEFAULT_MAX_PAGE_BYTES, PAGE_BUDGET_FLAG } from './page-budget.js';
import { FieldError, optionalStringArray, parseObject, stringField, type JsonObject } from './fields.js';
import { RecordError, type RawDocument, type ReadOptions, type ReadResult } from './types.js';
import { CIRRUS_FILE, dumpFiles, isDisambiguationTemplate, langOfDbName, pageUrl, wikipediaBase, wikiPageId } from './wiki-pages.js';

export function cirrusFiles(path: string): Promise<string[]> {
  return dumpFiles(path, CIRRUS_FILE, 'CirrusSearch (.json, .json.gz)');
}

export async function* readCirrus(path: string, opts: ReadOptions = {}): AsyncGenerator<ReadResult> {
  let toSkip = opts.skip ?? 0;
  const files = await cirrusFiles(path);
  const sizes: number[] = [];
  for (const file of files) sizes.push((await stat(file)).size);
  const total = sizes.reduce((a, b) => a + b, 0);
  let before = 0;
  for (const [fileIndex, file] of files.entries()) {
    const { stream } = await openDecompressed(file, opts.onBytes ? (read) => opts.onBytes!(before + read, total) : undefined);
    // The bulk action line that announced the next document (its _id is the page id; the title is the key).
    let action: { line: number } | undefined;
    // A document line is one page: held only up to the page budget (a larger one is named and skipped).
    const maxLine = opts.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
    for await (const l of boundedLines(stream, maxLine)) {
      const line = l.line;
      if ('overBytes' in l) {
        action = undefined;
        if (toSkip > 0) toSkip--;
        else yield { ok: false, error: new RecordError(file, line, 'line', `a line of ${(l.overBytes / 1024 / 1024).toFixed(1)} MB, over the page budget of ${(maxLine / 1024 / 1024).toFixed(0)} MB: not read (raise it with ${PAGE_BUDGET_FLAG} if the page is genuine)`) };
        continue;
      }
      const text = l.text;
      if (!text.trim()) continue;
      let obj: JsonObject;
      try {
        obj = parseObject(text);
      } catch (e) {
        action = undefined;
        if (!(e instanceof FieldError)) throw e;
        if (toSkip > 0) toSkip--;
        else yield { ok: false, error: new RecordError(file, line, e.field, e.problem) };
        continue;
      }
      if (!action) {
        const index = obj['index'];
        if (index && typeof index === 'object' && !Array.isArray(index)) {
          action = { line };
          continue;
        }
        // A document line without its action line: read it anyway (some tools strip the action lines).
      }
      action = undefined;
      const r = cirrusRecord(file, line, obj, opts, toSkip === 0);
      if (!r) continue;
      if (toSkip > 0) {
        toSkip--;
        continue;
      }
      yield r;
    }
    before += sizes[fileIndex]!;
  }
}

function cirrusRecord(file: string, line: number, obj: JsonObject, opts: ReadOptions, build: boolean): ReadResult | undefined {
  const loc = { file, line };
  try {
    const namespace = obj['namespace'];
    if (namespace !== undefined && namespace !== 0 && namespace !== '0') return undefined;
    const title = stringField(obj, 'title');
    const id = wikiPageId(title);
    const lang = opts.lang ?? (typeof obj['wiki'] === 'string' ? langOfDbName(obj['wiki']) : undefined) ?? (typeof obj['language'] === 'string' ? obj['language'] : undefined);
    const base = lang ? wikipediaBase(lang) : undefined;
    const event = { id, title, loc, ...(base ? { wikiBase: base } : {}), ...(build ? {} : { resumed: true }) };
    for (const r of redirectsOf(obj)) opts.onPage?.({ ...event, id: wikiPageId(r), title: r, kind: 'redirect', target: title });
    const templates = optionalStringArray(obj, 'template') ?? [];
    if (templates.some(isDisambiguationTemplate)) {
      opts.onPage?.({ ...event, kind: 'disambiguation', redirectsListed: true });
      return undefined;
    }
    opts.onPage?.({ ...event, kind: 'article', redirectsListed: true });
    if (!build) return { ok: true, doc: { id, title }, loc };
    const doc: RawDocument = { id, title, text: stringField(obj, 'text') };
    if (base) doc.url = pageUrl(base, id);
    const links = (optionalStringArray(obj, 'outgoing_link') ?? []).map(wikiPageId);
    if (links.length) doc.links = [...new Set(links)];
    return { ok: true, doc, loc };
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return { ok: false, error: new RecordError(file, line, e.field, e.problem) };
  }
}

/** Titles of the main-namespace redirects to a page (`redirect: [{namespace, title}]`); malformed entries are ignored. */
function redirectsOf(obj: JsonObject): string[] {
  const r = obj['redirect'];
  if (!Array.isArray(r)) return [];
  const out: string[] = [];
  for (const x of r) {
    if (!x || typeof x !== 'object') continue;
    const ns = (x as JsonObject)['namespace'];
    const t = (x as JsonObject)['title'];
    if ((ns === 0 || ns === undefined) && typeof t === 'string' && t) out.push(t);
  }
  return out;
}
