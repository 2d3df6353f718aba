/** What `verify --search` adds to a verdict's text: where each source came from, and every provider that failed. */
import type { SearchVerdict } from '../app/search-verify.js';
import { PROVIDER_LABELS } from '../search/types.js';
import type { OptionPick } from './options.js';

/** The options of search verification (verify, serve): providers, budget, mirrors, the cache and its replay. */
export const SEARCH_OPTIONS: OptionPick = {
  search: ['providers', 'wiki', 'maxQueries', 'maxFetches'],
  sources: ['cache', 'offline', 'apis', 'contactEmail', 'apiIntervalMs', 'timeoutMs', 'maxBytes', 'maxRedirects'],
};

export function isSearchVerdict(v: object): v is SearchVerdict {
  return 'search' in v && typeof (v as { search?: unknown }).search === 'object';
}

export function searchLines(v: SearchVerdict): string[] {
  const s = v.search;
  const out: string[] = [];
  const asked = s.providers.map((p) => `${PROVIDER_LABELS[p]} (${s.queries.filter((q) => q.provider === p).length} queries)`).join(', ');
  out.push(`  searched: ${asked}; ${s.sources.length} sources read, ${s.fetches}/${s.budget.fetches} fetches`);
  for (const f of s.failures) out.push(`  ${f.message}`);
  for (const src of s.sources) {
    const by = src.foundBy[0]!;
    out.push(`   source ${src.url} (${src.textFrom}): found by ${PROVIDER_LABELS[by.provider]} for "${by.query}" #${by.rank}${src.foundBy.length > 1 ? ` and ${src.foundBy.length - 1} more` : ''}`);
  }
  for (const e of s.excluded) out.push(`   left out ${e.url}: ${e.reason}`);
  for (const u of s.unread) out.push(`   not read ${u.url}: ${u.reason}`);
  return out;
}
