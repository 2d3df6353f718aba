/**
 * Pages never proposed as a better source for a Wikipedia citation (SIDE excludes them too): Wikipedia itself
 * (WP:CIRCULAR: an article is no source for another), its sister projects, and sites that copy its articles
 * (WP:MIRROR; the list holds the mirrors most often met in search results). A page of another host that
 * holds the citing sentence and the one before it word for word is a copy too, whatever its domain.
 */

/** Hosts (and their subdomains) that republish Wikipedia's articles. */
export const WIKIPEDIA_MIRRORS: readonly string[] = [
  'wikiwand.com',
  'wikizero.com',
  'wiki2.org',
  'wikimili.com',
  'wikiless.org',
  'infogalactic.com',
  'alchetron.com',
  'kiddle.co',
  'dbpedia.org',
  'en-academic.com',
  'dic.academic.ru',
  'thefreedictionary.com',
  'justapedia.org',
  'everipedia.org',
  'theinfolist.com',
  'explained.today',
  'unionpedia.org',
  'wikibrief.org',
  'wikiwix.com',
  'db0nus869y26v.cloudfront.net',
  'wikipedia-on-ipfs.org',
  'wiki.alquds.edu',
  'wikipedia.nd.ax',
];

const WIKIMEDIA = ['wikipedia.org', 'wikimedia.org', 'wikidata.org', 'wikiquote.org', 'wikibooks.org', 'wikisource.org', 'wiktionary.org', 'wikinews.org', 'wikiversity.org', 'wikivoyage.org'];

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** Why a URL is never a source for a Wikipedia article ("Wikipedia itself", "a Wikipedia mirror"), or undefined. */
export function wikipediaCopyReason(url: string): string | undefined {
  const host = hostOf(url);
  if (!host) return undefined;
  if (WIKIMEDIA.some((d) => under(host, d))) return 'Wikipedia itself (an article is no source for another: WP:CIRCULAR)';
  if (WIKIPEDIA_MIRRORS.some((d) => under(host, d))) return `a Wikipedia mirror (${host})`;
  return undefined;
}

const squash = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Shortest sentence compared: short sentences ("He died in 1900.") are met word for word in real sources. */
const MIN_COPIED = 40;

/**
 * A page that holds the citing sentence and the sentence before it word for word is a copy of the article
 * (its text, not a source of it); with no sentence before, a long citing sentence alone (>= 120 letters).
 */
export function copiesArticle(pageText: string, claim: string, context: readonly string[] = []): boolean {
  const page = squash(pageText);
  const c = squash(claim);
  if (c.length < MIN_COPIED || !page.includes(c)) return false;
  const before = context.length ? squash(context[context.length - 1]!) : '';
  if (before.length >= MIN_COPIED) return page.includes(before);
  return c.length >= 120;
}
