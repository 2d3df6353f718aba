/**
 * The one place a citation audit is assembled (the CLI, the server, the benchmark and library users all get
 * it here): the verification engine, the source ranker, the failed-verification threshold, the candidate
 * retriever (SIDE's union of BM25 and dense) and the source resolver, from one set of settings.
 */
import type { AnswerReader } from '../search/answer-pool.js';
import { CitationAuditor, DEFAULT_AUDIT_CONFIG, type AuditDeps } from '../audit/audit.js';
import { findCalibration, flagRule, loadCalibration, scoringHash, type CalibrationFile } from '../audit/calibration.js';
import { DEFAULT_SCORING } from '../audit/score-document.js';
import type { AuditConfig } from '../audit/types.js';
import type { ModelInfo } from '../models/types.js';
import type { SearchMode } from '../retrieve/retriever.js';
import { PageCache } from '../sources/page-cache.js';
import { SourceResolver, type PageReader, type SourceResolverOptions } from '../sources/resolve-source.js';
import { SnapshotFolder } from '../sources/snapshot-folder.js';
import type { Store } from '../store/types.js';
import type { Engine, ModelHub } from './models.js';
import { loadRanker } from './ranker.js';
import { supportModel } from '../audit/support.js';
import type { Settings } from './settings.js';
import { candidateRetriever } from './candidate-retriever.js';
import { localIndexDir, pageCacheDir, workOptions } from './source-settings.js';
import type { SearchTestHooks } from './search.js';
import type { Document } from '../corpus/types.js';
import type { EngineScoring } from '../models/hub/profile.js';

export interface AuditPipeline {
  auditor: CitationAuditor;
  deps: AuditDeps;
  engine: Engine;
  /** A new source resolver: it memoises lookups for its lifetime, right for one article, wrong for weeks of serving. */
  resolver(): SourceResolver;
  /** Why the ranker or the flags are off, for the user (empty when both are on). */
  notes: string[];
  /** With better sources from search: the candidates' texts, by id (they are in no index). */
  searchDocuments?: ReadonlyMap<string, Document>;
}

/**
 * The audit's configuration from the settings (what the provenance's configHash covers). `engine`: the active
 * profile's own evidence size (ProfileFile.scoring), which its audit calibration was fitted with.
 */
export function auditConfigOf(settings: Settings, mode: SearchMode, recommend: boolean, engine?: EngineScoring): AuditConfig {
  return {
    scoring: { ...DEFAULT_SCORING, granularity: settings.scoring.granularity, preselect: settings.scoring.preselect, ...(engine ? { evidenceK: engine.evidenceK } : {}) },
    queryContext: settings.scoring.queryContext,
    recommend: {
      ...DEFAULT_AUDIT_CONFIG.recommend,
      enabled: recommend,
      mode,
      candidates: settings.audit.candidates,
      suggestions: settings.audit.suggestions,
      firstStageWeight: settings.audit.firstStageWeight,
    },
    concurrency: settings.audit.concurrency,
    claimText: settings.audit.claimText,
    anyLanguage: settings.audit.anyLanguage,
  };
}

// Defined in source-settings.ts (search reads them without loading the audit).
export { localIndexDir, pageCacheDir, workOptions };

// Defined in candidate-retriever.ts (the composition root builds it without loading the audit).
export { candidateRetriever };

