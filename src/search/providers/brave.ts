/**
 * Brave Search's web search API (`GET /res/v1/web/search?q=...&count=n&extra_snippets=true`, key in the
 * X-Subscription-Token header, read only from the environment: BRAVE_SEARCH_API_KEY). web.results[]: title,
 * url, description (a snippet), extra_snippets (up to 5 more, only when asked for). `count` is at most 20.
 * Documented: https://api-dashboard.search.brave.com/app/documentation/web-search/query,
 * https://api-dashboard.search.brave.com/app/documentation/web-search/responses.
 */
import { z } from 'zod';
import { plainText } from '../../sources/markup-text.js';
import { checked, failureText, results, text } from '../answer-check.js';
import { BRAVE_KEY_ENV } from '../search-api-bases.js';
import type { ReaderContext, SearchHit, SearchProvider } from '../types.js';

/** Brave's largest page of web results. */
export const BRAVE_MAX_COUNT = 20;

const answer = z.object({
  web: z.object({ results: results(z.object({ url: text(), title: text(), description: text(), extra_snippets: z.array(z.string().max(10_000)).max(20).nullish(), page_age: text() })).nullish() }).nullish(),
});

/** The web search answer as hits: checked, markup stripped (run in the answer worker). */
export function readBraveWeb(a: unknown, _meta: unknown, { query, limit }: ReaderContext): SearchHit[] {
  const j = checked(answer, a);
  return (j.web?.results ?? [])
    .filter((r) => r.url && /^https?:/i.test(r.url) && r.title)
    .slice(0, limit)
    .map((r, i): SearchHit => {
      const snippet = [r.description, ...(r.extra_snippets ?? [])].filter((s): s is string => !!s).map(plainText).filter(Boolean).join(' ');
      return { provider: 'brave', query, rank: i + 1, url: r.url!, title: plainText(r.title), ...(snippet ? { text: snippet, textKind: 'snippet' as const } : {}), ...(r.page_age ? { date: r.page_age.slice(0, 10) } : {}) };
    });
}

export const brave: SearchProvider = {
  name: 'brave',
  async search(query, limit, req) {
    const key = process.env[BRAVE_KEY_ENV];
    if (!key) throw new Error(`no API key: set ${BRAVE_KEY_ENV} in the environment`);
    const u = new URL(`${req.base('brave')}/web/search`);
    u.searchParams.set('q', query);
    u.searchParams.set('count', String(Math.max(1, Math.min(limit, BRAVE_MAX_COUNT))));
    u.searchParams.set('extra_snippets', 'true');
    return req.json<SearchHit[]>('brave', u.href, 'brave.web', { query, limit }, {
      headers: { 'x-subscription-token': key },
      explain: (res) =>
        res.httpStatus === 401 || res.httpStatus === 403 || res.httpStatus === 422
          ? `${failureText(res)}: the key in ${BRAVE_KEY_ENV} was refused (check it at https://api-dashboard.search.brave.com)`
          : res.httpStatus === 429
            ? `${failureText(res)}: the plan's rate or monthly quota is spent (--api-interval spaces requests; the free plan allows 1 a second)`
            : undefined,
    });
  },
};
