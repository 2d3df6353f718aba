/**
 * Citation audit (SIDE): verification score of each citation's source (max passage score), calibrated
 * failed-verification flags, URL-depth baseline, better-source recommendations, JSON and HTML reports.
 */
export type * from './types.js';
export { CitationAuditor, DEFAULT_AUDIT_CONFIG, summarise, type AuditDeps, type AuditProgress } from './audit.js';
export { loadArticleInput, titleFromFileName, isUrl, type ArticleInputOptions } from './article-input.js';
export { scoreDocuments, DEFAULT_SCORING, type ScoringConfig, type ScoreJob, type DocumentScore, type EvidenceSentence, type ScoredPassage, type Granularity } from './score-document.js';
export { verificationQuery, QUERY_CONTEXTS, type QueryContext, type ClaimText } from './query.js';
export { retrieveCandidates, rankSuggestions, claimInContext, type Candidate, type CandidateSet } from './recommend.js';
export { exclusionReason, normalTitle, wikipediaTitleOf, type ExclusionContext } from './exclusions.js';
export { urlDepth } from './url-depth.js';
export {
  loadCalibration,
  findCalibration,
  saveCalibration,
  flagRule,
  scoringHash,
  defaultCalibrationPath,
  DEFAULT_CALIBRATION,
  CALIBRATION_FORMAT,
  type CalibrationFile,
  type CalibrationDefinition,
  type CalibrationPoint,
  type FlagRule,
} from './calibration.js';
export { prCurve, rocAuc, precisionAtRecall, averagePrecision, chooseOperatingPoint, parseCriterion, f1, type PrPoint, type ThresholdCriterion } from './detection-metrics.js';
export { renderAuditHtml, orderForReport, highlight, escapeHtml } from './report-html.js';
export { LexicalPairScorer, Bm25Stats } from './lexical.js';
export { MemoEmbedder, type MemoEmbedderOptions } from './memo-embedder.js';
export { loadAuditScorer, type LoadedScorer, type LoadScorerOptions } from './load-scorer.js';
export { loadRankerDeps } from './load-ranker.js';
export { SourceRanker, defaultRankerPath, DEFAULT_RANKER_FILE, type SourceRankerFile } from './source-ranker.js';
export { RANK_FEATURES, rankFeatures, type RankFeature, type RankQuery, type RankCandidate, type RankFeatureDeps } from './rank-features.js';
export { corpusStats } from './corpus-stats.js';
export { trainListwise, crossValidatedScores, assignFolds, type RankingExample } from './train-ranker.js';
