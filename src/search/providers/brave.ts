/**
 * Brave Search's web search API (`GET /res/v1/web/search?q=...&count=n`, key in the X-Subscription-Token
 * header, read only from the environment: BRAVE_SEARCH_API_KEY). web.results[]: title, url, description (a
 * snippet), extra_snippets. Documented shape: https://api-dashboard.search.brave.com/app/documentation/web-search/responses.
 */
import { BRAVE_KEY_ENV } from '../search-api-bases.js';
import { parseJson } from '../search-client.js';
import type { SearchHit, SearchProvider } from '../types.js';

interface Answer {
  web?: { results?: { url?: string; title?: string; description?: string; extra_snippets?: string[]; page_age?: string }[] };
}

const plain = (s: string) => s.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#39;/g, "'").trim();

export const brave: SearchProvider = {
  name: 'brave',
  async search(query, limit, req) {
    const key = process.env[BRAVE_KEY_ENV];
    if (!key) throw new Error(`no API key: set ${BRAVE_KEY_ENV} in the environment`);
    const u = new URL(`${req.base('brave')}/web/search`);
    u.searchParams.set('q', query);
    u.searchParams.set('count', String(limit));
    const j = parseJson<Answer>(await req.get('brave', u.href, { headers: { 'x-subscription-token': key } }));
    return (j.web?.results ?? [])
      .filter((r) => r.url && /^https?:/i.test(r.url) && r.title)
      .slice(0, limit)
      .map((r, i): SearchHit => {
        const text = [r.description, ...(r.extra_snippets ?? [])].filter((s): s is string => !!s).map(plain).join(' ');
        return { provider: 'brave', query, rank: i + 1, url: r.url!, title: plain(r.title!), ...(text ? { text, textKind: 'snippet' as const } : {}), ...(r.page_age ? { date: r.page_age.slice(0, 10) } : {}) };
      });
  },
};
