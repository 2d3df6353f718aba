/**
 * The composition root: the only code that opens stores, loads models and builds retrievers, verifiers
 * and auditors. Everything else (CLI commands, the HTTP server, benchmarks, evaluations, library users)
 * asks a `Veracite` for the piece it needs, so one set of settings gives one pipeline everywhere.
 *
 *   const vc = await Veracite.open({ index: { dir: '.veracite/scifact' } });
 *   const verdict = await vc.verify('Vitamin D deficiency increases the risk of fractures.');
 *   await vc.close();
 *
 * Pieces are built on first use and then shared: a BM25 search never loads a model.
 */
import type { AuditProgress } from '../audit/audit.js';
import type { AuditInput, AuditReport } from '../audit/types.js';
import type { IngestOptions, IngestSummary } from '../store/ingest.js';
import { EmbeddingCache } from '../store/embedding-cache.js';
import { openStore, storeEngineOf } from '../store/open-store.js';
import { embedMissing, recordedEmbedder, type EmbedMissingOptions, type EmbedMissingSummary, type VectorBackfillStore } from '../store/dense-backfill.js';
import type { Store } from '../store/types.js';
import type { AcquireOptions } from '../store/writer-lock.js';
import { Retriever, type RetrieverResult, type SearchMode } from '../retrieve/retriever.js';
import type { ClaimInContext } from '../retrieve/query-building.js';
import type { Verifier } from '../verify/verifier.js';
import { checkedClaim } from '../verify/claim-text.js';
import type { Verdict } from '../verify/types.js';
import type { Embedder, ModelInfo } from '../models/types.js';
import { formatModelSpec } from '../models/registry.js';
import { describeVectors, reembedPlan, type ReembedPlan } from './index-embedder.js';
import { SettingsError } from '../util/settings-error.js';
import type { AuditPipeline } from './audit.js';
import type { SearchVerdict, SearchVerifier } from './search-verify.js';
import type { SearchTestHooks } from './search.js';
import type { SearchProviderName } from '../search/types.js';
import { candidateRetriever } from './candidate-retriever.js';
import type { SourceCheck, SourceCheckInput } from './check-source.js';
import { ModelHub, type InjectedModels } from './models.js';
import { checkProfileModel, requireCalibrated, resolveProfile } from './profile.js';
import { parseSettings, type RetrievalMode, type Settings, type SettingsInput } from './settings.js';
import { inThreadDocumentReader, workerDocumentReader, type DocumentReader } from '../documents/document-reader.js';
import { inThreadAnswerReader, workerAnswerReader, type AnswerReader } from '../search/answer-pool.js';

export interface OpenOptions {
  /** Models to use instead of loading them (tests; callers holding their own ONNX instances). */
  models?: InjectedModels;
  /**
   * Open for writing (`veracite index`, building an evaluation's index): the index is created when it does
   * not exist (at the first write, never by opening alone) and the writer lock is taken at open, so a
   * second writer is refused before it does any work. Otherwise the index is opened read-only: a missing
   * or empty index is refused with a message that says how to build it, and no lock is taken.
   */
  create?: boolean;
  /** The writer lock's record of who holds it, and a notice when a stale lock is broken. */
  lockOptions?: AcquireOptions;
  /** TEST ONLY: lets search read pages on loopback hosts (never set by the CLI or the server). */
  searchHooks?: SearchTestHooks;
  /** Where notices go (an index with the old embedder's vectors, app/index-embedder.ts); default stderr, once per process. */
  onNotice?: (line: string) => void;
}

const noticed = new Set<string>();
/** Each notice once per process: a server or an evaluation opens many pipelines on one index. */
function stderrOnce(line: string): void {
  if (noticed.has(line)) return;
  noticed.add(line);
  process.stderr.write(line + '\n');
}

