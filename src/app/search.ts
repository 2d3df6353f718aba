/**
 * Search wiring from the settings (the composition root's): the search client (mirrors, contact e-mail,
 * polite intervals, the answer cache, offline replay) and the page reader (a source resolver with the page
 * cache, no archive), shared by verification without an index and the audit's better sources.
 */
import { PageCache } from '../sources/page-cache.js';
import { SourceResolver } from '../sources/resolve-source.js';
import { apiBases, jatsText, POLITE_INTERVAL_MS, trustedOrigins, userAgent } from '../sources/work-records.js';
import { fetchApi } from '../sources/api-fetch.js';
import { pageToDocument } from '../sources/page-text.js';
import type { Document } from '../corpus/types.js';
import { SearchCache } from '../search/search-cache.js';
import { SearchClient } from '../search/search-client.js';
import type { AnswerReader } from '../search/answer-pool.js';
import { searchSources, type SearchSourcesOptions } from '../search/collect.js';
import type { SearchHit } from '../search/types.js';
import { copiesArticle, wikipediaCopyReason } from '../search/mirrors.js';
import { citeTemplate } from '../search/cite-template.js';
import type { AuditDeps } from '../audit/audit.js';
import { exclusionReason } from '../audit/exclusions.js';
import { retrieveCandidates } from '../audit/recommend.js';
import { chunkPassages } from '../corpus/passages.js';
import { Retriever } from '../retrieve/retriever.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { contactEmail, pageCacheDir, workOptions } from './source-settings.js';
import type { Settings } from './settings.js';

/** Test only: DNS and an allowlist for loopback pages (never set by the CLI or the server). */
export interface SearchTestHooks {
  policy?: { allowHosts?: string[] };
}

export function searchOptions(settings: Settings, hooks: SearchTestHooks = {}, answers?: AnswerReader): Omit<SearchSourcesOptions, 'exclude' | 'excludeRead'> {
  const src = settings.sources;
  const s = settings.search;
  const dir = pageCacheDir(settings);
  const policy = { timeoutMs: src.timeoutMs, maxBytes: src.maxBytes, maxRedirects: src.maxRedirects, ...hooks.policy };
  const client = new SearchClient({
    ...(src.apis ? { bases: src.apis } : {}),
    ...(contactEmail(settings) ? { email: contactEmail(settings)! } : {}),
    wiki: s.wiki,
    ...(src.apiIntervalMs !== undefined ? { intervalMs: src.apiIntervalMs } : {}),
    policy,
    cache: new SearchCache(dir),
    offline: src.offline,
    batch: s.batch,
    ...(answers ? { answers } : {}),
  });
  const works = workOptions(settings);
  const resolver = new SourceResolver({ fetch: { policy, cache: new PageCache(dir), wayback: false, works: { ...works, cache: new PageCache(dir) }, offline: src.offline } });
  return {
    providers: s.providers,
    client,
    budget: { queries: s.maxQueries, fetches: s.maxFetches, perQuery: s.perQuery },
    readPage: async (url, title) => {
      const r = await resolver.resolve({ url, title });
      return r.status === 'found' && r.document ? { ok: true, document: r.document } : { ok: false, reason: r.reason ?? r.status };
    },
    // An open-access paper's full text (Europe PMC's JATS), cached by request URL; offline, only from the cache.
    readFullText: async (hit: SearchHit): Promise<Document | undefined> => {
      if (!hit.pmcid) return undefined;
      const url = `${apiBases(works).europepmc}/${encodeURIComponent(hit.pmcid)}/fullTextXML`;
      const cache = new PageCache(dir);
      const kept = await cache.get(url, undefined, src.offline);
      if (kept || src.offline) return kept?.ok ? kept.document : undefined;
      const res = await fetchApi(url, { ...policy, allowOrigins: trustedOrigins(works), userAgent: userAgent(works.email), minIntervalMs: works.intervalMs ?? POLITE_INTERVAL_MS.europepmc }, 'application/xml');
      if (!res.ok) return undefined;
      const text = jatsText(res.body);
      if (!text) return undefined;
      const document = pageToDocument(text, 'text', hit.url, hit.title);
      await cache.put({ ok: true, url, finalUrl: url, fetchedAt: new Date().toISOString(), contentType: 'api/fulltext', document }).catch(() => undefined);
      return document;
    },
  };
}

