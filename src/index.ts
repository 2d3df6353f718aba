/**
 * veracite as a library: open an index with settings, then search, verify claims and audit citations.
 *
 *   import { Veracite, loadArticleInput } from 'veracite';
 *   const vc = await Veracite.open({ index: { dir: '.veracite/demo' } });
 *   const verdict = await vc.verify('ALDH1 expression is associated with poorer prognosis in breast cancer.');
 *   const report = await vc.audit(await loadArticleInput('article.wikitext'));
 *   await vc.close();
 *
 * Everything is built by the composition root (`Veracite`) from one set of settings, exactly as the CLI
 * and the HTTP server build it. The evaluation and training entry points are exported for researchers.
 */

// The composition root and its settings.
export { Veracite, resolveMode, type OpenOptions } from './app/veracite.js';
export { parseSettings, DEFAULT_INDEX_DIR, RETRIEVAL_MODES, FUSION_METHODS, type Settings, type SettingsInput, type RetrievalMode } from './app/settings.js';
export type { InjectedModels, Engine } from './app/models.js';
export type { AuditPipeline } from './app/audit.js';
export type { SourceCheck, SourceCheckInput } from './app/check-source.js';
export type { SearchVerdict, SearchedSource } from './app/search-verify.js';
export { SEARCH_PROVIDERS, PROVIDER_LABELS, type SearchProviderName, type SearchHit, type ProviderFailure } from './search/types.js';
export type { SearchReport } from './search/collect.js';
export { SettingsError } from './util/settings-error.js';
export { ClaimTextError, MAX_CLAIM_CHARS } from './verify/claim-text.js';
export { NotTextError } from './util/not-text.js';

// Corpora and the index.
export type { RawDocument, Document, Passage, CorpusFormat } from './corpus/types.js';
export type { Store, StoreStats, PassageHit, DocumentWithPassages } from './store/types.js';
export type { IngestOptions, IngestSummary, IngestProgress } from './store/ingest.js';

// Retrieval and verification.
export type { Retriever, RetrieverResult, SearchMode } from './retrieve/retriever.js';
export type { ClaimInContext } from './retrieve/query-building.js';
export type { SearchResult, RankedDocument, RankedPassage } from './retrieve/types.js';
export { LABELS, type Label, type LabelProbs, type Verdict, type EvidenceSentence, type CandidateDocument, type Opposite, type Review, type ReviewReason, type EngineNote, type WeakSpot, type WeakSpotKind, type Finding, type VerdictFinding } from './verify/types.js';
export { findingsOf, findingLines } from './verify/findings/findings.js';
export type { Verifier, DocumentVerdict } from './verify/verifier.js';
export type { Provenance } from './provenance/types.js';

// Models: the role interfaces a user's own model implements, and the spec grammar.
export type { Embedder, PairScorer, EntailmentModel, EntailmentProbs, ModelInfo } from './models/types.js';
export { parseModelSpec, MODEL_SPEC_HELP, type ModelSpec, type ModelRole } from './models/registry.js';

// Articles and citation audits.
export { loadArticleInput, type ArticleInputOptions } from './audit/article-input.js';
export { renderAuditHtml } from './audit/report-html.js';
export type { AuditInput, AuditCitation, AuditReport, CitationAudit, AuditConfig } from './audit/types.js';
export { citationView, CitationViewSchema, type CitationView } from './audit/citation-view.js';
export { parseWikitext, parseWikipediaHtml } from './wiki/index.js';
export type { Article, Citation } from './wiki/types.js';
export { WikitextLimitError, MAX_NESTING } from './wiki/mark-wikitext.js';
// Reading untrusted documents within budgets (Veracite.documentReader() gives the configured one).
export { workerDocumentReader, inThreadDocumentReader, DEFAULT_PARSE_BUDGET, type DocumentReader, type ParseBudget } from './documents/document-reader.js';
export { BudgetError } from './util/worker-pool.js';
export { PdfLimitError } from './corpus/pdf-limits.js';

// Evaluation and training.
export { evaluateRun, type Qrels } from './eval/retrieval-metrics.js';
export { scifactTask, wiceTask, readQueries, readQrels, type EvalQuery, type EvalTask } from './eval/retrieval-data.js';
export { runRetrievalEval } from './eval/run-retrieval.js';
export { feverScore } from './eval/fever-score.js';
export { scifactMetrics } from './eval/scifact-metrics.js';
export { runTraining, type TrainOptions } from './learn/heads/train.js';

// Types that appear in the signatures above (a developer's finding: they could not be named, TS2305).
export type { AuditProgress } from './audit/audit.js';
export type { BandInfo, AuditProvenance } from './audit/types.js';
export type { PageKind } from './sources/page-text.js';
export type { ResolvedSource } from './sources/types.js';
export type { DocumentDecision } from './verify/types.js';
export type { PairDecision } from './verify/decision.js';
export type { SearchVerifier } from './app/search-verify.js';
export type { ModelHub } from './app/models.js';
export type { EmbedMissingOptions } from './store/dense-backfill.js';