/** auto = hybrid when the index has vectors, else bm25; an explicit dense mode needs vectors. */
export function resolveMode(requested: RetrievalMode, hasVectors: boolean): SearchMode {
  if (requested === 'auto') return hasVectors ? 'hybrid' : 'bm25';
  if (requested !== 'bm25' && !hasVectors) {
    throw new SettingsError('retrieval.mode', `"${requested}" needs an index with vectors and this one has none: index it with dense vectors, or use bm25`);
  }
  return requested;
}

export class Veracite {
  /** The settings with every `auto` decided (retrieval.mode is the mode actually used). */
  readonly settings: Settings;
  readonly models: ModelHub;
  private retrieverOf: Retriever | undefined;
  private verifierOf: Promise<Verifier> | undefined;
  private auditOf: Promise<AuditPipeline> | undefined;
  private searchVerifierOf: Promise<SearchVerifier> | undefined;
  private embeddingCache: Promise<EmbeddingCache> | undefined;
  private reader: DocumentReader | undefined;
  private answers: AnswerReader | undefined;

  private constructor(
    settings: Settings,
    /** The index, when the settings name one. */
    readonly store: VectorBackfillStore | undefined,
    models: ModelHub,
    /** Whether the index holds passage vectors (dense and hybrid retrieval possible). */
    readonly hasVectors: boolean,
    private readonly searchHooks: SearchTestHooks = {},
  ) {
    this.settings = settings;
    this.models = models;
  }

  static async open(input: SettingsInput = {}, opts: OpenOptions = {}): Promise<Veracite> {
    const requested = parseSettings(input);
    // The calibrated model profile (veracite models): the one named, else the active one, else none.
    const models = new ModelHub(requested.models, opts.models, await resolveProfile(requested, opts.models));
    const dir = requested.index.dir;
    // A directory (LanceDB), opensearch://host:port/name or memory: (store/open-store.ts). Readers open
    // read-only and follow a writer in another process (new snapshots within a second).
    const store = dir
      ? await openStore(dir, opts.create ? { create: true, lance: { lock: 'open', ...(opts.lockOptions ? { lockOptions: opts.lockOptions } : {}) } } : { create: false, readOnly: true })
      : undefined;
    try {
      const hasVectors = store ? (await store.vectorDimension()) !== undefined : false;
      // The retrieval embedder follows the index's vectors unless one is named (app/index-embedder.ts).
      const recorded = store ? await recordedEmbedder(store) : undefined;
      models.forIndex({ ...(recorded ? { recorded } : {}), named: input.models?.embedder !== undefined || models.profile?.file.role === 'embedder', ...(dir ? { dir } : {}) }, opts.onNotice ?? stderrOnce);
      // Without an index there is nothing to retrieve from; the mode only matters for provenance then.
      const mode = store ? resolveMode(requested.retrieval.mode, hasVectors) : 'bm25';
      const settings: Settings = { ...requested, retrieval: { ...requested.retrieval, mode } };
      return new Veracite(settings, store, models, hasVectors, opts.searchHooks);
    } catch (e) {
      await store?.close();
      throw e;
    }
  }

  /** The retrieval mode in use (settings.retrieval.mode, decided). */
  get mode(): SearchMode {
    return this.settings.retrieval.mode as SearchMode;
  }

  /** The index; an error naming the setting when there is none. */
  requireStore(): VectorBackfillStore {
    if (!this.store) throw new SettingsError('index.dir', 'this needs an index and none is open');
    return this.store;
  }

  /**
   * Passage and document retrieval. Serves every mode the index supports whatever the default: the query
   * embedder is loaded on the first dense or hybrid query.
   */
  retriever(): Retriever {
    if (!this.retrieverOf) {
      const r = this.settings.retrieval;
      this.retrieverOf = new Retriever(this.requireStore(), () => this.models.embedder(), {
        mode: this.mode,
        fusion: { method: r.fusion, sparseWeight: r.sparseWeight },
        sparseK: r.depth,
        denseK: r.depth,
      });
    }
    return this.retrieverOf;
  }

