/**
 * Wikipedia, any language edition: the MediaWiki action API's full-text search (`list=search`), then each
 * article's plain text through TextExtracts (`prop=extracts&explaintext`), one request per article. Results
 * name the article by its canonical URL (https://<lang>.wikipedia.org/wiki/<Title>) whatever mirror served
 * them. Documented shapes (formatversion=2): https://www.mediawiki.org/wiki/API:Search,
 * https://www.mediawiki.org/wiki/Extension:TextExtracts#API.
 *
 * MediaWiki reports errors in an HTTP 200 answer (`{"error":{"code":...}}`,
 * https://www.mediawiki.org/wiki/API:Errors_and_warnings): such an answer is a failure, never cached. Batch
 * runs send `maxlag=5` (https://www.mediawiki.org/wiki/Manual:Maxlag_parameter): a `maxlag` error, like
 * `ratelimited`, is waited out (its Retry-After, else at least 5 s) and asked again within the client's budget.
 */
import { z } from 'zod';
import { retryAfterMs } from '../../sources/api-fetch.js';
import { plainText } from '../../sources/markup-text.js';
import { AnswerError, checked, results, text } from '../answer-check.js';
import type { AnswerMeta, ReaderContext, SearchHit, SearchProvider, SearchRequester } from '../types.js';

const apiError = z.object({ code: z.string().max(200).nullish(), info: z.string().max(2000).nullish(), lag: z.number().nullish() }).passthrough();

const searchAnswer = z.object({
  error: apiError.nullish(),
  query: z.object({ search: results(z.object({ ns: z.number().nullish(), title: z.string().min(1).max(1000), pageid: z.number().nullish(), snippet: text() })).nullish() }).nullish(),
});

const extractAnswer = z.object({
  error: apiError.nullish(),
  query: z.object({ pages: z.array(z.object({ title: text(), extract: text(), missing: z.boolean().nullish() })).max(50).nullish() }).nullish(),
});

/** MediaWiki asks at least this long after a maxlag error with no Retry-After. */
const MAXLAG_WAIT_MS = 5000;

/** An HTTP-200 error answer: waited out when it says "later" (maxlag, ratelimited), else a failure. */
function throwIfError(e: z.infer<typeof apiError> | null | undefined, meta: AnswerMeta): void {
  if (!e) return;
  const what = `the wiki answered an error: ${e.code ?? 'unknown'}${e.info ? ` (${e.info})` : ''}`;
  if (e.code === 'maxlag' || e.code === 'ratelimited') {
    const asked = retryAfterMs(meta.retryAfter);
    throw new AnswerError(what, asked ?? Math.max(MAXLAG_WAIT_MS, (e.lag ?? 0) * 1000));
  }
  throw new Error(what);
}

export function wikipediaUrl(lang: string, title: string): string {
  return `https://${lang}.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':')}`;
}

const api = (req: SearchRequester, params: Record<string, string>) => {
  const u = new URL(`${req.base('wikipedia')}/w/api.php`);
  const batch = req.batch ? { maxlag: '5' } : {};
  for (const [k, v] of Object.entries({ action: 'query', format: 'json', formatversion: '2', ...batch, ...params })) u.searchParams.set(k, v);
  return u.href;
};

/** The full-text search answer as hits: checked, MediaWiki's HTTP-200 errors raised (run in the answer worker). */
export function readWikipediaSearch(a: unknown, meta: AnswerMeta, { query, limit, wiki }: ReaderContext): SearchHit[] {
  const j = checked(searchAnswer, a);
  throwIfError(j.error, meta);
  if (!j.query) throw new Error('unexpected answer: no query result');
  return (j.query.search ?? []).slice(0, limit).map((s, i): SearchHit => ({
    provider: 'wikipedia',
    query,
    rank: i + 1,
    url: wikipediaUrl(wiki, s.title),
    title: s.title,
    text: plainText(s.snippet),
    textKind: 'snippet',
    wiki: { lang: wiki, title: s.title },
  }));
}

/** The TextExtracts answer: its one page (title, plain text, or missing), checked (run in the answer worker). */
export function readWikipediaExtract(a: unknown, meta: AnswerMeta): { title?: string | null | undefined; extract?: string | null | undefined; missing?: boolean | null | undefined } | undefined {
  const r = checked(extractAnswer, a);
  throwIfError(r.error, meta);
  if (!r.query?.pages?.length) throw new Error('unexpected answer: no page in the answer');
  return r.query.pages[0];
}

export const wikipedia: SearchProvider = {
  name: 'wikipedia',
  async search(query, limit, req) {
    return req.json<SearchHit[]>('wikipedia', api(req, { list: 'search', srsearch: query, srlimit: String(limit), srnamespace: '0', srprop: 'snippet' }), 'wikipedia.search', { query, limit });
  },
};

/**
 * An article's text: its plain text (TextExtracts), or, on a wiki without that extension (a mirror, a small
 * wiki), its rendered HTML from core MediaWiki's REST API (`/w/rest.php/v1/page/<title>/html`, which every
 * MediaWiki since 1.35 serves; the RESTBase path `/api/rest_v1/` exists on Wikimedia's wikis only), read by
 * the caller's HTML reader. A reason when it has neither; "no article" only when the wiki said `missing`.
 */
export async function wikipediaText(title: string, req: SearchRequester): Promise<{ ok: true; text: string; kind: 'text' | 'html'; title: string } | { ok: false; reason: string }> {
  let page: { title?: string | null | undefined; extract?: string | null | undefined; missing?: boolean | null | undefined } | undefined;
  try {
    page = await req.json<ReturnType<typeof readWikipediaExtract>>('wikipedia', api(req, { prop: 'extracts', explaintext: '1', exsectionformat: 'plain', redirects: '1', titles: title }), 'wikipedia.extract', { query: title, limit: 1 });
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  if (page?.missing) return { ok: false, reason: `no article "${title}"` };
  if (page?.extract?.trim()) return { ok: true, text: page.extract, kind: 'text', title: page.title ?? title };
  const html = await req.text('wikipedia', `${req.base('wikipedia')}/w/rest.php/v1/page/${encodeURIComponent(title.replace(/ /g, '_'))}/html`, { accept: 'text/html' });
  if (html.ok && html.body.trim()) return { ok: true, text: html.body, kind: 'html', title: page?.title ?? title };
  return { ok: false, reason: `no text for "${title}"${html.ok ? '' : ` (${html.reason})`}` };
}
