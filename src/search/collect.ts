/**
 * A claim -> the sources search finds for it, read: queries (queries.ts) sent to each provider within the
 * claim's budget, the answers merged (best ranks first, one entry per page or DOI, each remembering every
 * provider and query that found it), pages the caller may not use dropped before any is read (the article
 * itself, a mirror, the cited source), then each source's text read until the fetch budget is spent:
 *   - a Wikipedia article: its plain text through the wiki's API;
 *   - a paper whose answer carries its abstract: the abstract (no request), or its open full text when the
 *     caller reads it (Europe PMC);
 *   - anything else: the page itself through the caller's reader (the source resolver: SSRF guard, HTML
 *     reader, PDFs, page cache); when it cannot be read, the result's snippet, said so.
 * A provider that fails is named with why ("Wikipedia search: could not reach ..."), and asked nothing more
 * for this claim. The order of the sources is fixed by the answers, not by which request finished first, so
 * a replay from the cache gives the same documents in the same order.
 */
import type { Document } from '../corpus/types.js';
import { prepareDocument } from '../corpus/prepare.js';
import type { ClaimInContext } from '../retrieve/query-building.js';
import { pageToDocument, urlKey } from '../sources/page-text.js';
import { normalizeUrl } from '../store/url.js';
import { PROVIDERS } from './providers/index.js';
import { wikipediaText } from './providers/wikipedia.js';
import { searchQueries } from './queries.js';
import { PROVIDER_LABELS, type ProviderFailure, type SearchHit, type SearchProviderName, type SearchRequester } from './types.js';

export interface SearchBudget {
  /** Search requests per claim, across providers (each provider gets its share, at least one). */
  queries: number;
  /** Requests for text (a page, an article, a full text) per claim. */
  fetches: number;
  /** Results taken from each answer. */
  perQuery: number;
}

export const DEFAULT_SEARCH_BUDGET: SearchBudget = { queries: 6, fetches: 8, perQuery: 5 };

export type PageRead = { ok: true; document: Document } | { ok: false; reason: string };

export interface SearchSourcesOptions {
  providers: readonly SearchProviderName[];
  client: SearchRequester;
  budget?: Partial<SearchBudget>;
  /** Reads a page (the source resolver). Absent: pages are not read, snippets stand in. */
  readPage?: (url: string, title: string) => Promise<PageRead>;
  /** An open-access paper's full text (Europe PMC), when the caller reads it; undefined: the abstract is used. */
  readFullText?: (hit: SearchHit) => Promise<Document | undefined>;
  /** Why a hit must not be read or used (the article itself, a mirror, the cited source), or undefined. */
  exclude?: (hit: SearchHit) => string | undefined;
  /** A read source that must not be used after all (a page that copies the article), or undefined. */
  excludeRead?: (doc: Document, hit: SearchHit) => string | undefined;
  /** Sources read at once. */
  concurrency?: number;
}

export type TextFrom = 'page' | 'wikipedia' | 'abstract' | 'full text' | 'snippet';

export interface FoundSource {
  document: Document;
  /** The hit as first found (best rank); `foundBy` lists every provider and query that returned it. */
  hit: SearchHit;
  foundBy: { provider: SearchProviderName; query: string; rank: number }[];
  textFrom: TextFrom;
}

export interface SearchReport {
  providers: SearchProviderName[];
  /** Every query sent, with its provider and the number of results. */
  queries: { provider: SearchProviderName; query: string; results: number }[];
  failures: ProviderFailure[];
  excluded: { url: string; title: string; reason: string }[];
  /** Results found but not read: past the fetch budget, or unreadable without a snippet. */
  unread: { url: string; title: string; reason: string }[];
  budget: SearchBudget;
  /** Requests for text made (at most budget.fetches). */
  fetches: number;
}

function hitKey(h: SearchHit): string {
  return h.doi ? `doi:${h.doi.toLowerCase()}` : normalizeUrl(h.url);
}

function textDocument(hit: SearchHit, text: string): Document {
  return prepareDocument({ id: `url:${urlKey(hit.url)}`, title: hit.title, text: `${hit.title}\n\n${text}`, url: hit.url });
}

