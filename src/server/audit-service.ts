/**
 * The narrow contract between the server and the citation audit: what the job runner and the
 * citation-check route call, and the per-citation result the API returns and the web page draws.
 * audit-side.ts implements it on the citation audit module (src/audit); tests may inject their own.
 */
import type { AuditCitation, AuditInput } from '../audit/types.js';
import type { CitationTags } from '../wiki/types.js';

export interface SourceSentence {
  /** Position of the sentence in its document. */
  index: number;
  text: string;
  /** Chosen as evidence for the claim (highlighted in the web page). */
  evidence: boolean;
  score?: number;
}

/** A source as shown to editors: evidence sentences with a little context around them. */
export interface SourceView {
  docId?: string;
  title: string;
  url?: string;
  sentences: SourceSentence[];
}

export interface Suggestion extends SourceView {
  /** How well this document supports the claim (same scale as `verifiability`). */
  score: number;
}

export interface CitationAudit {
  citationId: string;
  /** Position among the article's citations. */
  index: number;
  claim: string;
  context: string[];
  sectionPath: string[];
  /** The reference as the article gives it (URL, title, work, raw wikitext...). */
  source: AuditCitation['source'];
  tags: CitationTags;
  /** 'found', or why the cited source's text could not be read ('not-found', 'dead', 'no-url'...). */
  sourceStatus: string;
  sourceReason?: string;
  /**
   * How well the cited source supports the claim, on the score the flags use (`scoreSignal`): the
   * verification engine's (the scorer's units; a probability for the default trained scorer), or the
   * source ranker's (a linear score) when the audit flags on it; null when the source could not be read
   * ("could not check" is not "does not support"). The web page sorts by it, lowest first.
   */
  verifiability: number | null;
  /** Which score `verifiability` and the suggestions' scores are: 'engine' or 'ranker'. */
  scoreSignal?: 'engine' | 'ranker';
  /** Flagged as failed verification (score at or below the calibrated threshold, when one applies). */
  failedVerification: boolean;
  existing?: SourceView;
  /** Better-supporting documents from the index, best first. */
  suggestions: Suggestion[];
  ms?: number;
}

export interface AuditRunOptions {
  signal: AbortSignal;
  /** Citation ids audited already (a resumed job): skipped. */
  skip: ReadonlySet<string>;
  /** Called once per audited citation, in the order they finish. */
  onCitation: (result: CitationAudit) => void;
}

export interface CitationCheckInput {
  claim: string;
  context?: string[];
  title?: string;
  sectionPath?: string[];
  /** The cited source: a URL (looked up in the index; fetched with --fetch) or its text. */
  source: { url: string; title?: string } | { text: string; title?: string };
  /** Suggestions wanted (0 = none). */
  suggestions: number;
}

export interface AuditService {
  /** For /v1/health: which implementation runs. */
  readonly name: string;
  /** Audits every citation of the article not in `opts.skip`; resolves when all are done. */
  auditArticle(article: AuditInput, opts: AuditRunOptions): Promise<void>;
  checkCitation(input: CitationCheckInput, signal?: AbortSignal): Promise<CitationAudit>;
}
