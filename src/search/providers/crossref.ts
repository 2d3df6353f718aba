/**
 * Crossref bibliographic query (`GET /works?query.bibliographic=...&rows=n`): DOI, title, container, date,
 * authors, and the JATS abstract when the publisher deposited one (many do not: such a hit is read from its
 * landing page). Documented shape: https://api.crossref.org/swagger-ui/index.html (Works),
 * https://github.com/CrossRef/rest-api-doc/blob/master/api_format.md. An error is `{"status":"failed",
 * "message-type":"validation-failure", "message":[...]}` (https://github.com/CrossRef/rest-api-doc#errors).
 */
import { z } from 'zod';
import { markupText } from '../../sources/markup-text.js';
import { checked, results, text } from '../answer-check.js';
import type { ReaderContext, SearchHit, SearchProvider } from '../types.js';

const strings = () => z.array(z.string().max(10_000)).max(50).nullish();

const item = z.object({
  DOI: text(),
  URL: text(),
  title: strings(),
  abstract: text(),
  'container-title': strings(),
  publisher: text(),
  issued: z.object({ 'date-parts': z.array(z.array(z.number().int().nullable()).max(3)).max(3).nullish() }).nullish(),
  author: z.array(z.object({ given: text(), family: text(), name: text() })).max(5000).nullish(),
});

const answer = z.object({ status: z.literal('ok'), message: z.object({ items: results(item).nullish() }) });

/** The works query answer as hits: checked, markup stripped (run in the answer worker). */
export function readCrossrefWorks(a: unknown, _meta: unknown, { query, limit }: ReaderContext): SearchHit[] {
  const o = a as { status?: unknown; message?: unknown } | null;
  if (o && typeof o === 'object' && o.status !== 'ok') {
    const first = Array.isArray(o.message) ? (o.message[0] as { message?: unknown } | undefined)?.message : undefined;
    throw new Error(`the API answered an error: status ${String(o.status ?? 'missing')}${typeof first === 'string' ? ` (${first.slice(0, 300)})` : ''}`);
  }
  const j = checked(answer, a);
  return (j.message.items ?? []).slice(0, limit).flatMap((it, i): SearchHit[] => {
    const title = markupText(it.title?.[0] ?? '');
    if (!it.DOI || !title) return [];
    const hit: SearchHit = { provider: 'crossref', query, rank: i + 1, url: `https://doi.org/${it.DOI}`, title, doi: it.DOI };
    const abstract = it.abstract ? markupText(it.abstract) : '';
    if (abstract) Object.assign(hit, { text: abstract, textKind: 'abstract' });
    const journal = it['container-title']?.[0];
    if (journal) hit.journal = journal;
    if (it.publisher) hit.publisher = it.publisher;
    const parts = (it.issued?.['date-parts']?.[0] ?? []).filter((x): x is number => typeof x === 'number');
    if (parts.length) hit.date = parts.map((p, k) => (k ? String(p).padStart(2, '0') : String(p))).join('-');
    const authors = (it.author ?? []).map((a) => a.name ?? [a.given, a.family].filter(Boolean).join(' ')).filter(Boolean);
    if (authors.length) hit.authors = authors;
    return [hit];
  });
}

export const crossref: SearchProvider = {
  name: 'crossref',
  async search(query, limit, req) {
    const u = new URL(`${req.base('crossref')}/works`);
    u.searchParams.set('query.bibliographic', query);
    u.searchParams.set('rows', String(Math.min(limit, 1000)));
    if (req.email) u.searchParams.set('mailto', req.email);
    return req.json<SearchHit[]>('crossref', u.href, 'crossref.works', { query, limit });
  },
};
