/**
 * OpenAlex works search (`GET /works?search=...`): title, DOI, venue, authors, and the abstract, which
 * OpenAlex gives as an inverted index (word -> positions). Documented shape:
 * https://docs.openalex.org/api-entities/works/search-works, https://docs.openalex.org/api-entities/works/work-object.
 */
import { parseJson } from '../search-client.js';
import type { SearchHit, SearchProvider } from '../types.js';

interface Work {
  id?: string;
  doi?: string | null;
  title?: string | null;
  display_name?: string | null;
  publication_date?: string | null;
  publication_year?: number | null;
  abstract_inverted_index?: Record<string, number[]> | null;
  primary_location?: { landing_page_url?: string | null; source?: { display_name?: string | null; host_organization_name?: string | null } | null } | null;
  authorships?: { author?: { display_name?: string | null } }[];
  ids?: { pmid?: string; pmcid?: string };
}

/** The abstract from OpenAlex's inverted index. */
export function invertedAbstract(index: Record<string, number[]> | null | undefined): string {
  const words: string[] = [];
  for (const [w, at] of Object.entries(index ?? {})) for (const i of at) words[i] = w;
  return words.filter((w) => w !== undefined).join(' ');
}

const bareDoi = (doi: string | null | undefined) => (doi ? doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '') : undefined);

export const openalex: SearchProvider = {
  name: 'openalex',
  async search(query, limit, req) {
    const u = new URL(`${req.base('openalex')}/works`);
    u.searchParams.set('search', query);
    u.searchParams.set('per-page', String(limit));
    if (req.email) u.searchParams.set('mailto', req.email);
    const j = parseJson<{ results?: Work[]; error?: string; message?: string }>(await req.get('openalex', u.href));
    if (!Array.isArray(j.results)) throw new Error(`unexpected answer: ${j.message ?? j.error ?? 'no results list'}`);
    return j.results.slice(0, limit).flatMap((w, i): SearchHit[] => {
      const doi = bareDoi(w.doi);
      const url = doi ? `https://doi.org/${doi}` : (w.primary_location?.landing_page_url ?? w.id);
      const title = (w.title ?? w.display_name ?? '').trim();
      if (!url || !title) return [];
      const text = invertedAbstract(w.abstract_inverted_index);
      const hit: SearchHit = { provider: 'openalex', query, rank: i + 1, url, title };
      if (text) Object.assign(hit, { text, textKind: 'abstract' });
      if (doi) hit.doi = doi;
      const pmid = w.ids?.pmid?.replace(/^https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\//, '').replace(/\/$/, '');
      if (pmid) hit.pmid = pmid;
      const journal = w.primary_location?.source?.display_name;
      if (journal) hit.journal = journal;
      const date = w.publication_date ?? (w.publication_year ? String(w.publication_year) : undefined);
      if (date) hit.date = date;
      const authors = (w.authorships ?? []).map((a) => a.author?.display_name).filter((a): a is string => !!a);
      if (authors.length) hit.authors = authors;
      return [hit];
    });
  },
};