/** What the provenance records of the search (never a key, never a mirror's address). */
export function searchConfigOf(settings: Settings): Record<string, unknown> {
  const s = settings.search;
  return { providers: s.providers, wiki: s.wiki, maxQueries: s.maxQueries, maxFetches: s.maxFetches, perQuery: s.perQuery };
}

/** The providers asked for better sources when --search names none: the scholarly indexes. */
export const DEFAULT_SUGGEST_PROVIDERS = ['openalex', 'europepmc', 'crossref'] as const;

/**
 * Better sources from search for one citation (the audit's `searchCandidates`): its claim in context (SIDE's
 * query: title, section, the text before it) goes to the providers; Wikipedia itself, its mirrors, the article
 * and the cited source are dropped before anything is read, and a page that copies the article's sentences
 * after; the rest go into an in-memory index, from which the audit's own candidate retrieval takes them
 * (recommend.ts), so they are scored and judged exactly as the cited source and as index candidates are.
 */
export function searchCandidateFinder(settings: Settings, hooks: SearchTestHooks = {}, answers?: AnswerReader): { find: NonNullable<AuditDeps['searchCandidates']>; documents: ReadonlyMap<string, Document> } {
  const base = searchOptions(settings, hooks, answers);
  const providers = settings.search.providers.length ? settings.search.providers : [...DEFAULT_SUGGEST_PROVIDERS];
  // The texts of the last candidates found, by id: the editors' view shows a suggestion's sentences (check-source.ts).
  const documents = new Map<string, Document>();
  const find: NonNullable<AuditDeps['searchCandidates']> = async (c, exclusion, cfg, signal) => {
    const { sources, report } = await searchSources(
      { claim: c.claim, context: c.context, articleTitle: c.articleTitle, sectionPath: c.sectionPath },
      {
        ...base,
        providers,
        exclude: (hit) => wikipediaCopyReason(hit.url) ?? sameWork(hit, c.source.ids) ?? exclusionReason({ id: `search:${hit.url}`, title: hit.title, url: hit.url }, exclusion),
        excludeRead: (doc) => exclusionReason(doc, exclusion) ?? (copiesArticle(doc.sentences.join(' '), c.claim, c.context) ? 'a copy of the article (holds its sentences word for word)' : undefined),
      },
    );
    signal?.throwIfAborted();
    const store = new MemoryStore();
    if (sources.length) {
      await store.upsert(sources.map((s) => ({ doc: s.document, passages: chunkPassages(s.document) })));
      await store.buildTextIndex();
    }
    const retriever = new Retriever(store, () => Promise.reject(new Error('search candidates rank by BM25')), { mode: 'bm25', sparseK: settings.retrieval.depth });
    const set = await retrieveCandidates(retriever, store, c, exclusion, cfg, 'bm25', signal);
    // The access date is the day the text was read (today; a replay keeps the day it replays on).
    const accessDate = new Date().toISOString().slice(0, 10);
    const found = new Map(
      sources.map((s) => {
        const first = s.foundBy[0]!;
        return [s.document.id, { foundBy: { provider: first.provider, query: first.query, rank: first.rank }, template: citeTemplate({ ...s.hit, title: s.hit.title || s.document.title }, accessDate), accessDate }] as const;
      }),
    );
    for (const cand of set.candidates) {
      documents.delete(cand.doc.id);
      documents.set(cand.doc.id, cand.doc);
      if (documents.size > MAX_KEPT_DOCUMENTS) documents.delete(documents.keys().next().value!);
    }
    return {
      ...set,
      excluded: [...report.excluded.map((e) => ({ docId: e.url, title: e.title, reason: e.reason })), ...set.excluded],
      found,
      search: { queries: report.queries, failures: report.failures.map((f) => f.message), excluded: report.excluded.map((e) => ({ url: e.url, reason: e.reason })) },
    };
  };
  return { find, documents };
}

/** The cited work itself, known by its DOI or PubMed id (cited without a URL, read through its API): never its own better source. */
function sameWork(hit: SearchHit, ids: { doi?: string; pmid?: string } | undefined): string | undefined {
  if (ids?.doi && hit.doi && ids.doi.toLowerCase() === hit.doi.toLowerCase()) return 'existing source (same DOI)';
  if (ids?.pmid && hit.pmid && ids.pmid === hit.pmid) return 'existing source (same PubMed id)';
  return undefined;
}

/** Candidate texts kept for the editors' view (a server runs for weeks: the oldest go first). */
const MAX_KEPT_DOCUMENTS = 2000;
