/**
 * A self-hosted SearXNG (`GET /search?q=...&format=json`; the JSON format must be enabled in the instance's
 * settings.yml `search.formats`, else the instance answers 403: https://docs.searxng.org/dev/search_api.html):
 * url, title, content (a snippet) per result.
 *
 * Its limiter (on by default in searxng-docker; https://docs.searxng.org/src/searx.botdetection.html) takes a
 * request whose Accept lacks text/html, or that has no Accept-Language, for a bot: both are sent. An answer
 * with no results and every engine in `unresponsive_engines` is the engines' outage, not "nothing found":
 * a failure, never cached.
 */
import { z } from 'zod';
import { plainText } from '../../sources/markup-text.js';
import { checked, failureText, results, text } from '../answer-check.js';
import type { ReaderContext, SearchHit, SearchProvider } from '../types.js';

const answer = z.object({
  results: results(z.object({ url: text(), title: text(), content: text(), publishedDate: text() })),
  unresponsive_engines: z.array(z.array(z.string().max(500).nullable()).max(4)).max(500).nullish(),
});

/** Headers the limiter's bot detection lets through (a browser's Accept, a language). */
export const SEARXNG_HEADERS = { accept: 'application/json, text/html;q=0.9, */*;q=0.5', 'accept-language': 'en-GB,en;q=0.8' } as const;

/** The search answer as hits: checked, every-engine-down refused, markup stripped (run in the answer worker). */
export function readSearxngSearch(a: unknown, _meta: unknown, { query, limit }: ReaderContext): SearchHit[] {
  const r = checked(answer, a);
  const down = (r.unresponsive_engines ?? []).map((e) => `${e[0] ?? '?'}${e[1] ? ` (${e[1]})` : ''}`);
  if (r.results.length === 0 && down.length) throw new Error(`every engine failed on the instance: ${down.slice(0, 5).join(', ')}${down.length > 5 ? ` and ${down.length - 5} more` : ''}; try again later`);
  return r.results
    .filter((r) => r.url && /^https?:/i.test(r.url) && r.title)
    .slice(0, limit)
    .map((r, i): SearchHit => {
      const snippet = plainText(r.content);
      return { provider: 'searxng', query, rank: i + 1, url: r.url!, title: plainText(r.title), ...(snippet ? { text: snippet, textKind: 'snippet' as const } : {}), ...(r.publishedDate ? { date: r.publishedDate.slice(0, 10) } : {}) };
    });
}

export const searxng: SearchProvider = {
  name: 'searxng',
  async search(query, limit, req) {
    const base = req.base('searxng');
    if (!base) throw new Error('no instance set: give its address with --api-base searxng=https://your.searx.instance');
    const u = new URL(`${base}/search`);
    u.searchParams.set('q', query);
    u.searchParams.set('format', 'json');
    return req.json(
      'searxng',
      u.href,
      'searxng.search',
      { query, limit },
      {
        accept: SEARXNG_HEADERS.accept,
        headers: { 'accept-language': SEARXNG_HEADERS['accept-language'] },
        explain: (res) =>
          res.httpStatus === 403
            ? `${failureText(res)}: the instance refuses JSON answers: add json to search.formats in its settings.yml (https://docs.searxng.org/admin/settings/settings_search.html), or, if it is on, its limiter blocked this client (pass this address in limiter.toml)`
            : res.httpStatus === 429
              ? `${failureText(res)}: the instance's limiter is rate-limiting this client: space the requests (--api-interval) or pass this address in its limiter.toml`
              : undefined,
      },
    );
  },
};
