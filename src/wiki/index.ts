/**
 * Article input for citation checking (SIDE): claims and their citations from Wikipedia wikitext or
 * rendered HTML, and KILT / WAFER JSONL in and out.
 */
export type {
  Article,
  ArticleSection,
  Citation,
  CitationKind,
  CitationSource,
  CitationTags,
  ParseOptions,
  SkippedRef,
  UncitedClaim,
} from './types.js';
export { DEFAULT_CONTEXT_SENTENCES } from './types.js';
export { parseWikitext } from './parse-wikitext.js';
export { parseWikipediaHtml } from './parse-wikipedia-html.js';
export { readKiltWafer, type WaferItem } from './read-kilt-wafer.js';
export { writeKiltWafer, type WriteWaferResult } from './write-kilt-wafer.js';
export { toWaferRecord, fromWaferRecord, type WaferCitation, type WaferRecord } from './wafer-record.js';
