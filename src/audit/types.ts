/**
 * Shapes of a citation audit (SIDE): per citation, the cited source's text status, its verification score
 * (max passage score) with the best evidence sentences, a failed-verification flag when a calibrated
 * threshold applies, SIDE's URL-depth baseline, and better sources from the index when the existing one is
 * not ranked first.
 */
import type { Review } from '../verify/review.js';
import type { ConflictKind } from '../verify/explicit-conflict.js';
import type { Finding } from '../verify/findings/findings.js';
import type { CoverageDetail } from '../verify/coverage.js';
import type { PairDecision } from '../verify/decision.js';
import type { Citation, CitationKind, CitationSource, CitationTags } from '../wiki/types.js';
import type { ModelInfo } from '../models/types.js';
import type { SearchMode } from '../retrieve/retriever.js';
import type { SourceAttempt, SourceStatus, SourceVia } from '../sources/types.js';
import type { WorkIds } from '../sources/work-ids.js';
import type { QueryContext } from './query.js';
import type { EvidenceSentence, ScoredPassage, ScoringConfig } from './score-document.js';
import type { LanguageReading } from '../text/language.js';

/**
 * What the audit reads of a citation: the parser's Citation (minus offsets), or a KILT/WAFER record turned
 * into one, whose source may lack fields the wikitext parser always fills.
 */
export type AuditCitation = Pick<Citation, 'id' | 'index' | 'claim' | 'context' | 'sectionPath' | 'articleTitle' | 'tags'> & {
  /** Sentence start -> marker (SIDE's text before the citation); absent = the claim. */
  claimPrefix?: string;
  /** DOI / arXiv / PubMed ids of the cited work (documents beyond Wikipedia): resolved when there is no URL. */
  source: Partial<CitationSource> & { raw?: string; ids?: WorkIds };
  kind?: CitationKind;
};

/**
 * What the audited document is: a Wikipedia article (wikitext, rendered HTML), a KILT/WAFER file of
 * citations, or a document with citations beyond Wikipedia (src/documents: Markdown, an HTML report or blog
 * post, plain text, a PDF).
 */
export type DocumentKind = 'wikipedia-wikitext' | 'wikipedia-html' | 'kilt' | 'markdown' | 'html' | 'text' | 'pdf';

export interface AuditInput {
  title: string;
  /** Path or URL the article was read from. */
  origin: string;
  /** How it was read ('html' is a rendered Wikipedia page; `kind` tells a Wikipedia page from another HTML page). */
  format: 'wikitext' | 'html' | 'kilt' | 'markdown' | 'text' | 'pdf';
  /** Absent: derived from `format` (documentKindOf). */
  kind?: DocumentKind;
  citations: AuditCitation[];
  /** Refs that gave no citation (infobox, table...), and {{citation needed}} claims without a ref. */
  skippedRefs: number;
  uncitedClaims: number;
}

export interface SourceReport {
  url?: string;
  title?: string;
  work?: string;
  archiveUrl?: string;
  deadUrl?: boolean;
  status: SourceStatus;
  via?: SourceVia;
  usedUrl?: string;
  docId?: string;
  /** Title of the page text that was scored. */
  pageTitle?: string;
  reason?: string;
  /** The DOI / arXiv / PubMed resolver answered that the cited work does not exist (status 'not-found'). */
  workNotFound?: boolean;
  /** Identifiers of the cited work, as the reference gave them. */
  ids?: WorkIds;
  attempts: SourceAttempt[];
}

