/**
 * The one number a person reads for each citation of an audit, and its flag threshold on the same scale.
 *
 * With a calibration that carries a probability fit (every shipped calibration does: see
 * models/calibration/README.md), that number is the probability that the cited source supports the claim,
 * 0..1, and the threshold is read on that scale too (provenance.flagging.probabilityThreshold). The fit is
 * monotone in the flag signal, so ordering and flags are the same as on the raw signal. Without one (an
 * old calibration, or a hand-set --threshold) the raw signal the flag is decided on is shown, named.
 */
import { BAND_THRESHOLDS } from '../verify/decision.js';
import type { AuditReport, CitationAudit, Suggestion } from './types.js';

export type FlagSignal = 'engine' | 'ranker' | 'support';

export interface ReportScale {
  /** 'probability' when the numbers are calibrated probabilities of support, else the raw flag signal. */
  kind: 'probability' | FlagSignal;
  /** What the number is, in words, for headings and axis titles. */
  name: string;
  /** True when the number lies in 0..1 (a bar can show it). */
  bounded: boolean;
  /** The flag threshold on this scale: citations at or below it are flagged. */
  threshold?: number;
  /** What the probability means (from the calibration), when kind is 'probability'. */
  meaning?: string;
  /** The citation's number on this scale (call only for citations with a verification). */
  of(c: CitationAudit): number;
  /** A suggested source's number on this scale, when it has one. */
  ofSuggestion(s: Suggestion): number | undefined;
}

/** The score a citation is flagged on: the engine's, the source ranker's, or the support signal (the NLI model's probability of support, alone or with the page similarity). */
export function signalScore(c: CitationAudit, signal: FlagSignal = 'engine'): number {
  const v = c.verification!;
  if (signal === 'support' && v.supportSignal !== undefined) return v.supportSignal;
  if (signal === 'support' && v.support !== undefined) return v.support;
  return signal === 'ranker' && v.rankerScore !== undefined ? v.rankerScore : v.score;
}

const SIGNAL_NAMES: Record<FlagSignal, string> = {
  engine: 'verification score',
  ranker: 'source-ranker score',
  support: 'support signal (NLI probability of support, or with the page similarity)',
};

export function reportScale(report: Pick<AuditReport, 'citations' | 'provenance'>): ReportScale {
  const f = report.provenance.flagging;
  const signal: FlagSignal = f.signal ?? 'engine';
  const scored = report.citations.filter((c) => c.verification);
  const calibrated = scored.length > 0 && scored.every((c) => c.verification!.probability !== undefined);
  if (calibrated) {
    return {
      kind: 'probability',
      name: 'probability of support',
      bounded: true,
      // One threshold (verify/decision.ts): likely fails verification = the "not supported" band, on every surface.
      threshold: (f.bands ?? BAND_THRESHOLDS).notSupportedBelow,
      ...(f.meaning ? { meaning: f.meaning } : {}),
      of: (c) => c.verification!.probability!,
      ofSuggestion: (s) => s.probability,
    };
  }
  const scorer = report.provenance.models[0];
  return {
    kind: signal,
    name: SIGNAL_NAMES[signal],
    // The ranker's score is a linear score; the engine's lies in 0..1 for the trained and lexical scorers.
    // The support signal is P(supports) (0..1) unless the calibration combines it with the page similarity (log-odds).
    bounded: signal === 'support' ? scored.every((c) => c.verification!.supportSignal === undefined) : signal !== 'ranker' && (scorer?.backend === 'trained' || scorer?.backend === 'lexical'),
    ...(f.threshold !== undefined ? { threshold: f.threshold } : {}),
    of: (c) => signalScore(c, signal),
    ofSuggestion: (s) => (signal === 'ranker' ? s.rerankScore : signal === 'support' ? s.support : s.score),
  };
}

/**
 * Scored citations least verifiable first, on the number people read (reportScale: the probability of
 * support when every scored citation has one, which a contradicted source caps; else the flag signal), then
 * the unscored ones in article order.
 */
export function orderForReport(citations: readonly CitationAudit[], signal: FlagSignal = 'engine'): { scored: CitationAudit[]; unscored: CitationAudit[] } {
  const withScore = citations.filter((c) => c.verification);
  const calibrated = withScore.length > 0 && withScore.every((c) => c.verification!.probability !== undefined);
  const key = (c: CitationAudit) => (calibrated ? c.verification!.probability! : signalScore(c, signal));
  const scored = withScore.sort((a, b) => key(a) - key(b) || a.index - b.index);
  const unscored = citations.filter((c) => !c.verification).sort((a, b) => a.index - b.index);
  return { scored, unscored };
}
