/**
 * Citation audit (SIDE): verification score of each citation's source (max passage score), calibrated
 * failed-verification flags, URL-depth baseline, better-source recommendations, JSON and HTML reports, and
 * the editors' view of each citation. Built from settings by the composition root (src/app/audit.ts).
 */
export type * from './types.js';
export { CitationAuditor, DEFAULT_AUDIT_CONFIG, summarise, type AuditDeps, type AuditProgress, type RankerDeps } from './audit.js';
export { loadArticleInput, titleFromFileName, isUrl, type ArticleInputOptions } from './article-input.js';
export { scoreDocuments, DEFAULT_SCORING, type ScoringConfig, type ScoreJob, type DocumentScore, type EvidenceSentence, type ScoredPassage, type Granularity } from './score-document.js';
export { verificationQuery, QUERY_CONTEXTS, type QueryContext } from './query.js';
export { retrieveCandidates, rankSuggestions, type Candidate, type CandidateSet } from './recommend.js';
export { exclusionReason, normalTitle, wikipediaTitleOf, type ExclusionContext } from './exclusions.js';
export { urlDepth } from './url-depth.js';
export { loadCalibration, findCalibration, flagRule, scoringHash, defaultCalibrationPath, DEFAULT_CALIBRATION, CALIBRATION_FORMAT, type CalibrationFile, type CalibrationDefinition, type CalibrationPoint, type FlagRule } from './calibration.js';
export { renderAuditHtml, highlight, escapeHtml } from './report-html.js';
export { orderForReport, reportScale, signalScore, type ReportScale, type FlagSignal } from './report-scale.js';
export { SourceRanker, defaultRankerPath, linearScore, DEFAULT_RANKER_FILE, type SourceRankerFile } from './source-ranker.js';
export { RANK_FEATURES, rankFeatures, storedVectorsOf, type RankFeature, type RankQuery, type RankCandidate, type RankFeatureDeps } from './rank-features.js';
export { corpusStats } from './corpus-stats.js';
export { citationView, sourceView, CitationViewSchema, SourceViewSchema, type CitationView, type SourceView, type SourceSentence, type SuggestionView } from './citation-view.js';