export async function buildAuditPipeline(settings: Settings, models: ModelHub, store: Store | undefined, mode: SearchMode, searchHooks: SearchTestHooks = {}, reader?: PageReader, answers?: AnswerReader): Promise<AuditPipeline> {
  const notes: string[] = [];
  const engine = await models.engine();
  // Better sources from search (--suggest-from search) need no index.
  const fromSearch = settings.search.suggestFrom === 'search';
  const recommend = settings.audit.recommend && (fromSearch || !!store);
  const config = auditConfigOf(settings, mode, recommend, models.profile?.file.scoring);
  const indexDir = store ? localIndexDir(settings) : undefined;
  const ranked = await loadRanker(settings.audit.ranker, engine, store, indexDir);
  if ('reason' in ranked) {
    if (store) notes.push(ranked.reason);
  }
  const ranker = 'ranker' in ranked ? ranked.ranker.info : undefined;
  // The probability that a source supports the claim: the NLI model with the verdict's fitted calibration.
  const judged = supportModel(engine.scorer.info, await models.engineEntailment(), models.profile?.verdictCalibration, models.profile?.reviewModel);
  if ('reason' in judged) notes.push(judged.reason);
  const support = 'reason' in judged ? undefined : judged;
  // A model profile's own audit calibration (veracite models calibrate) comes first, unless a file is named.
  const profileCalibration = !settings.audit.calibration && models.profile?.auditCalibration ? await loadCalibration(models.profile.auditCalibration) : undefined;
  const calibration = profileCalibration ?? (await chooseCalibration(settings, engine.scorer.info, config, ranker, support?.info));
  const flag = flagRule(
    {
      ...(settings.audit.threshold !== undefined ? { threshold: settings.audit.threshold } : {}),
      ...(calibration ? { calibration } : {}),
      ...(settings.audit.definition ? { definition: settings.audit.definition } : {}),
    },
    { scorer: engine.scorer.info, scoring: config.scoring, queryContext: config.queryContext, ...(ranker ? { ranker } : {}), ...(support ? { support: support.info } : {}) },
  );
  if ('reason' in flag) notes.push(flag.reason);

  // The query embedder is part of the pipeline (and its provenance) when suggestions use dense retrieval.
  const embedder = store && recommend && mode !== 'bm25' ? await models.embedder() : undefined;
  const retriever = store ? candidateRetriever(settings, models, store, mode) : undefined;
  const infos: ModelInfo[] = [engine.scorer.info];
  if (engine.embedder) infos.push(engine.embedder.info);
  if (embedder && !infos.some((m) => m.id === embedder.info.id)) infos.push(embedder.info);
  if (ranker) infos.push(ranker);
  // The engine's profile, so that every report and provenance says which calibrated engine judged.
  if (models.profile) infos.push({ id: `profile:${models.profile.name}`, version: `sha256:${models.profile.hash}`, backend: 'profile' });
  if (support && !infos.some((m) => m.id === support.info.id)) infos.push(support.info);

  // The one decision's thresholds fitted on this engine's probabilities (a profile's), else the lite heads' ones.
  const fitted = models.profile?.file.bands;
  const bands = fitted && support ? { supportedFrom: fitted.supportedFrom, partlyFrom: fitted.partlyFrom, notSupportedBelow: fitted.notSupportedBelow, tagBelow: fitted.tagBelow } : undefined;
  const snapshots = settings.sources.folder ? await SnapshotFolder.open(settings.sources.folder, { maxBytes: settings.sources.maxBytes }) : undefined;
  const fetchPolicy = { timeoutMs: settings.sources.timeoutMs, maxBytes: settings.sources.maxBytes, maxRedirects: settings.sources.maxRedirects };
  const resolver = () => {
    const opts: SourceResolverOptions = {};
    if (store) opts.store = store;
    if (snapshots) opts.snapshots = snapshots;
    if (settings.sources.fetch) opts.fetch = { policy: fetchPolicy, cache: new PageCache(pageCacheDir(settings)), wayback: settings.sources.wayback, works: workOptions(settings), offline: settings.sources.offline, ...(reader ? { reader } : {}) };
    return new SourceResolver(opts);
  };
  const finder = fromSearch && recommend ? (await import('./search.js')).searchCandidateFinder(settings, searchHooks, answers) : undefined;
  const deps: AuditDeps = {
    scorer: engine.scorer,
    resolver: resolver(),
    ...(store ? { store } : {}),
    ...(retriever ? { retriever } : {}),
    retrievalMode: mode,
    models: infos,
    flag,
    ...(indexDir ? { indexDir } : {}),
    ...('ranker' in ranked ? { ranker: ranked } : {}),
    ...(support ? { support } : {}),
    ...(finder ? { searchCandidates: finder.find } : {}),
    ...(bands ? { thresholds: bands } : {}),
  };
  return { auditor: new CitationAuditor(deps, config), deps, engine, resolver, notes, ...(finder ? { searchDocuments: finder.documents } : {}) };
}

/**
 * The threshold file: the one named in the settings, else the committed calibration made for exactly these
 * settings, by signal in order of measured detection quality on WiCE dev (not_supported ROC AUC,
 * docs/RESULTS-HISTORY.md): the support signal, P(supports) with the page's similarity to the claim (0.875 out of
 * fold; when the NLI model has a fitted verdict calibration), else the source ranker's score (0.822; when a
 * ranker is loaded and calibrated), else the engine's score (0.725); else the default file (whose mismatch
 * flagRule reports).
 */
async function chooseCalibration(settings: Settings, scorer: ModelInfo, config: AuditConfig, ranker: ModelInfo | undefined, support: ModelInfo | undefined): Promise<(CalibrationFile & { path: string; sha256: string }) | undefined> {
  if (settings.audit.calibration) return loadCalibration(settings.audit.calibration);
  const exact = (r?: ModelInfo, s?: ModelInfo) => findCalibration(scoringHash(scorer, config.scoring, config.queryContext, r, s), undefined, false);
  return (support && (await exact(undefined, support))) || (ranker && (await exact(ranker))) || (await findCalibration(scoringHash(scorer, config.scoring, config.queryContext)));
}
