/**
 * One decision per (claim, source) pair (issue 36): the band a person reads, the number it rests on, why in
 * words, and whether a {{failed verification}} tag is proposed. The audit's band (audit/bands.ts), its
 * worklist (audit/todo.ts), the API's citation view the web page and the gadget read (audit/citation-view.ts,
 * field `decision`), `check` (app/check-source.ts) and `verify`'s per-document line all call `decidePair`, so
 * the same pair gets the same band and the same number everywhere.
 *
 *   1. A decisive explicit finding (findings/: the same quantity with another value, a reversed change, the
 *      claim's predicate negated, swapped sides of a contrast, "no effect" against an effect) makes the band
 *      not supported, stated in words; it is never shown under a supported band.
 *   2. Otherwise the probability of support is banded on one set of thresholds (BAND_THRESHOLDS, fitted on
 *      WiCE dev by scripts/learn/citation-bands.ts): supported from `supportedFrom`, partly supported from
 *      `partlyFrom`, needs review down to `notSupportedBelow`, not supported below it. A contradiction the
 *      entailment model reads without a finding to point to is a conflicting signal: needs review (likely
 *      fails verification, listed in the worklist) without a tag, unless the probability is below the band.
 *   3. A tag only where tags are right often enough: a decisive finding, or a probability below `tagBelow`;
 *      both measured out of fold on WiCE dev and the shipped sample (scripts/learn/tag-precision.ts,
 *      eval-results/tag-precision.json, docs/RESULTS-HISTORY.md). Any other low score is "needs review" or "not
 *      supported" without a tag: an editor reads the source.
 */

import { inertText } from '../util/inert-wikitext.js';

export type DecisionBand = 'supported' | 'partly-supported' | 'needs-review' | 'not-supported';

export interface DecisionThresholds {
  /** P(support) at or above: supported. */
  supportedFrom: number;
  /** At or above (and below supportedFrom): partly supported. */
  partlyFrom: number;
  /** Below: not supported; from here to partlyFrom: needs review. */
  notSupportedBelow: number;
  /** Below: a {{failed verification}} tag is proposed (without a decisive finding). */
  tagBelow: number;
}

/**
 * The one set of thresholds every surface quotes. Bands: fitted on all of WiCE dev (349 citations) by
 * scripts/learn/citation-bands.ts (out-of-fold figures in docs/RESULTS-HISTORY.md "Plain bands"). tagBelow: the
 * highest probability, within the not-supported band, whose tags stayed at precision >= 0.8 out of fold on
 * WiCE dev and the sample (scripts/learn/tag-precision.ts: every fold chose the band's own threshold, 0.147;
 * held-out precision 0.906 counting partially supported citations as rightly tagged, 0.469 counting only
 * not_supported; eval-results/tag-precision.json). A needs-review or partly-supported band never gets a tag.
 */
export const BAND_THRESHOLDS: DecisionThresholds = { supportedFrom: 0.434, partlyFrom: 0.186, notSupportedBelow: 0.147, tagBelow: 0.147 };

/** The precision a tag must reach, out of fold, to be proposed (issue 36). */
export const TAG_PRECISION_MIN = 0.8;

export const DECISION_LABELS: Record<DecisionBand, string> = {
  supported: 'supported',
  'partly-supported': 'partly supported',
  'needs-review': 'needs review',
  'not-supported': 'not supported',
};

/** What a decision reads: the probability of support and what states a conflict. */
export interface DecisionInput {
  /** Calibrated probability that the source supports the claim, 0-1 (undefined: no probability to band on). */
  probability?: number;
  /** A finding that states the conflict in so many words (its message), when one is decisive. */
  decisiveFinding?: { kind: string; message: string };
  /** The entailment model reads a contradiction, with no finding to point to. */
  modelContradiction?: boolean;
  /**
   * The judge says its reading of this pair cannot be trusted (an LLM judge's reply that could not be read, a
   * quote not in the source), in words: the pair is needs review whatever its probability, with no tag.
   */
  judgeReview?: string;
}

