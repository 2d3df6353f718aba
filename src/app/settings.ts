/**
 * Every setting of veracite, in groups, with its default and the measurement behind the default. The CLI,
 * the server, the benchmarks, the evaluations and library users all give a (partial) `SettingsInput`;
 * `parseSettings` validates it once and fills the defaults, and the composition root (veracite.ts) decides
 * every `auto` against the index it opens. One set of settings therefore builds one pipeline everywhere.
 *
 * Errors name the setting by its dotted path (`retrieval.mode`); front ends map it to their own names
 * (cli/options.ts maps each setting to its flag).
 */
import { z } from 'zod';
import { WORK_API_BASES } from '../sources/work-api-bases.js';
import { SEARCH_API_BASES } from '../search/search-api-bases.js';
import { SEARCH_PROVIDERS } from '../search/types.js';

/** Every API a mirror may replace (`--api-base name=url`): the metadata APIs and the search APIs. */
const API_NAMES = [...Object.keys(WORK_API_BASES), ...Object.keys(SEARCH_API_BASES)] as [keyof typeof WORK_API_BASES | keyof typeof SEARCH_API_BASES, ...(keyof typeof WORK_API_BASES | keyof typeof SEARCH_API_BASES)[]];
import { DEFAULT_AUDIT_CONFIG } from '../audit/audit-defaults.js';
import { QUERY_CONTEXTS } from '../audit/query.js';
import { DEFAULT_SCORING } from '../audit/score-document.js';
import { DEFAULT_RETRIEVER_CONFIG } from '../retrieve/retriever.js';
import { DEFAULT_DOCUMENT_RETRIEVAL } from '../verify/document-retrieval-config.js';
import { VERDICT_RULES } from '../verify/aggregate.js';
import { SettingsError } from '../util/settings-error.js';
import { DEFAULT_PARSE_BUDGET } from '../documents/parse-budget.js';

export const DEFAULT_INDEX_DIR = '.veracite/index';
/** audit.maxCitations' default. */
export const DEFAULT_MAX_CITATIONS = 2000;

export const RETRIEVAL_MODES = ['auto', 'bm25', 'dense', 'hybrid'] as const;
export const FUSION_METHODS = ['union', 'rrf', 'weighted'] as const;
export const DEVICES = ['cpu', 'cuda'] as const;

export const IndexSettings = z
  .object({
    /** The index directory (embedded LanceDB). null: no index (an audit with --sources / --fetch only). */
    dir: z.string().min(1).nullable().default(DEFAULT_INDEX_DIR),
  })
  .strict();

export const ModelSettings = z
  .object({
    /** Query / passage embedder for dense retrieval: models/registry.ts grammar (an index's vectors fix it: app/index-embedder.ts). */
    embedder: z.string().min(1).default('minilm'),
    /** Evidence scorer and the audit's verification engine (one PairScorer role). */
    scorer: z.string().min(1).default('trained'),
    /** Entailment (NLI) model behind verdicts. */
    nli: z.string().min(1).default('trained'),
    /** ONNX execution device; 'cuda' fails loudly without the CUDA provider. */
    device: z.enum(DEVICES).default('cpu'),
    /** On-disk cache of the trained engine's sentence vectors (evaluations re-embed the same pages). */
    cache: z.string().min(1).optional(),
    /** A calibrated model profile (`veracite models`); 'offline' = the offline heads; default: the active one. */
    profile: z.string().min(1).optional(),
    /** An LLM judge profile: 'all' pairs to the LLM, or only those the offline head leaves 'uncertain' (default: the profile's). */
    judge: z.enum(['all', 'uncertain']).optional(),
    /** An LLM judge profile: requests a run may send at most (cache hits are free); past it the offline head reads. */
    maxCalls: z.number().int().min(0).optional(),
  })
  .strict();

export const RetrievalSettings = z
  .object({
    /** auto = hybrid when the index has vectors, else bm25. */
    mode: z.enum(RETRIEVAL_MODES).default('auto'),
    /** Fusion of the BM25 and dense lists for search and verification (the audit has its own, SIDE's union). */
    fusion: z.enum(FUSION_METHODS).default(DEFAULT_RETRIEVER_CONFIG.fusion.method),
    /** Weighted fusion: weight of BM25; unset, the query embedder's (0.6 MiniLM, 0.8 USE-lite, chosen on SciFact train: retrieve/retriever.ts). */
    sparseWeight: z.number().min(0).max(1).optional(),
    /** Passages taken from each first-stage list (BM25 and dense), SIDE's k. */
    depth: z.number().int().positive().default(DEFAULT_RETRIEVER_CONFIG.sparseK),
  })
  .strict();

