/**
 * Crossref bibliographic query (`GET /works?query.bibliographic=...&rows=n`): DOI, title, container, date,
 * authors, and the JATS abstract when the publisher deposited one (many do not: such a hit is read from its
 * landing page). Documented shape: https://api.crossref.org/swagger-ui/index.html (Works),
 * https://github.com/CrossRef/rest-api-doc/blob/master/api_format.md.
 */
import { markupText } from '../../sources/work-records.js';
import { parseJson } from '../search-client.js';
import type { SearchHit, SearchProvider } from '../types.js';

interface Item {
  DOI?: string;
  URL?: string;
  title?: string[];
  abstract?: string;
  'container-title'?: string[];
  publisher?: string;
  issued?: { 'date-parts'?: (number | null)[][] };
  author?: { given?: string; family?: string; name?: string }[];
}

export const crossref: SearchProvider = {
  name: 'crossref',
  async search(query, limit, req) {
    const u = new URL(`${req.base('crossref')}/works`);
    u.searchParams.set('query.bibliographic', query);
    u.searchParams.set('rows', String(limit));
    if (req.email) u.searchParams.set('mailto', req.email);
    const j = parseJson<{ status?: string; message?: { items?: Item[] } }>(await req.get('crossref', u.href));
    if (j.status !== 'ok' || !j.message) throw new Error(`unexpected answer: status ${j.status ?? 'missing'}`);
    return (j.message.items ?? []).slice(0, limit).flatMap((it, i): SearchHit[] => {
      const title = markupText(it.title?.[0] ?? '');
      if (!it.DOI || !title) return [];
      const hit: SearchHit = { provider: 'crossref', query, rank: i + 1, url: `https://doi.org/${it.DOI}`, title, doi: it.DOI };
      const text = it.abstract ? markupText(it.abstract) : '';
      if (text) Object.assign(hit, { text, textKind: 'abstract' });
      const journal = it['container-title']?.[0];
      if (journal) hit.journal = journal;
      if (it.publisher) hit.publisher = it.publisher;
      const parts = (it.issued?.['date-parts']?.[0] ?? []).filter((x): x is number => typeof x === 'number');
      if (parts.length) hit.date = parts.map((p, k) => (k ? String(p).padStart(2, '0') : String(p))).join('-');
      const authors = (it.author ?? []).map((a) => a.name ?? [a.given, a.family].filter(Boolean).join(' ')).filter(Boolean);
      if (authors.length) hit.authors = authors;
      return [hit];
    });
  },
};