export async function searchSources(claim: ClaimInContext | string, opts: SearchSourcesOptions): Promise<{ sources: FoundSource[]; report: SearchReport }> {
  const budget: SearchBudget = { ...DEFAULT_SEARCH_BUDGET, ...opts.budget };
  const providers = [...new Set(opts.providers)];
  const report: SearchReport = { providers, queries: [], failures: [], excluded: [], unread: [], budget, fetches: 0 };
  if (!providers.length) return { sources: [], report };
  const perProvider = Math.max(1, Math.floor(budget.queries / providers.length));
  const queries = searchQueries(claim, perProvider);

  // Providers run side by side (each is its own host); a provider's queries one after another, stopping at its first failure.
  const answers = await Promise.all(
    providers.map(async (name) => {
      const lists: { query: string; hits: SearchHit[] }[] = [];
      let failure: ProviderFailure | undefined;
      for (const query of queries) {
        try {
          lists.push({ query, hits: await PROVIDERS[name].search(query, budget.perQuery, opts.client) });
        } catch (e) {
          failure = { provider: name, message: `${PROVIDER_LABELS[name]}: ${(e as Error).message}` };
          break;
        }
      }
      return { name, lists, failure };
    }),
  );
  const ranked: { hit: SearchHit; order: [number, number, number] }[] = [];
  answers.forEach((a, p) => {
    for (const [q, l] of a.lists.entries()) {
      report.queries.push({ provider: a.name, query: l.query, results: l.hits.length });
      for (const hit of l.hits) ranked.push({ hit, order: [hit.rank, p, q] });
    }
    if (a.failure) report.failures.push(a.failure);
  });
  // Best ranks first, then provider order, then query order: one interleaved list, the same on every run.
  ranked.sort((x, y) => x.order[0] - y.order[0] || x.order[1] - y.order[1] || x.order[2] - y.order[2]);
  const merged = new Map<string, { hit: SearchHit; foundBy: FoundSource['foundBy'] }>();
  for (const { hit } of ranked) {
    const key = hitKey(hit);
    const seen = merged.get(key) ?? merged.get(normalizeUrl(hit.url));
    if (seen) {
      seen.foundBy.push({ provider: hit.provider, query: hit.query, rank: hit.rank });
      // A later hit may carry what the first lacked (an abstract, a DOI).
      if (!seen.hit.text && hit.text) seen.hit = { ...hit, ...seen.hit, text: hit.text, ...(hit.textKind ? { textKind: hit.textKind } : {}) };
      continue;
    }
    merged.set(key, { hit, foundBy: [{ provider: hit.provider, query: hit.query, rank: hit.rank }] });
  }

  const todo: { hit: SearchHit; foundBy: FoundSource['foundBy'] }[] = [];
  for (const m of merged.values()) {
    const why = opts.exclude?.(m.hit);
    if (why) report.excluded.push({ url: m.hit.url, title: m.hit.title, reason: why });
    else todo.push(m);
  }

  // Requests for text are counted when they start, in list order, so the budget takes the best-ranked first.
  const takeFetch = () => (report.fetches < budget.fetches ? (report.fetches++, true) : false);
  const read = async (m: { hit: SearchHit; foundBy: FoundSource['foundBy'] }): Promise<FoundSource | { unread: string }> => {
    const { hit } = m;
    const found = (document: Document, textFrom: TextFrom): FoundSource => ({ document: { ...document, url: hit.url }, hit, foundBy: m.foundBy, textFrom });
    if (hit.wiki) {
      if (!takeFetch()) return { unread: 'past the fetch budget' };
      const t = await wikipediaText(hit.wiki.title, opts.client);
      if (t.ok && t.kind === 'text') return found(prepareDocument({ id: `url:${urlKey(hit.url)}`, title: t.title, text: t.text, url: hit.url }), 'wikipedia');
      // The REST API's rendered article, through the pages' HTML reader.
      if (t.ok) return found({ ...pageToDocument(t.text, 'html', hit.url, t.title), title: t.title }, 'wikipedia');
      return hit.text ? found(textDocument(hit, hit.text), 'snippet') : { unread: `${PROVIDER_LABELS.wikipedia}: ${t.reason}` };
    }
    if (hit.textKind === 'abstract' && hit.text) {
      if (hit.openAccess && opts.readFullText && takeFetch()) {
        const full = await opts.readFullText(hit).catch(() => undefined);
        if (full?.sentences.length) return found(full, 'full text');
      }
      return found(textDocument(hit, hit.text), 'abstract');
    }
    if (opts.readPage && takeFetch()) {
      const page = await opts.readPage(hit.url, hit.title);
      if (page.ok && page.document.sentences.length) return found(page.document, 'page');
      if (hit.text) return found(textDocument(hit, hit.text), 'snippet');
      return { unread: page.ok ? 'no text on the page' : page.reason };
    }
    if (hit.text) return found(textDocument(hit, hit.text), 'snippet');
    return { unread: opts.readPage ? 'past the fetch budget' : 'pages are not read' };
  };
  const results = new Array<FoundSource | { unread: string }>(todo.length);
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const i = next++;
      results[i] = await read(todo[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 3, todo.length) }, worker));
  const sources: FoundSource[] = [];
  results.forEach((r, i) => {
    const m = todo[i]!;
    if ('unread' in r) {
      report.unread.push({ url: m.hit.url, title: m.hit.title, reason: r.unread });
      return;
    }
    const why = opts.excludeRead?.(r.document, m.hit);
    if (why) report.excluded.push({ url: m.hit.url, title: m.hit.title, reason: why });
    else sources.push(r);
  });
  return { sources, report };
}

/** "found by Wikipedia search for "X" (#1)": which provider and query found a source, for people. */
export function foundByText(s: Pick<FoundSource, 'foundBy'>): string {
  const first = s.foundBy[0]!;
  const more = s.foundBy.length > 1 ? ` and ${s.foundBy.length - 1} more` : '';
  return `${PROVIDER_LABELS[first.provider]} for "${first.query}" (#${first.rank})${more}`;
}