export const VerifySettings = z
  .object({
    /** Candidate documents whose sentences are scored as evidence. */
    candidates: z.number().int().positive().default(DEFAULT_DOCUMENT_RETRIEVAL.maxDocs),
    /** Evidence selection: per sentence, or every sentence of a document in context (Stammbach). */
    evidence: z.enum(['sentence', 'document']).default('sentence'),
    /** Verdict rule; default: the better one on SciFact train (models/verdict-calibration.json). */
    rule: z.enum(VERDICT_RULES).optional(),
    /** Entity / title document retrieval (ColumbiaNLP). */
    titleMatch: z.boolean().default(true),
    /** Follow links of evidence documents (corpora with links, FEVER). */
    hop: z.boolean().default(false),
  })
  .strict();

export const ScoringSettings = z
  .object({
    /** The audit's passage score: max over its sentences, or the whole passage (chosen on WiCE, src/audit/README.md). */
    granularity: z.enum(['sentence', 'passage']).default(DEFAULT_SCORING.granularity),
    /** Context in the verification query. */
    queryContext: z.enum(QUERY_CONTEXTS).default(DEFAULT_AUDIT_CONFIG.queryContext),
    /** Units scored per page, best TF-IDF matches first (0 = all). */
    preselect: z.number().int().min(0).default(DEFAULT_SCORING.preselect),
  })
  .strict();

export const AuditSettings = z
  .object({
    recommend: z.boolean().default(true),
    /** Candidate documents reranked per citation. */
    candidates: z.number().int().positive().default(DEFAULT_AUDIT_CONFIG.recommend.candidates),
    /** Suggested sources per citation, at most. */
    suggestions: z.number().int().positive().default(DEFAULT_AUDIT_CONFIG.recommend.suggestions),
    /** Weight of 1/first-stage rank added to the engine score when ordering candidates without a ranker. */
    firstStageWeight: z.number().default(DEFAULT_AUDIT_CONFIG.recommend.firstStageWeight),
    /** Candidate lists are combined as SIDE does: the union of BM25 and dense, reranked. */
    fusion: z.enum(FUSION_METHODS).default('union'),
    /** Source ranker: 'default' (models/source-ranker.json when it fits the engine), 'off', or a weights file. */
    ranker: z.string().min(1).default('default'),
    /** Threshold file from `veracite calibrate`; default: the committed one made for these exact settings. */
    calibration: z.string().min(1).optional(),
    /** Which calibrated definition flags (not_supported | not_or_partially_supported); default: the file's. */
    definition: z.string().min(1).optional(),
    /** Flag at or below this score, overriding the calibration. */
    threshold: z.number().optional(),
    /** Citations audited at once (retrieval of one overlaps scoring of another). */
    concurrency: z.number().int().positive().default(DEFAULT_AUDIT_CONFIG.concurrency),
    /**
     * What is verified for a mid-sentence citation: the whole sentence (default: better recall at equal or
     * higher AUC with the ranker on labelled articles, src/audit/README.md "Claim text") or SIDE's text
     * before the marker.
     */
    claimText: z.enum(['sentence', 'prefix']).default('sentence'),
    /**
     * Score pairs whose claim or source is not English anyway (src/text/language.ts). Off: the models and the
     * index read English only, so such a pair is "could not check" (language) rather than a guess.
     */
    anyLanguage: z.boolean().default(false),
    /**
     * Citations one audit checks, at most. An article with more is refused with a message naming this
     * setting (the CLI's --limit n audits its first n instead); the parse stops one citation past it, so a
     * huge article never has all its citations in memory (docs/RESULTS-HISTORY.md, "HTTP service", large audits).
     */
    maxCitations: z.number().int().positive().default(DEFAULT_MAX_CITATIONS),
  })
  .strict();

export const SourceSettings = z
  .object({
    /** Folder of saved source pages (manifest.jsonl {url, path}, or files named by URL hash). */
    folder: z.string().min(1).optional(),
    /** Fetch sources (and URL articles) live, SSRF-guarded. Off by default: an audit touches the network only when asked. */
    fetch: z.boolean().default(false),
    /** Cache of fetched pages; default <index>/page-cache (or .veracite/page-cache without an index). */
    cache: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().default(15_000),
    maxBytes: z.number().int().positive().default(5 * 1024 * 1024),
    maxRedirects: z.number().int().min(0).default(5),
    /** Try the Wayback Machine for dead pages without an archive URL. */
    wayback: z.boolean().default(true),
    /**
     * Base URLs of the identifier resolvers and metadata APIs (src/sources/work-records.ts): doi, crossref,
     * openalex, europepmc, arxiv, arxivPdf, arxivAbs, pubmed, pmc, openlibrary. A mirror named here is trusted by
     * the SSRF guard (it may sit on an intranet address); cited URLs never are.
     */
    apis: z.partialRecord(z.enum(API_NAMES), z.url()).optional(),
    /** Contact e-mail sent to the APIs' polite pools (Crossref / OpenAlex mailto, Europe PMC email, User-Agent). */
    contactEmail: z.email().optional(),
    /** Ask OpenAlex for a DOI's abstract when Crossref has none (a third party learns what is checked: off by default). */
    openAbstracts: z.boolean().default(false),
    /** Least ms between two requests to one API host; default each API's own polite interval. */
    apiIntervalMs: z.number().int().min(0).optional(),
    /**
     * Replay only: fetched pages and search answers come from the cache (any age), nothing is requested; what
     * the cache lacks is "could not reach" (`--offline`). A recorded run replays byte for byte.
     */
    offline: z.boolean().default(false),
  })
  .strict();

