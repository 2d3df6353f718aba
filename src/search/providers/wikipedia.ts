/**
 * Wikipedia, any language edition: the MediaWiki action API's full-text search (`list=search`), then each
 * article's plain text through TextExtracts (`prop=extracts&explaintext`), one request per article. Results
 * name the article by its canonical URL (https://<lang>.wikipedia.org/wiki/<Title>) whatever mirror served
 * them. Documented shapes (formatversion=2): https://www.mediawiki.org/wiki/API:Search,
 * https://www.mediawiki.org/wiki/Extension:TextExtracts#API.
 */
import { parseJson } from '../search-client.js';
import type { SearchHit, SearchProvider, SearchRequester } from '../types.js';

interface SearchAnswer {
  query?: { search?: { ns?: number; title: string; pageid?: number; snippet?: string }[] };
  error?: { code?: string; info?: string };
}

interface ExtractAnswer {
  query?: { pages?: { title?: string; extract?: string; missing?: boolean }[] };
  error?: { code?: string; info?: string };
}

export function wikipediaUrl(lang: string, title: string): string {
  return `https://${lang}.wikipedia.org/wiki/${encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':')}`;
}

const api = (req: SearchRequester, params: Record<string, string>) => {
  const u = new URL(`${req.base('wikipedia')}/w/api.php`);
  for (const [k, v] of Object.entries({ action: 'query', format: 'json', formatversion: '2', ...params })) u.searchParams.set(k, v);
  return u.href;
};

/** Search snippets are HTML with <span class="searchmatch"> marks. */
function snippetText(html: string | undefined): string {
  return (html ?? '').replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#0?39;/g, "'").replace(/\s+/g, ' ').trim();
}

export const wikipedia: SearchProvider = {
  name: 'wikipedia',
  async search(query, limit, req) {
    const res = await req.get('wikipedia', api(req, { list: 'search', srsearch: query, srlimit: String(limit), srnamespace: '0', srprop: 'snippet' }));
    const j = parseJson<SearchAnswer>(res);
    if (j.error) throw new Error(`the wiki answered an error: ${j.error.info ?? j.error.code}`);
    return (j.query?.search ?? []).slice(0, limit).map((s, i): SearchHit => ({
      provider: 'wikipedia',
      query,
      rank: i + 1,
      url: wikipediaUrl(req.wiki, s.title),
      title: s.title,
      text: snippetText(s.snippet),
      textKind: 'snippet',
      wiki: { lang: req.wiki, title: s.title },
    }));
  },
};

/**
 * An article's text: its plain text (TextExtracts), or, on a wiki without that extension (a mirror, a small
 * wiki), its rendered HTML from the REST API (`/api/rest_v1/page/html/<title>`), read by the caller's HTML
 * reader. A reason when it has neither.
 */
export async function wikipediaText(title: string, req: SearchRequester): Promise<{ ok: true; text: string; kind: 'text' | 'html'; title: string } | { ok: false; reason: string }> {
  const res = await req.get('wikipedia', api(req, { prop: 'extracts', explaintext: '1', exsectionformat: 'plain', redirects: '1', titles: title }));
  let j: ExtractAnswer;
  try {
    j = parseJson<ExtractAnswer>(res);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  const page = j.query?.pages?.[0];
  if (page?.missing) return { ok: false, reason: `no article "${title}"` };
  if (page?.extract?.trim()) return { ok: true, text: page.extract, kind: 'text', title: page.title ?? title };
  const html = await req.get('wikipedia', `${req.base('wikipedia')}/api/rest_v1/page/html/${encodeURIComponent(title.replace(/ /g, '_'))}`, { accept: 'text/html' });
  if (html.ok && html.body.trim()) return { ok: true, text: html.body, kind: 'html', title: page?.title ?? title };
  return { ok: false, reason: `no text for "${title}"${html.ok ? '' : ` (${html.reason})`}` };
}
