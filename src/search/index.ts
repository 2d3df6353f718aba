/**
 * Search providers as a first retrieval stage (Wikipedia, OpenAlex, Europe PMC, Crossref, SearXNG, Brave):
 * queries from a claim, answers cached and replayable, sources read into Documents with the provider and
 * query that found them.
 */
export { SEARCH_PROVIDERS, PROVIDER_LABELS, SearchError, type SearchHit, type SearchProvider, type SearchProviderName, type ProviderFailure, type SearchRequester } from './types.js';
export { SEARCH_API_BASES, PROVIDER_BASES, BRAVE_KEY_ENV, type SearchApiName } from './search-api-bases.js';
export { SearchClient, SEARCH_INTERVAL_MS, type SearchClientOptions } from './search-client.js';
export { SearchCache, requestKey, type CachedAnswer } from './search-cache.js';
export { searchSources, foundByText, DEFAULT_SEARCH_BUDGET, type SearchBudget, type SearchReport, type FoundSource, type SearchSourcesOptions, type PageRead, type TextFrom } from './collect.js';
export { searchQueries, cleanClaim } from './queries.js';
export { wikipediaCopyReason, copiesArticle, WIKIPEDIA_MIRRORS } from './mirrors.js';
export { citeTemplate, type CitableSource } from './cite-template.js';
export { PROVIDERS } from './providers/index.js';