/**
 * Budgets for reading untrusted documents (articles, uploaded files, fetched pages): each is read in a
 * worker thread under these limits (documents/document-reader.ts); one over them is refused, naming the
 * limit and the flag that raises it (--parse-timeout, --parse-memory, --pdf-inflate-limit, --pdf-text-limit).
 */
const MB = 1024 * 1024;
export const ParseSettings = z
  .object({
    /** Wall-clock time to read one document, ms. */
    timeoutMs: z.number().int().positive().default(DEFAULT_PARSE_BUDGET.timeMs),
    /** Heap of one parse worker, MB. */
    heapMb: z.number().int().min(64).default(DEFAULT_PARSE_BUDGET.heapMb),
    /** A PDF's non-image streams may inflate to this many MB, at most (decompression bombs). */
    pdfInflateMb: z.number().int().positive().default(DEFAULT_PARSE_BUDGET.pdf.maxInflatedBytes / MB),
    /** Characters of text read from one PDF, at most. */
    pdfTextChars: z.number().int().positive().default(DEFAULT_PARSE_BUDGET.pdf.maxTextChars),
    /** Parse workers (documents read at once). */
    workers: z.number().int().positive().max(16).default(2),
    /** Read documents on the calling thread instead (no time or heap budget): for library use without threads. */
    inThread: z.boolean().default(false),
  })
  .strict();

/**
 * Search as a first retrieval stage (src/search): verify without an index, and better sources for the audit
 * found by search. Each provider is optional; the budget bounds what one claim may cost the providers.
 */
export const SearchSettings = z
  .object({
    /** Providers asked for each claim (empty: no search). */
    providers: z.array(z.enum(SEARCH_PROVIDERS)).default([]),
    /** Wikipedia language edition (en, de, fr...). */
    wiki: z.string().regex(/^[a-z][a-z0-9-]{1,15}$/, { error: 'a Wikipedia language code such as en or de' }).default('en'),
    /** Search requests per claim, across providers (each gets its share, at least one). */
    maxQueries: z.number().int().positive().default(6),
    /** Requests for text (a page, an article, a full text) per claim. */
    maxFetches: z.number().int().min(0).default(8),
    /** Results taken from each answer. */
    perQuery: z.number().int().positive().max(50).default(5),
    /** Where the audit's better sources come from: the index (SIDE) or search (flagged and needs-review citations only). */
    suggestFrom: z.enum(['index', 'search']).default('index'),
    /** A run nobody waits on line by line (verify --claims): MediaWiki is sent maxlag=5, as its etiquette asks of non-interactive clients. */
    batch: z.boolean().default(false),
  })
  .strict();

export const Settings = z
  .object({
    index: IndexSettings.default({ dir: DEFAULT_INDEX_DIR }),
    models: ModelSettings.default(() => ModelSettings.parse({})),
    retrieval: RetrievalSettings.default(() => RetrievalSettings.parse({})),
    verify: VerifySettings.default(() => VerifySettings.parse({})),
    scoring: ScoringSettings.default(() => ScoringSettings.parse({})),
    audit: AuditSettings.default(() => AuditSettings.parse({})),
    sources: SourceSettings.default(() => SourceSettings.parse({})),
    parse: ParseSettings.default(() => ParseSettings.parse({})),
    search: SearchSettings.default(() => SearchSettings.parse({})),
  })
  .strict();

/** What callers give: any group, any field, omitted ones take their defaults. */
export type SettingsInput = z.input<typeof Settings>;
/** Validated settings with every default filled (retrieval.mode may still be 'auto'). */
export type Settings = z.output<typeof Settings>;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

/** Validates and completes settings; the first problem is reported as a SettingsError naming its path. */
export function parseSettings(input: SettingsInput = {}): Settings {
  const r = Settings.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const path = issue.path.join('.') || '(settings)';
  throw new SettingsError(path, issue.message);
}
