/**
 * OpenAlex works search (`GET /works?search=...`): title, DOI, venue, authors, and the abstract, which
 * OpenAlex gives as an inverted index (word -> positions). Documented shape:
 * https://docs.openalex.org/api-entities/works/search-works, https://docs.openalex.org/api-entities/works/work-object.
 *
 * Since 13 February 2026 the API wants a key (`api_key=`, free at https://openalex.org/settings/api); without
 * one a few searches a day are allowed, then 429 (403 when requests come too fast:
 * https://developers.openalex.org/api-reference/errors). The key is read only from OPENALEX_API_KEY, sent as
 * `api_key`, and never reaches a cache key, a cache file or a message (search-cache.ts, search-client.ts).
 */
import { z } from 'zod';
import { checked, failureText, MAX_ABSTRACT_WORDS, results, text } from '../answer-check.js';
import { OPENALEX_KEY_ENV } from '../search-api-bases.js';
import type { ApiResult } from '../../sources/api-fetch.js';
import type { ReaderContext, SearchHit, SearchProvider } from '../types.js';

/**
 * word -> positions, checked by hand in one pass that stops at the first fault: a position must be a whole
 * number below MAX_ABSTRACT_WORDS, and all positions together at most MAX_ABSTRACT_WORDS (the abstract's
 * length). A schema library walking 40,000 keys first held the server's event loop for 400 ms.
 */
const invertedIndex = z
  .unknown()
  .superRefine((v, ctx) => {
    if (v === null || v === undefined) return;
    if (typeof v !== 'object' || Array.isArray(v)) return void ctx.addIssue({ code: 'custom', message: 'expected an object of word -> positions' });
    let total = 0;
    for (const w in v) {
      const at = (v as Record<string, unknown>)[w];
      if (!Array.isArray(at)) return void ctx.addIssue({ code: 'custom', path: [w], message: 'expected a list of positions' });
      total += at.length;
      if (total > MAX_ABSTRACT_WORDS || w.length > 1000) return void ctx.addIssue({ code: 'custom', message: `more than ${MAX_ABSTRACT_WORDS} words in one abstract` });
      for (let i = 0; i < at.length; i++) {
        const p = at[i];
        if (typeof p !== 'number' || !Number.isInteger(p) || p < 0) return void ctx.addIssue({ code: 'custom', path: [w, i], message: 'a word position must be a whole number, not negative' });
        if (p >= MAX_ABSTRACT_WORDS) return void ctx.addIssue({ code: 'custom', path: [w, i], message: `a word position past the ${MAX_ABSTRACT_WORDS} words an abstract may have` });
      }
    }
  })
  .transform((v) => (v ?? undefined) as Record<string, number[]> | undefined);

const work = z.object({
  id: text(),
  doi: text(),
  title: text(),
  display_name: text(),
  publication_date: text(),
  publication_year: z.number().int().nullish(),
  abstract_inverted_index: invertedIndex,
  primary_location: z.object({ landing_page_url: text(), source: z.object({ display_name: text() }).nullish() }).nullish(),
  authorships: z.array(z.object({ author: z.object({ display_name: text() }).nullish() })).max(5000).nullish(),
  ids: z.object({ pmid: text(), pmcid: text() }).nullish(),
});

const answer = z.object({ results: results(work) });

/** The abstract from OpenAlex's inverted index (positions already bounded by the schema). */
export function invertedAbstract(index: Record<string, number[]> | null | undefined): string {
  const words: string[] = [];
  for (const [w, at] of Object.entries(index ?? {})) {
    for (const i of at) {
      // A hand-built index that slipped past the schema: never a sparse array of billions of slots.
      if (!Number.isInteger(i) || i < 0 || i >= MAX_ABSTRACT_WORDS) continue;
      words[i] = w;
    }
  }
  return words.filter((w) => w !== undefined).join(' ');
}

const bareDoi = (doi: string | null | undefined) => (doi ? doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '') : undefined);

/** 403 / 429: what OpenAlex means by them in 2026, and what to do. */
function explain(res: Extract<ApiResult, { ok: false }>): string | undefined {
  if (res.httpStatus !== 403 && res.httpStatus !== 429) return undefined;
  const hasKey = !!process.env[OPENALEX_KEY_ENV];
  const what = res.httpStatus === 429 ? 'its daily allowance is spent' : 'too many requests';
  return hasKey
    ? `${failureText(res)}: ${what} for this API key; wait until tomorrow (UTC) or see https://developers.openalex.org/api-reference/authentication`
    : `${failureText(res)}: OpenAlex needs an API key since 13 February 2026 (without one, a few searches a day): get a free one at https://openalex.org/settings/api and set ${OPENALEX_KEY_ENV}`;
}

/** The works search answer as hits: checked, the abstracts rebuilt (run in the answer worker, search/answer-pool.ts). */
export function readOpenAlexWorks(a: unknown, _meta: unknown, { query, limit }: ReaderContext): SearchHit[] {
  const o = a as { error?: unknown; message?: unknown } | null;
  if (o && typeof o === 'object' && !Array.isArray((o as { results?: unknown }).results) && (o.error || o.message)) throw new Error(`the API answered an error: ${String(o.message ?? o.error).slice(0, 300)}`);
  const j = checked(answer, a);
  return j.results.slice(0, limit).flatMap((w, i): SearchHit[] => {
    const doi = bareDoi(w.doi);
    const url = doi ? `https://doi.org/${doi}` : (w.primary_location?.landing_page_url ?? w.id);
    const title = (w.title ?? w.display_name ?? '').trim();
    if (!url || !title) return [];
    const abstract = invertedAbstract(w.abstract_inverted_index);
    const hit: SearchHit = { provider: 'openalex', query, rank: i + 1, url, title };
    if (abstract) Object.assign(hit, { text: abstract, textKind: 'abstract' });
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
}

export const openalex: SearchProvider = {
  name: 'openalex',
  async search(query, limit, req) {
    const u = new URL(`${req.base('openalex')}/works`);
    u.searchParams.set('search', query);
    u.searchParams.set('per-page', String(Math.min(limit, 200)));
    if (req.email) u.searchParams.set('mailto', req.email);
    const key = process.env[OPENALEX_KEY_ENV];
    if (key) u.searchParams.set('api_key', key);
    return req.json<SearchHit[]>('openalex', u.href, 'openalex.works', { query, limit }, { explain });
  },
};