  /** Claim verification: candidate documents, top-5 evidence, verdict. */
  verifier(): Promise<Verifier> {
    this.verifierOf ??= (async () => {
      const v = this.settings.verify;
      // The alignment resources too: verifying reads them, and loading them on the first claim would block
      // the caller's event loop (a missing word-vector cache takes seconds to build).
      const [scorer, entailment] = await Promise.all([this.models.scorer(), this.models.entailment(), this.models.alignment()]);
      const embedder = this.mode === 'bm25' ? undefined : await this.models.embedder();
      const profile = this.checkedProfile({ scorer, entailment, ...(embedder ? { embedder } : {}) });
      // Verification (entity mentions: compromise) and the audit load on first use: a search needs neither.
      const { Verifier } = await import('../verify/verifier.js');
      return new Verifier(this.requireStore(), this.retriever(), { ...(embedder ? { embedder } : {}), scorer, entailment }, {
        documents: { mode: this.mode, maxDocs: v.candidates, titleMatch: v.titleMatch },
        evidence: { mode: v.evidence },
        hop: { enabled: v.hop },
        verdict: v.rule ? { rule: v.rule } : {},
      }, profile ? { name: profile.name, hash: profile.hash, ...(profile.verdictCalibration ? { calibration: profile.verdictCalibration } : {}), ...(profile.reviewModel ? { review: profile.reviewModel } : {}) } : undefined);
    })();
    return this.verifierOf;
  }

  /**
   * Verification by search (app/search-verify.ts): the settings' providers (search.providers), the same models
   * and verdict settings as verifier(); the index, when one is open, is searched alongside.
   */
  searchVerifier(): Promise<SearchVerifier> {
    this.searchVerifierOf ??= (async () => {
      const v = this.settings.verify;
      const [scorer, entailment] = await Promise.all([this.models.scorer(), this.models.entailment(), this.models.alignment()]);
      const profile = this.checkedProfile({ scorer, entailment });
      const [{ SearchVerifier }, { searchOptions, searchConfigOf }] = await Promise.all([import('./search-verify.js'), import('./search.js')]);
      const index = this.store ? await this.verifier() : undefined;
      return new SearchVerifier({
        models: { scorer, entailment },
        config: { documents: { maxDocs: v.candidates, titleMatch: v.titleMatch }, evidence: { mode: v.evidence }, hop: { enabled: false }, verdict: v.rule ? { rule: v.rule } : {} },
        ...(profile ? { profile: { name: profile.name, hash: profile.hash, ...(profile.verdictCalibration ? { calibration: profile.verdictCalibration } : {}), ...(profile.reviewModel ? { review: profile.reviewModel } : {}) } } : {}),
        search: searchOptions(this.settings, this.searchHooks, this.answerReader()),
        searchConfig: searchConfigOf(this.settings),
        ...(index ? { index } : {}),
      });
    })();
    return this.searchVerifierOf;
  }

  /** The audit's candidate retrieval (SIDE's union of BM25 and dense), for evaluations and ranker training. */
  candidateRetriever(): Retriever {
    return candidateRetriever(this.settings, this.models, this.requireStore(), this.mode);
  }

  /** The citation audit (works without an index: sources from a folder or the web, no suggestions). */
  auditPipeline(): Promise<AuditPipeline> {
    this.auditOf ??= (async () => {
      const { buildAuditPipeline } = await import('./audit.js');
      const pipeline = await buildAuditPipeline(this.settings, this.models, this.store, this.mode, this.searchHooks, this.documentReader(), this.answerReader());
      // The profile's model is checked even when no support probability could be made: a verdict calibration
      // that does not match the loaded weights (a changed file, another mix weight) is that same mismatch, and
      // must be refused with what to do, not judged without a probability.
      const entailment = pipeline.deps.support?.entailment ?? (this.models.profile?.file.role === 'nli' ? await this.models.engineEntailment() : undefined);
      this.checkedProfile({ scorer: pipeline.engine.scorer, ...(entailment ? { entailment } : {}) });
      return pipeline;
    })();
    return this.auditOf;
  }