export interface PairDecision {
  band: DecisionBand;
  /** The band as written for people ("partly supported"). */
  label: string;
  /** The probability of support the band rests on (absent when there is none). */
  probability?: number;
  /** Why, in words, with the threshold it was read against. */
  reason: string;
  /** The decisive finding that set the band, in words. */
  finding?: string;
  /** Proposed {{failed verification}} tag: only when precise enough (see the module comment). */
  tag?: { template: 'failed verification'; why: string };
  /** The thresholds it was decided on (the same for every surface). */
  thresholds: DecisionThresholds;
}

const f2 = (x: number) => x.toFixed(2);

/** The band of a probability alone. */
export function bandOfProbability(p: number, t: DecisionThresholds = BAND_THRESHOLDS): DecisionBand {
  if (p >= t.supportedFrom) return 'supported';
  if (p >= t.partlyFrom) return 'partly-supported';
  if (p >= t.notSupportedBelow) return 'needs-review';
  return 'not-supported';
}

export function decidePair(x: DecisionInput, t: DecisionThresholds = BAND_THRESHOLDS): PairDecision {
  const p = x.probability !== undefined && Number.isFinite(x.probability) ? x.probability : undefined;
  const base = { thresholds: t, ...(p !== undefined ? { probability: p } : {}) };
  const out = (band: DecisionBand, reason: string, extra: Partial<PairDecision> = {}): PairDecision => ({ band, label: DECISION_LABELS[band], reason, ...base, ...extra });
  // A judge that could not answer does not answer: neither supported nor not supported (its probability is the
  // equal split of a reply it could not read, not a reading).
  if (x.judgeReview) return out('needs-review', `${x.judgeReview.replace(/^needs review: /, '')} (no tag proposed): read the source`);
  if (x.decisiveFinding) {
    const why = `the source states otherwise: ${x.decisiveFinding.message}`;
    return out('not-supported', why, { finding: x.decisiveFinding.message, tag: { template: 'failed verification', why } });
  }
  if (p === undefined) return out('needs-review', 'scored, but without a probability of support to band on (an explicit --threshold or an old calibration)');
  const band = bandOfProbability(p, t);
  if (x.modelContradiction && band !== 'not-supported') {
    return out('needs-review', `conflicting signals: probability of support ${f2(p)}, but the entailment model reads a contradiction it cannot point to in words (no tag proposed): read the source`);
  }
  const reasons: Record<DecisionBand, string> = {
    supported: `probability of support ${f2(p)} (supported from ${f2(t.supportedFrom)})`,
    'partly-supported': `probability of support ${f2(p)}: the source supports part of the claim (partly from ${f2(t.partlyFrom)}, supported from ${f2(t.supportedFrom)})`,
    'needs-review': `probability of support ${f2(p)}: too close to call (between ${f2(t.notSupportedBelow)} and ${f2(t.partlyFrom)})`,
    'not-supported': `probability of support ${f2(p)} (not supported below ${f2(t.notSupportedBelow)})`,
  };
  const tag = p < t.tagBelow ? { tag: { template: 'failed verification' as const, why: `probability of support ${f2(p)}, below ${f2(t.tagBelow)}` } } : {};
  const noTag = band === 'not-supported' && !tag.tag ? `; no tag proposed above ${f2(t.tagBelow)}: read the source` : '';
  return out(band, reasons[band] + (x.modelContradiction ? '; the entailment model also reads a contradiction' : '') + noTag, tag);
}

/** A decision's tag as wikitext: the template with its date and reason. */
export function tagWikitext(d: Pick<PairDecision, 'tag'>, month: string): string | undefined {
  if (!d.tag) return undefined;
  // The reason may quote the source (a finding's words and figures): made inert, as a proposed citation is.
  const reason = inertText(`veracite: ${d.tag.why}`);
  return `{{failed verification|date=${month}|reason=${reason}}}`;
}
