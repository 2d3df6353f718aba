/**
 * The search APIs' public endpoints, apart (like sources/work-api-bases.ts) so that the settings and the
 * command line's help read them without loading the providers. OpenAlex, Europe PMC and Crossref are the
 * metadata APIs' own bases (one `--api-base openalex=...` moves both uses to a mirror).
 */
import { WORK_API_BASES } from '../sources/work-api-bases.js';

/** `{lang}` is the language edition (`--wiki de`); a mirror may use it too. */
export const SEARCH_API_BASES = {
  wikipedia: 'https://{lang}.wikipedia.org',
  /** Self-hosted: no public default (give `--api-base searxng=https://searx.example`). */
  searxng: '',
  brave: 'https://api.search.brave.com/res/v1',
} as const;
export type SearchApiName = keyof typeof SEARCH_API_BASES;

/** Every base a provider reads, by provider name. */
export const PROVIDER_BASES = {
  ...SEARCH_API_BASES,
  openalex: WORK_API_BASES.openalex,
  europepmc: WORK_API_BASES.europepmc,
  crossref: WORK_API_BASES.crossref,
} as const;

/** The environment variable holding the Brave Search key (never a flag, a setting or a file: keys stay out of reports). */
export const BRAVE_KEY_ENV = 'BRAVE_SEARCH_API_KEY';

/** The environment variable holding the OpenAlex key (required by OpenAlex since 13 February 2026; sent as api_key, never cached or printed). */
export const OPENALEX_KEY_ENV = 'OPENALEX_API_KEY';
