import type { CoverageDetail } from '../models/align/index.js';
import type { Document } from '../corpus/types.js';
import type { EntailmentProbs } from '../models/types.js';
import type { Provenance } from '../provenance/types.js';
import type { Finding } from './findings/findings.js';
import type { PairDecision } from './decision.js';
import type { LanguageReading } from '../text/language.js';

export type { Finding };

export const LABELS = ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'] as const;
export type Label = (typeof LABELS)[number];

export interface EvidenceSentence {
  docId: string;
  title: string;
  /** Index of the sentence in its document (FEVER line number, SciFact abstract sentence). */
  sentenceIndex: number;
  text: string;
  /** Evidence-selection score (higher = more likely evidence). */
  score: number;
  /** The page the sentence is on, when the document has one (every sentence found by search has). */
  url?: string;
  /** Entailment of the claim by this sentence read alone (the columbia rule decides on these; the concat rule on the sentences joined). */
  entailment?: EntailmentProbs;
  /**
   * What the sentence states against the claim, in words (findings/findings.ts: another figure, a change
   * the other way, a negation). A sentence with a finding is never read as support.
   */
  findings?: Finding[];
}

/** A finding of the verdict, with the evidence sentence it is in. */
export interface VerdictFinding extends Finding {
  docId: string;
  sentenceIndex: number;
}

export interface CandidateDocument {
  docId: string;
  title: string;
  /** Best passage score from retrieval (0 for documents found only by title). */
  score: number;
  /** How the document was found. */
  via: ('retrieval' | 'title')[];
  /** The document's page, when it has one. */
  url?: string;
}

export interface EvidenceSelectOptions {
  /** Sentences to return across all documents (the FEVER/Stammbach top 5). */
  k: number;
  /** Drop sentences scoring below this. */
  threshold?: number;
  /** Cancels the scoring (a request's deadline). */
  signal?: AbortSignal;
}

/** Scores the sentences of candidate documents as evidence for a claim. */
export interface EvidenceSelector {
  readonly name: string;
  select(claim: string, docs: Document[], opts: EvidenceSelectOptions): Promise<EvidenceSentence[]>;
}

export type LabelProbs = Record<Label, number>;

export interface Verdict {
  claim: string;
  /**
   * Set when the claim does not read as English (src/text/language.ts): the models and the index read English
   * only, so the label is a guess and no document is decided (could not check, language).
   */
  language?: { claim: LanguageReading; problem: string };
  label: Label;
  /** Probability of `label` after calibration. */
  confidence: number;
  probs: LabelProbs;
  /**
   * When the evidence comes from several documents and each was judged alone (`verdict.across:
   * 'by-document'`, the default, or 'by-rank'): the one whose evidence decided, the most relevant
   * (by-rank: the first in retrieval order) that takes a side.
   */
  decidedBy?: {
    docId: string;
    title: string;
    /** The deciding document's page, when it has one. */
    url?: string;
    /**
     * How much of the claim that document names (coverage.ts): shown, not read by `verify`'s calibration
     * (docs/DESIGN.md, "Claim coverage"). A verdict decided on a document that leaves out what the claim is
     * about ("aspirin" in a trial of tricyclics) is one to read with care.
     */
    coverage?: CoverageDetail & {
      /** The same in words: "names 2 of the claim's 4 subject words (not: aspirin, heart)". */
      text: string;
    };
  };
  /**
   * The claim's most entailed counter-claim (counter-claims.ts: its negation, its change the other way, an
   * antonym), as the deciding evidence reads it, beside the claim. Evidence that reads the opposite as
   * more entailed than the claim leans to REFUTES (the calibration reads the difference). Present when the
   * verdict takes a side, the calibration reads it, and the claim has a counter-claim.
   */
  opposite?: Opposite;
  /**
   * What the evidence the verdict rests on states against the claim (the deciding document's sentences;
   * without one, those of every document that passes the relevance gate). Absent when none.
   */
  findings?: VerdictFinding[];
  /**
   * The model's own reading when a decisive finding overruled it (the verdict is then REFUTES): its label
   * and probabilities, and the finding. The verdict's probabilities are then the model's with the support
   * mass given to REFUTES, not a calibrated probability.
   */
  overruled?: { label: Label; probs: LabelProbs; finding: VerdictFinding };
  /**
   * Needs review (review.ts): the probability that the label is right is below the stated level, with the
   * reason (conflicting evidence, an off-topic deciding document, an uncertain engine). The verdict is still
   * given; it is not one to act on unread. Absent when the needs-review model does not apply (other models).
   */
  review?: Review;
  /** The entailment engine and, for the offline one, its known weak spots that apply here (engine-notes.ts). */
  engine?: EngineNote;
  /**
   * The one decision (decision.ts) for the claim and each document its evidence comes from, computed as
   * `check` computes it for the same pair (app/verify-decisions.ts): the same band, probability and reason
   * as `check`, the audit, the web page and the gadget. Set by `veracite verify` (Veracite.decideDocuments).
   */
  documentDecisions?: DocumentDecision[];
  evidence: EvidenceSentence[];
  documents: CandidateDocument[];
  provenance: Provenance;
  timings: Record<string, number>;
}

/** One evidence document's decision, as `check` gives it for (claim, this document). */
export interface DocumentDecision {
  docId: string;
  title: string;
  url?: string;
  /** The best evidence score of this document's sentences in the verdict (verify's relevance). */
  relevance: number;
  /** Whether that relevance passes the verdict's relevance gate (the verdict takes a side only on such documents). */
  relevant: boolean;
  decision: PairDecision;
}

export interface Opposite {
  text: string;
  /** False when the rewrite does not read as a sentence (counter-claims.ts readsAsSentence): shown by its figures only. */
  readsAsSentence?: boolean;
  /** P(entailment) of the counter-claim on the deciding evidence (joined). */
  entailment: number;
  /** P(entailment) of the claim on the same evidence. */
  claimEntailment: number;
}

export type { Document };

/** Why a verdict needs review (review.ts). */
/** `judge`: the entailment model (an LLM judge) says its own reading cannot be trusted: an unreadable reply, an invented quote. */
export type ReviewReason = 'conflicting-evidence' | 'off-topic' | 'uncertain' | 'judge';

/** Needs review (review.ts): P(right) below the stated level, with the reason. */
export interface Review {
  reason: ReviewReason;
  /** The reason in words, for people. */
  message: string;
  /** The probability that the verdict's label is right. */
  pRight: number;
  /** The stated level below which a verdict needs review. */
  level: number;
}

export type WeakSpotKind = 'unaligned-number' | 'long-range-negation';

/** A known weak spot of the offline engine that applies to one verdict (engine-notes.ts). */
export interface WeakSpot {
  kind: WeakSpotKind;
  message: string;
}

/** The engine behind a verdict, and what it cannot do there (engine-notes.ts). */
export interface EngineNote {
  /** The entailment model's id. */
  name: string;
  /** The offline heads shipped with veracite (backend `trained`). */
  offline: boolean;
  /** The offline engine's known weak spots that apply to this verdict (none for another engine). */
  weakSpots: WeakSpot[];
}
