/**
 * A self-hosted SearXNG (`GET /search?q=...&format=json`; the JSON format must be enabled in the instance's
 * settings.yml `search.formats`): url, title, content (a snippet) per result. Documented shape:
 * https://docs.searxng.org/dev/search_api.html.
 */
import { parseJson } from '../search-client.js';
import type { SearchHit, SearchProvider } from '../types.js';

interface Answer {
  results?: { url?: string; title?: string; content?: string; publishedDate?: string | null }[];
  unresponsive_engines?: [string, string][];
}

export const searxng: SearchProvider = {
  name: 'searxng',
  async search(query, limit, req) {
    const base = req.base('searxng');
    if (!base) throw new Error('no instance set: give its address with --api-base searxng=https://your.searx.instance');
    const u = new URL(`${base}/search`);
    u.searchParams.set('q', query);
    u.searchParams.set('format', 'json');
    const j = parseJson<Answer>(await req.get('searxng', u.href));
    if (!Array.isArray(j.results)) throw new Error('unexpected answer: no results list (is format=json enabled on the instance?)');
    return j.results
      .filter((r) => r.url && /^https?:/i.test(r.url) && r.title)
      .slice(0, limit)
      .map((r, i): SearchHit => ({ provider: 'searxng', query, rank: i + 1, url: r.url!, title: r.title!.trim(), ...(r.content ? { text: r.content.trim(), textKind: 'snippet' as const } : {}), ...(r.publishedDate ? { date: r.publishedDate.slice(0, 10) } : {}) }));
  },
};
