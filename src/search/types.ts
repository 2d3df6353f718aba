/**
 * Search as a first retrieval stage: a provider turns a query into ranked hits (a page, a paper), and the
 * collector (collect.ts) reads each hit's text into a Document the same retrieval and evidence stages read
 * as an index's. Every hit says which provider and which query found it, so a verdict's evidence can be
 * traced back to a search answer (and replayed from the cache).
 */
import type { ApiResult } from '../sources/api-fetch.js';

export const SEARCH_PROVIDERS = ['wikipedia', 'openalex', 'europepmc', 'crossref', 'searxng', 'brave'] as const;
export type SearchProviderName = (typeof SEARCH_PROVIDERS)[number];

/** How a provider is named to people ("Wikipedia search: could not reach ..."). */
export const PROVIDER_LABELS: Record<SearchProviderName, string> = {
  wikipedia: 'Wikipedia search',
  openalex: 'OpenAlex search',
  europepmc: 'Europe PMC search',
  crossref: 'Crossref search',
  searxng: 'SearXNG search',
  brave: 'Brave Search',
};

/** One search result as the provider gave it. */
export interface SearchHit {
  provider: SearchProviderName;
  /** The query that found it, and its 1-based rank in that answer. */
  query: string;
  rank: number;
  /** The page to cite (a DOI's https://doi.org/ form for a paper that has one). */
  url: string;
  title: string;
  /**
   * Text the answer itself carries: a paper's abstract (OpenAlex, Europe PMC, Crossref), a web result's
   * snippet. `textKind` says which: an abstract stands for the work; a snippet is read only when the page
   * itself cannot be.
   */
  text?: string;
  textKind?: 'abstract' | 'snippet';
  /** Identifiers and bibliographic fields, for the ready citation template. */
  doi?: string;
  pmid?: string;
  pmcid?: string;
  /** Europe PMC: open-access full text available. */
  openAccess?: boolean;
  journal?: string;
  /** Publication date as given (YYYY, YYYY-MM or YYYY-MM-DD). */
  date?: string;
  authors?: string[];
  publisher?: string;
  /** A Wikipedia article (its text is read through the wiki's API, and it is never proposed as a source). */
  wiki?: { lang: string; title: string };
}

/** A failure of one provider, in words, never dropped silently. */
export interface ProviderFailure {
  provider: SearchProviderName;
  /** "Wikipedia search: could not reach 127.0.0.1:4000: connection refused (ECONNREFUSED)". */
  message: string;
}

/** The named readers of provider answers (answer-readers.ts holds one function for each). */
export type ReaderName = 'openalex.works' | 'crossref.works' | 'europepmc.search' | 'searxng.search' | 'brave.web' | 'wikipedia.search' | 'wikipedia.extract';

/** What a reader knows of the request: the query the hits answer, how many were asked, the wiki edition (the client's). */
export interface ReaderContext {
  query: string;
  limit: number;
  wiki: string;
}

/** What an answer's headers say beside its body (MediaWiki's maxlag error comes as a 200 with Retry-After). */
export interface AnswerMeta {
  retryAfter?: string;
}

export interface RequestOptions {
  accept?: string;
  /** Headers carrying a key (Brave), never logged or cached. */
  headers?: Record<string, string>;
  /** The provider's own words for a failed request (a 403 that means "a key is needed"), else the fetcher's. */
  explain?: (res: Extract<ApiResult, { ok: false }>) => string | undefined;
}

/** What a provider needs for one request: the one guarded, cached, polite GET (search-client.ts). */
export interface SearchRequester {
  /**
   * GET a provider's JSON API; the named `reader` (answer-readers.ts, run in the answer worker) checks the
   * answer (its schema, its error conventions) and is what makes it cacheable: an answer it refuses is never
   * stored. Throws an Error the user reads.
   */
  json<T>(provider: SearchProviderName, url: string, reader: ReaderName, ctx: Omit<ReaderContext, 'wiki'>, opts?: RequestOptions): Promise<T>;
  /** GET a page of text or HTML (an article's rendered HTML), cached only as a non-empty 200. */
  text(provider: SearchProviderName, url: string, opts?: RequestOptions): Promise<ApiResult>;
  /** The provider's API base (a mirror given with --api-base, else the public one). */
  base(provider: SearchProviderName): string;
  /** Contact e-mail for polite pools (OpenAlex / Crossref mailto, Europe PMC email). */
  readonly email: string | undefined;
  /** The Wikipedia language edition ("en", "de"). */
  readonly wiki: string;
  /** A batch run (MediaWiki's maxlag=5 is sent). */
  readonly batch?: boolean;
}

export interface SearchProvider {
  readonly name: SearchProviderName;
  /** Ranked hits for one query, at most `limit`; throws a SearchError naming what went wrong. */
  search(query: string, limit: number, req: SearchRequester): Promise<SearchHit[]>;
}

/** A provider that could not answer: its message is what the user reads (after the provider's label). */
export class SearchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SearchError';
  }
}