  /**
   * Verdicts need calibrated models: an ONNX model without a profile is refused, and a profile's model must
   * be the one it was calibrated with (its weights hash).
   */
  private checkedProfile(loaded: { scorer: { info: ModelInfo }; entailment?: { info: ModelInfo }; embedder?: { info: ModelInfo } }) {
    const profile = this.models.profile;
    requireCalibrated(this.models.specs, profile);
    if (profile) {
      const role = profile.file.role;
      const model = role === 'nli' ? loaded.entailment : role === 'scorer' ? loaded.scorer : loaded.embedder;
      if (model) checkProfileModel(profile, model.info);
    }
    return profile;
  }

  /** `signal` stops the work between stages (a deadline): the call then rejects with its reason. */
  search(query: string | ClaimInContext, opts: { k?: number; mode?: SearchMode; signal?: AbortSignal } = {}): Promise<RetrieverResult> {
    return this.retriever().search(query, { k: opts.k ?? 10, ...(opts.mode ? { mode: opts.mode } : {}), ...(opts.signal ? { signal: opts.signal } : {}) });
  }

  /**
   * The verdict `veracite verify` and POST /v1/verify give: each evidence document decided as `check` decides it
   * (decideDocuments: the one decision, a decisive finding, a claim that does not read as English). Before,
   * the library returned the verifier's reading alone, so its label could differ from the CLI's for the same
   * claim (a developer's finding). An empty or too long claim is a ClaimTextError (verify/claim-text.ts),
   * before any model loads.
   */
  async verify(claim: string, opts: { signal?: AbortSignal } = {}): Promise<Verdict> {
    const text = checkedClaim(claim);
    // With search providers set (search.providers), evidence comes from search (and the index alongside).
    if (this.settings.search.providers.length) return this.verifyBySearch(text, opts);
    return this.decideDocuments(await (await this.verifier()).verify(text, opts.signal), opts);
  }

  /**
   * Each evidence document of an index verdict decided as `check` decides the same (claim, source) pair
   * (verify-decisions.ts): the same band, probability and reason; a relevant document whose decision rests on
   * a decisive finding refutes the claim. A verdict by search is returned as it is (its texts are in no index).
   */
  async decideDocuments(v: Verdict, opts: { signal?: AbortSignal } = {}): Promise<Verdict> {
    if (v.provenance.engine === 'search' || !this.store) return v;
    const [verifier, pipeline, { checkSource }, { withDocumentDecisions }] = await Promise.all([this.verifier(), this.auditPipeline(), import('./check-source.js'), import('./verify-decisions.js')]);
    return withDocumentDecisions(
      v,
      {
        documents: (ids) => verifier.store.getDocuments(ids),
        decide: async (claim, doc, signal) => {
          const r = await checkSource(pipeline, { claim, source: { document: doc }, suggestions: 0 }, signal);
          const finding = r.audit.verification?.findings?.find((f) => f.decisive);
          return r.audit.decision ? { decision: r.audit.decision, ...(finding ? { finding } : {}) } : undefined;
        },
        gate: verifier.config.verdict,
      },
      opts.signal,
    );
  }

  /**
   * A claim verified with evidence from search (no index needed): `providers` replaces the settings' for this
   * call. Every evidence sentence carries its URL; `search` says which provider and query found each source
   * and names every provider that failed.
   */
  async verifyBySearch(claim: string, opts: { signal?: AbortSignal; providers?: readonly SearchProviderName[] } = {}): Promise<SearchVerdict> {
    const text = checkedClaim(claim);
    const providers = opts.providers?.length ? opts.providers : this.settings.search.providers;
    if (!providers.length) throw new SettingsError('search.providers', 'name at least one search provider (wikipedia, openalex, europepmc, crossref, searxng, brave)');
    return (await this.searchVerifier()).verify(text, { ...(opts.signal ? { signal: opts.signal } : {}), providers });
  }

