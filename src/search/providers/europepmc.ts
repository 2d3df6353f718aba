/**
 * Europe PMC search (`GET /search?query=...&resultType=core&format=json`): title, abstract, journal, DOI,
 * PubMed / PMC ids, and whether the open-access full text is there (read by collect.ts through the metadata
 * reader, sources/work-records.ts). Documented shape: https://europepmc.org/RestfulWebService (search).
 *
 * The query is Europe PMC's own syntax (https://europepmc.org/searchsyntax: fields `TITLE:`, operators AND /
 * OR / NOT, quotes, brackets, wildcards), and its terms are ANDed: a raw sentence finds nothing, and its
 * colons or brackets are read as syntax. So the query is the claim's key terms, each quoted as a phrase (no
 * character of it is syntax), at most MAX_TERMS of them.
 */
import { z } from 'zod';
import { markupText } from '../../sources/markup-text.js';
import { contentTokens } from '../../text/tfidf.js';
import { checked, results, text } from '../answer-check.js';
import type { ReaderContext, SearchHit, SearchProvider } from '../types.js';

const result = z.object({
  id: text(),
  source: text(),
  pmid: text(),
  pmcid: text(),
  doi: text(),
  title: text(),
  authorString: text(),
  journalInfo: z.object({ journal: z.object({ title: text() }).nullish() }).nullish(),
  journalTitle: text(),
  pubYear: text(),
  firstPublicationDate: text(),
  abstractText: text(),
  isOpenAccess: text(),
});

const answer = z.object({ resultList: z.object({ result: results(result).nullish() }) });

/** Terms ANDed: more than a few and no paper has them all. */
const MAX_TERMS = 6;

/** The claim's key terms as a Europe PMC query: each a quoted phrase, nothing left for the parser to read as syntax. */
export function europePmcQuery(query: string): string {
  const words = query.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const w of words) {
    const k = w.toLowerCase();
    if (seen.has(k) || contentTokens(w).length === 0) continue;
    seen.add(k);
    terms.push(`"${w.replace(/["\\]/g, '')}"`);
    if (terms.length >= MAX_TERMS) break;
  }
  return terms.join(' ') || `"${query.replace(/["\\]/g, '').slice(0, 200)}"`;
}

/** The search answer as hits: checked, markup stripped (run in the answer worker). */
export function readEuropePmcSearch(a: unknown, _meta: unknown, { query, limit }: ReaderContext): SearchHit[] {
  const o = a as { errMsg?: unknown } | null;
  if (o && typeof o === 'object' && typeof o.errMsg === 'string') throw new Error(`the API answered an error: ${o.errMsg.slice(0, 300)}`);
  const j = checked(answer, a);
  return (j.resultList.result ?? []).slice(0, limit).flatMap((r, i): SearchHit[] => {
    const title = markupText(r.title ?? '').replace(/\.$/, '');
    const url = r.doi ? `https://doi.org/${r.doi}` : r.pmcid ? `https://europepmc.org/article/PMC/${r.pmcid}` : r.pmid ? `https://pubmed.ncbi.nlm.nih.gov/${r.pmid}/` : undefined;
    if (!title || !url) return [];
    const hit: SearchHit = { provider: 'europepmc', query, rank: i + 1, url, title };
    const abstract = markupText(r.abstractText ?? '');
    if (abstract) Object.assign(hit, { text: abstract, textKind: 'abstract' });
    if (r.doi) hit.doi = r.doi;
    if (r.pmid) hit.pmid = r.pmid;
    if (r.pmcid) hit.pmcid = r.pmcid;
    if (r.isOpenAccess === 'Y') hit.openAccess = true;
    const journal = r.journalInfo?.journal?.title ?? r.journalTitle;
    if (journal) hit.journal = journal;
    const date = r.firstPublicationDate ?? r.pubYear;
    if (date) hit.date = date;
    if (r.authorString) hit.authors = r.authorString.replace(/\.$/, '').split(/,\s*/).filter(Boolean);
    return [hit];
  });
}

export const europepmc: SearchProvider = {
  name: 'europepmc',
  async search(query, limit, req) {
    const u = new URL(`${req.base('europepmc')}/search`);
    u.searchParams.set('query', europePmcQuery(query));
    u.searchParams.set('resultType', 'core');
    u.searchParams.set('format', 'json');
    u.searchParams.set('pageSize', String(Math.min(limit, 1000)));
    if (req.email) u.searchParams.set('email', req.email);
    return req.json<SearchHit[]>('europepmc', u.href, 'europepmc.search', { query, limit });
  },
};