export interface Verification {
  /** Relevance of the cited source: max passage score of the evidence scorer (the scorer's units; for 'trained', P(a sentence is evidence for the claim)). */
  score: number;
  /**
   * Probability that the cited source supports the claim, in [0, 1]: the calibrated SUPPORTS probability of
   * the verdict on its best evidence sentences (support.ts); absent without the NLI head and its calibration.
   */
  support?: number;
  /** The verdict on this source alone (SUPPORTS / REFUTES / NOT ENOUGH INFO), with `support`. */
  supportLabel?: 'SUPPORTS' | 'REFUTES' | 'NOT ENOUGH INFO';
  /** False when the best sentence is below the verdict rule's relevance gate (fitted on SciFact train). */
  relevant?: boolean;
  /**
   * At or below the threshold, when one applies: on `score`, or on `rankerScore` with a ranker calibration
   * (provenance.flagging.signal); or flagged whatever the signal because the source contradicts the claim.
   */
  flagged?: boolean;
  /**
   * The source's relevant evidence contradicts the claim (support.ts `contradicted`: raw contradiction >=
   * CONTRADICTED_MIN on its best sentences, and its verdict is not SUPPORTS): flagged whatever the signal.
   */
  contradicted?: boolean;
  /** What states the contradiction (explicit-conflict.ts), with `contradicted`. */
  conflict?: ConflictKind;
  /** What the source's best evidence states against the claim, in words (src/verify/findings; support.ts). */
  findings?: Finding[];
  /**
   * Needs review (src/verify/review.ts): the probability that `supportLabel` is right is below the stated
   * level, with the reason (conflicting evidence, off-topic, uncertain engine). Absent when it is not.
   */
  review?: Review;
  /**
   * How much of what the claim is about the source names (src/verify/coverage.ts): the share of the claim's
   * subject words its best ~250-token passage contains, and those it does not. An input of `support`; shown
   * so that a low probability of support can be read ("the source never names aspirin").
   */
  coverage?: CoverageDetail;
  /**
   * THE score people see: the probability that the cited source supports the claim, in [0, 1], read from the
   * flag signal through its calibration (calibration.ts ProbabilityCalibration); the flag threshold is on this
   * scale too (provenance.flagging.probabilityThreshold). Absent without a calibration that carries it.
   */
  probability?: number;
  /**
   * How closely the page words the claim (page-similarity.ts: TF-IDF cosine to its best ~100-word passage),
   * in [0, 1]; present when the flag signal reads it (support-signal.ts).
   */
  similarity?: number;
  /** The support signal the flag threshold was compared with (support-signal.ts), when it combines `support` and `similarity`. */
  supportSignal?: number;
  bestPassage?: ScoredPassage;
  /** The source ranker's score of the cited page, when a ranker is loaded (the flag signal with a ranker calibration). */
  rankerScore?: number;
  evidence: EvidenceSentence[];
  sentencesScored: number;
  sentencesTotal: number;
}

export interface Suggestion {
  docId: string;
  title: string;
  url?: string;
  /** Verification score of the candidate (same units as Verification.score). */
  score: number;
  /** Probability that the candidate supports the claim (same meaning as Verification.support). */
  support?: number;
  /** Probability that the candidate supports the claim on the flag signal's calibrated scale (as Verification.probability). */
  probability?: number;
  /** How much of the claim the candidate names (as Verification.coverage), with `support`. */
  coverage?: CoverageDetail;
  /** Score used to order candidates: the source ranker's when one is loaded, else verification (plus the first-stage rank's share). */
  rerankScore: number;
  /** Rank in the first-stage (hybrid / bm25) list of documents. */
  firstStageRank: number;
  bestPassage?: ScoredPassage;
  evidence: EvidenceSentence[];
  /** A source found by search (`--suggest-from search`): the provider and query that found it. */
  foundBy?: { provider: string; query: string; rank: number };
  /** A ready citation for it ({{cite journal |doi=...}} or {{cite web |url=...}}) with its access date. */
  template?: string;
  /** The day its text was read (YYYY-MM-DD), the template's access-date. */
  accessDate?: string;
}

export interface Recommendations {
  mode: SearchMode;
  queries: { sparse: string; dense: string };
  /** Documents reranked (after exclusions). */
  candidates: number;
  /** Candidates dropped: the article itself, the existing source. */
  excluded: { docId: string; title: string; reason: string }[];
  /** What ordered the sources: the source ranker's model id, or "verification" (the engine's score alone). */
  rankedBy: string;
  /** 1-based rank of the existing source among existing + candidates by that order; absent when it has no score. */
  existingRank?: number;
  /** Up to 3 sources ranked above the existing one (or the best candidates when it could not be scored). */
  suggestions: Suggestion[];
  /** Said when nothing relevant was found: "no better source found in this index". */
  noBetterSource?: string;
  /** Suggestions from search: the queries sent, and every provider that failed (named, never dropped). */
  search?: { queries: { provider: string; query: string; results: number }[]; failures: string[]; excluded: { url: string; reason: string }[] };
}

/** What the report says when no candidate is both better and relevant. */
export const NO_BETTER_SOURCE = 'no better source found in this index';
/** The same, when the candidates came from search. */
export const NO_BETTER_SOURCE_BY_SEARCH = 'no better source found by search';

export interface CitationAudit {
  id: string;
  index: number;
  /** The whole sentence holding the citation. */
  claim: string;
  /** The sentence up to the marker, when it differs from the claim (a mid-sentence citation). */
  claimPrefix?: string;
  context: string[];
  sectionPath: string[];
  kind?: CitationKind;
  /** Inline maintenance tags on the article ({{failed verification}}, {{dead link}}...). */
  tags: CitationTags;
  /** The text the verification engine compared with the source. */
  query: string;
  source: SourceReport;
  /** Present only when the source text was found and scored: an unreadable source is never "unsupported". */
  verification?: Verification;
  /** SIDE's baseline: number of path elements of the cited URL. */
  urlDepth?: number;
  /** The claim as verified when its subject was a pronoun or a bare surname, read with the article's subject (standalone-claim.ts). */
  resolvedClaim?: string;
  /**
   * The citation's one label (bands.ts): supported, partly supported, needs review, not supported, could not
   * check (with what to do). Every surface shows this and nothing else: `decision` carries the same band, and
   * `verification.flagged` is derived from it (not supported, or needs review for a contradiction).
   */
  band?: BandInfo;
  /**
   * Set when the claim or the source does not read as English (src/text/language.ts): each side's language, and
   * the problem in words. Without --any-language such a citation is not scored: could not check (language).
   */
  language?: { claim: LanguageReading; source?: LanguageReading; problem: string; scoredAnyway?: boolean };
  /** The one decision for (claim, cited source) (verify/decision.ts): band, probability, reason, decisive finding, proposed tag. */
  decision?: PairDecision;
  recommendations?: Recommendations;
  /** Set when this citation could not be audited (a model, index or lookup failure); the others were. */
  error?: string;
  /** rank: the source ranker's features and scores (0 without a ranker). */
  timingsMs: { source: number; retrieve: number; score: number; rank: number };
}