  async audit(input: AuditInput, onProgress?: (p: AuditProgress) => void): Promise<AuditReport> {
    if (typeof input === 'string' || !Array.isArray((input as Partial<AuditInput> | undefined)?.citations)) {
      throw new SettingsError('audit', typeof input === 'string' ? `got the path "${input}": read it first, vc.audit(await loadArticleInput(path))` : 'expected an article as loadArticleInput(path) reads it');
    }
    return (await this.auditPipeline()).auditor.auditArticle(input, onProgress);
  }

  /**
   * One claim against one source, as the audit judges a citation (check-source.ts): the probability that the
   * source supports the claim, supported or likely fails verification, its evidence, and better sources
   * from the index (`suggestions`, default the settings' audit.suggestions; none without an index).
   */
  async check(input: Omit<SourceCheckInput, 'suggestions' | 'context'> & { suggestions?: number; context?: string | string[] }, opts: { signal?: AbortSignal } = {}): Promise<SourceCheck> {
    const claim = checkedClaim(input?.claim);
    const [{ checkSource, contextSentences }, { PAGE_KINDS }] = await Promise.all([import('./check-source.js'), import('../sources/page-text.js')]);
    // Checked here for callers without the types (plain JavaScript): a wrong shape said in words, not a
    // TypeError from deep inside ("Cannot use 'in' operator to search for 'url' in undefined").
    const src = input.source as unknown;
    const given = src !== null && typeof src === 'object' ? (['url', 'text', 'document'] as const).filter((k) => k in (src as object)) : [];
    if (given.length !== 1) throw new SettingsError('source', 'give exactly one of { url }, { text } or { document } (a document already read)');
    const s = src as Record<string, unknown>;
    if (given[0] !== 'document' && typeof s[given[0]!] !== 'string') throw new SettingsError(`source.${given[0]}`, 'expected a string');
    if (s.kind !== undefined && !(PAGE_KINDS as readonly unknown[]).includes(s.kind)) throw new SettingsError('source.kind', `"${String(s.kind)}": expected ${PAGE_KINDS.slice(0, -1).join(', ')} or ${PAGE_KINDS.at(-1)}`);
    if (input.suggestions !== undefined && !(Number.isInteger(input.suggestions) && input.suggestions >= 0)) throw new SettingsError('suggestions', `${JSON.stringify(input.suggestions)}: expected a whole number, 0 or more`);
    // The context as the HTTP API and --pairs take it: its sentences, or a text that is split into them.
    const context = contextSentences(input.context);
    return checkSource(await this.auditPipeline(), { ...input, claim, context, suggestions: input.suggestions ?? this.settings.audit.suggestions }, opts.signal);
  }

  /**
   * Adds a corpus file or folder to the index (resumable, crash-safe: see store/ingest.ts). With
   * `dense`, passages are embedded with the settings' embedder through the index's embedding cache, and
   * the embedder is recorded in the index settings.
   */
  async ingest(path: string, opts: Omit<IngestOptions, 'embedder' | 'embeddingCache'> & { dense?: boolean } = {}): Promise<IngestSummary> {
    const store = this.requireStore();
    const { dense, ...rest } = opts;
    // The corpus readers (HTML: linkedom, Readability) load only to ingest.
    const { ingestSource } = await import('../store/ingest.js');
    // MediaWiki XML: wikitext becomes prose through the wiki layer's parser, on worker threads (issue 38).
    const { mayReadMediawiki, WikitextPool } = await import('./wikitext-prose.js');
    const pool = !rest.wikitextToText && mayReadMediawiki(path, rest.format) ? new WikitextPool() : undefined;
    if (pool) rest.wikitextToText = pool.convert;
    try {
      if (!dense) return await ingestSource(store, path, rest);
      const embedder = await this.models.embedder();
      const embeddingCache = await this.openEmbeddingCache();
      return await ingestSource(store, path, { ...rest, embedder, ...(embeddingCache ? { embeddingCache } : {}) });
    } finally {
      await pool?.close();
    }
  }

