/**
 * Europe PMC search (`GET /search?query=...&resultType=core&format=json`): title, abstract, journal, DOI,
 * PubMed / PMC ids, and whether the open-access full text is there (read by collect.ts through the metadata
 * reader, sources/work-records.ts). Documented shape: https://europepmc.org/RestfulWebService (search).
 */
import { markupText } from '../../sources/work-records.js';
import { parseJson } from '../search-client.js';
import type { SearchHit, SearchProvider } from '../types.js';

interface Result {
  id?: string;
  source?: string;
  pmid?: string;
  pmcid?: string;
  doi?: string;
  title?: string;
  authorString?: string;
  journalInfo?: { journal?: { title?: string } };
  journalTitle?: string;
  pubYear?: string;
  firstPublicationDate?: string;
  abstractText?: string;
  isOpenAccess?: string;
}

export const europepmc: SearchProvider = {
  name: 'europepmc',
  async search(query, limit, req) {
    const u = new URL(`${req.base('europepmc')}/search`);
    u.searchParams.set('query', query);
    u.searchParams.set('resultType', 'core');
    u.searchParams.set('format', 'json');
    u.searchParams.set('pageSize', String(limit));
    if (req.email) u.searchParams.set('email', req.email);
    const j = parseJson<{ resultList?: { result?: Result[] } }>(await req.get('europepmc', u.href));
    if (!j.resultList) throw new Error('unexpected answer: no resultList');
    return (j.resultList.result ?? []).slice(0, limit).flatMap((r, i): SearchHit[] => {
      const title = markupText(r.title ?? '').replace(/\.$/, '');
      const url = r.doi ? `https://doi.org/${r.doi}` : r.pmcid ? `https://europepmc.org/article/PMC/${r.pmcid}` : r.pmid ? `https://pubmed.ncbi.nlm.nih.gov/${r.pmid}/` : undefined;
      if (!title || !url) return [];
      const hit: SearchHit = { provider: 'europepmc', query, rank: i + 1, url, title };
      const text = markupText(r.abstractText ?? '');
      if (text) Object.assign(hit, { text, textKind: 'abstract' });
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
  },
};