/** Which text of a citation is verified: its whole sentence, or SIDE's text before the marker. */
export type ClaimText = 'sentence' | 'prefix';
export const CLAIM_TEXTS: readonly ClaimText[] = ['sentence', 'prefix'];

export interface AuditConfig {
  scoring: ScoringConfig;
  queryContext: QueryContext;
  /**
   * 'sentence' (default; also when absent): the claim verified is the whole sentence holding the marker;
   * 'prefix': SIDE's text before the marker (`claimPrefix`). Same text for a sentence-final citation.
   * Measurement behind the default: src/audit/README.md ("Claim text").
   */
  claimText?: ClaimText;
  /** Score pairs that are not English anyway (settings audit.anyLanguage); absent or false: "could not check" (language). */
  anyLanguage?: boolean;
  recommend: {
    enabled: boolean;
    /** As requested (retrieval.mode); 'auto': hybrid (union of sparse and dense) when the index has vectors, bm25 otherwise. */
    mode: SearchMode | 'auto';
    /** Candidate documents reranked by the verification engine. */
    candidates: number;
    /** Retrieved passages per candidate scored (its best first-stage passages). */
    passagesPerCandidate: number;
    suggestions: number;
    /** Weight of the first-stage rank in the candidates' order (0 = verification score only). */
    firstStageWeight: number;
  };
  /** Citations audited at once (retrieval of one overlaps scoring of another). */
  concurrency: number;
}

export interface AuditProvenance {
  snapshot?: string;
  engine?: string;
  index?: string;
  models: ModelInfo[];
  config: AuditConfig;
  configHash: string;
  /** signal: the score the threshold applies to (the engine's, or the source ranker's). */
  flagging: {
    threshold?: number;
    source?: string;
    definition?: string;
    signal?: 'engine' | 'ranker' | 'support';
    /** The threshold as a probability of support (what the reports show), with what that probability means. */
    probabilityThreshold?: number;
    /** Below this probability of support a {{failed verification}} tag is proposed (verify/decision.ts). */
    tagBelow?: number;
    /** The one decision's thresholds for this engine (fitted on its probabilities; verify/decision.ts). */
    bands?: { supportedFrom: number; partlyFrom: number; notSupportedBelow: number; tagBelow: number };
    meaning?: string;
    disabledReason?: string;
  };
  veraciteVersion: string;
  createdAt: string;
}

export interface AuditSummary {
  citations: number;
  byStatus: Partial<Record<SourceStatus, number>>;
  scored: number;
  flagged: number;
  withSuggestions: number;
  taggedFailedVerification: number;
  /** Citations per plain band (bands.ts), bands with none left out. */
  byBand?: Partial<Record<CitationBand, number>>;
  /**
   * Citations the judge could not answer for: its reply could not be read (or quoted text not in the source),
   * so they are needs review whatever their probability (verify/decision.ts). Absent when none.
   */
  judgeUnreadable?: number;
  seconds: number;
  citationsPerSecond: number;
}

export interface AuditReport {
  article: { title: string; origin: string; format: AuditInput['format']; kind?: DocumentKind; skippedRefs: number; uncitedClaims: number };
  summary: AuditSummary;
  /** In article order. */
  citations: CitationAudit[];
  provenance: AuditProvenance;
}

/** One verdict per citation for people reading a report (citation-status.ts decides it). */
export type CitationStatus = 'supported' | 'fails-verification' | 'not-found' | 'dead-link' | 'unreadable' | 'unverifiable';

/** The plain bands (bands.ts), best first. */
export const CITATION_BANDS = ['supported', 'partly-supported', 'needs-review', 'not-supported', 'could-not-check'] as const;
export type CitationBand = (typeof CITATION_BANDS)[number];

export interface BandInfo {
  band: CitationBand;
  label: string;
  /** Why, in words. */
  reason: string;
  /** For `could-not-check`: how to check it (the CLI's --fetch / --sources FOLDER, the web page's upload...). */
  howToCheck?: string;
}

export interface CitationStatusInfo {
  status: CitationStatus;
  label: string;
  /** Why, in words (the source's reason, or the score against the threshold). */
  reason: string;
}
