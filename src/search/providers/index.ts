/** Every search provider by name (one a file). */
import type { SearchProvider, SearchProviderName } from '../types.js';
import { brave } from './brave.js';
import { crossref } from './crossref.js';
import { europepmc } from './europepmc.js';
import { openalex } from './openalex.js';
import { searxng } from './searxng.js';
import { wikipedia } from './wikipedia.js';

export const PROVIDERS: Record<SearchProviderName, SearchProvider> = { wikipedia, openalex, europepmc, crossref, searxng, brave };