  /**
   * Adds vectors to an index built without them (`veracite index --dense` with no paths): embeds only the
   * passages that have none, a committed batch at a time, so an interrupted run resumes; refuses another
   * embedder than the one that made the index's vectors; builds or refreshes the vector index at the end.
   */
  async embedMissing(opts: Omit<EmbedMissingOptions, 'embeddingCache' | 'reembed'> = {}): Promise<EmbedMissingSummary> {
    const { embedder, plan } = await this.vectorPlan();
    const embeddingCache = await this.openEmbeddingCache(embedder);
    return embedMissing(this.requireStore(), embedder, { ...opts, reembed: plan === 'reembed-all', ...(embeddingCache ? { embeddingCache } : {}) });
  }

  /**
   * What `index --dense` alone will do (app/index-embedder.ts): the embedder it embeds with (the named one,
   * else the default), and whether it adds the missing vectors or re-embeds every passage because the
   * index's vectors came from another model; refused when that cannot be told.
   */
  async vectorPlan(): Promise<{ embedder: Embedder; plan: ReembedPlan; recorded?: ModelInfo; recordedName?: string }> {
    const store = this.requireStore();
    const embedder = await this.models.configuredEmbedder();
    const recorded = await recordedEmbedder(store);
    const dir = this.settings.index.dir;
    const plan = reembedPlan({ ...(recorded ? { recorded } : {}), named: this.models.embedderNamed, ...(dir ? { dir } : {}) }, embedder.info, formatModelSpec(this.models.specs.embedder));
    return { embedder, plan, ...(recorded ? { recorded, recordedName: describeVectors(recorded) } : {}) };
  }

  /** The embedding cache lives in a LanceDB index directory; other engines embed without one. */
  private async openEmbeddingCache(embedder?: Embedder): Promise<EmbeddingCache | undefined> {
    const dir = this.settings.index.dir;
    if (!dir || storeEngineOf(dir) !== 'lancedb') return undefined;
    this.embeddingCache ??= (embedder ? Promise.resolve(embedder) : this.models.embedder()).then((e) => EmbeddingCache.open(dir, e));
    return this.embeddingCache;
  }

  /** Embedding cache statistics of this session's dense ingest (undefined without one). */
  async embeddingCacheStats(): Promise<{ hits: number; misses: number } | undefined> {
    if (!this.embeddingCache) return undefined;
    const c = await this.embeddingCache;
    return { hits: c.hits, misses: c.misses };
  }

  /**
   * Reads untrusted documents (articles, uploads, fetched pages) within the `parse` budgets: a small pool
   * of worker threads (or the calling thread with parse.inThread). Made on first use, closed with this.
   */
  documentReader(): DocumentReader {
    this.reader ??= readerFor(this.settings);
    return this.reader;
  }

  /**
   * Reads search providers' answers (JSON parse, schema, hits) in a worker thread under a budget, as
   * documents are (or on the calling thread with parse.inThread). Made on first use, closed with this.
   */
  answerReader(): AnswerReader {
    this.answers ??= this.settings.parse.inThread ? inThreadAnswerReader() : workerAnswerReader();
    return this.answers;
  }

  async close(): Promise<void> {
    await this.reader?.close();
    await this.answers?.close();
    if (this.embeddingCache) (await this.embeddingCache).close();
    await this.models.close();
    await this.store?.close();
  }
}

/** The document reader the `parse` settings ask for. */
function readerFor(settings: Settings): DocumentReader {
  const p = settings.parse;
  const pdf = { maxInflatedBytes: p.pdfInflateMb * 1024 * 1024, maxTextChars: p.pdfTextChars };
  return p.inThread ? inThreadDocumentReader(pdf) : workerDocumentReader({ timeMs: p.timeoutMs, heapMb: p.heapMb, pdf }, p.workers);
}
