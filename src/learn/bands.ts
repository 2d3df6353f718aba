/**
 * Fits the audit's plain bands (audit/bands.ts) on labelled citations (WiCE: supported / partially_supported /
 * not_supported) and judges them out of fold by article.
 *
 * A citation's probability of support is made as the audit makes it: the support signal's weights
 * (learn/support-signal.ts) and its Platt curve (learn/probability.ts) fitted on the training citations, a
 * contradicted source capped at its P(supports). The three thresholds are then chosen on the training citations
 * to minimise the summed cost of the bands given (BAND_COSTS; needs-review costs REVIEW_COST whatever the
 * label), by exhaustive search over quantiles of the training probabilities. Out of fold: k folds over
 * articles, several fold seeds, every citation banded by a fit made without its article.
 */
import { bandOf, type BandThresholds, type CitationBand } from '../audit/bands.js';
import { probabilityOf } from '../audit/calibration.js';
import { supportSignal } from '../audit/support-signal.js';
import { fitProbability } from './probability.js';
import { fitSupportSignalWeights } from './support-signal.js';
import { Rng, subSeed } from '../util/rng.js';

export type WiceLabel3 = 'supported' | 'partially_supported' | 'not_supported';
export type DecidedBand = 'supported' | 'partly-supported' | 'not-supported';

export interface BandRow {
  /** P(supports) of the cited page (audit/support.ts). */
  probability: number;
  /** audit/page-similarity.ts */
  similarity: number;
  contradicted: boolean;
  label: WiceLabel3;
  group: string;
}

/**
 * Cost of showing a band for a label. A green badge on a citation that fails is the worst mistake (2); "partly"
 * on a failing one costs 1; a green badge on a partly supported citation 0.75 (more than the 0.5 of a missed
 * badge, "partly" for supported, or of "not" for partly). At 1 the supported band shrank to the single most
 * probable citation of WiCE dev (threshold 0.939), and out of fold its badge was right less often (48.8% against
 * 61.0%): WiCE's supported and partially supported citations overlap on this signal (docs/RESULTS-HISTORY.md).
 */
export const BAND_COSTS: Record<WiceLabel3, Record<DecidedBand, number>> = {
  supported: { supported: 0, 'partly-supported': 0.5, 'not-supported': 1 },
  partially_supported: { supported: 0.75, 'partly-supported': 0, 'not-supported': 0.5 },
  not_supported: { supported: 2, 'partly-supported': 1, 'not-supported': 0 },
};
/** Cost of sending a citation to review (an editor reads it): below the cost of a plain mistake. */
export const REVIEW_COST = 0.35;

export function bandCost(label: WiceLabel3, band: CitationBand): number {
  if (band === 'needs-review') return REVIEW_COST;
  if (band === 'could-not-check') return REVIEW_COST;
  return BAND_COSTS[label][band];
}

/** The audit's probability of support for each row, from weights and a curve fitted on `train`. */
export function probabilityModel(train: readonly BandRow[]): (r: BandRow) => number {
  const w = fitSupportSignalWeights(train.map((r) => ({ probability: r.probability, similarity: r.similarity, fails: r.label === 'not_supported', group: r.group })));
  const platt = fitProbability(train.map((r) => ({ signal: supportSignal(r.probability, r.similarity, w), supported: r.label === 'supported' })), 'train');
  return (r) => {
    const p = probabilityOf(platt, supportSignal(r.probability, r.similarity, w));
    return r.contradicted ? Math.min(p, r.probability) : p;
  };
}

/** Thresholds minimising the summed band cost on these (probability, contradicted, label) items. */
export function fitThresholds(items: readonly { p: number; contradicted: boolean; label: WiceLabel3 }[], grid = 40): BandThresholds {
  const sorted = items.map((i) => i.p).sort((a, b) => a - b);
  const cuts = [...new Set(Array.from({ length: grid + 1 }, (_, k) => sorted[Math.min(sorted.length - 1, Math.floor((k / grid) * (sorted.length - 1)))]!))];
  cuts.push(1.0000001);
  let best: { cost: number; t: BandThresholds } | undefined;
  for (let a = 0; a < cuts.length; a++)
    for (let b = a; b < cuts.length; b++)
      for (let c = b; c < cuts.length; c++) {
        const t = { notSupportedBelow: cuts[a]!, partlyFrom: cuts[b]!, supportedFrom: cuts[c]! };
        let cost = 0;
        for (const i of items) cost += bandCost(i.label, bandOf(i.p, i.contradicted, t));
        if (!best || cost < best.cost - 1e-12) best = { cost, t };
      }
  return best!.t;
}

export interface BandEvaluation {
  n: number;
  /** labels x bands, counts (needs-review as its own column). */
  confusion: Record<WiceLabel3, Record<Exclude<CitationBand, 'could-not-check'>, number>>;
  reviewShare: number;
  /** Share of decided (not sent to review) citations whose band matches the label. */
  accuracyDecided: number;
  /** Share of citations shown the green badge that WiCE calls supported. */
  supportedPrecision: number;
  /** not_supported citations shown the green badge. */
  notSupportedShownSupported: number;
  meanCost: number;
}

export function evaluateBands(items: readonly { band: Exclude<CitationBand, 'could-not-check'>; label: WiceLabel3 }[]): BandEvaluation {
  const empty = () => ({ supported: 0, 'partly-supported': 0, 'needs-review': 0, 'not-supported': 0 });
  const confusion = { supported: empty(), partially_supported: empty(), not_supported: empty() };
  let cost = 0;
  for (const i of items) {
    confusion[i.label][i.band]++;
    cost += bandCost(i.label, i.band);
  }
  const review = items.filter((i) => i.band === 'needs-review').length;
  const decided = items.length - review;
  const right = confusion.supported.supported + confusion.partially_supported['partly-supported'] + confusion.not_supported['not-supported'];
  const green = confusion.supported.supported + confusion.partially_supported.supported + confusion.not_supported.supported;
  return {
    n: items.length,
    confusion,
    reviewShare: items.length ? review / items.length : 0,
    accuracyDecided: decided ? right / decided : 0,
    supportedPrecision: green ? confusion.supported.supported / green : 0,
    notSupportedShownSupported: confusion.not_supported.supported,
    meanCost: items.length ? cost / items.length : 0,
  };
}

/** Every row banded by a fit made without its article, per fold seed. */
export function bandsOutOfFold(rows: readonly BandRow[], folds = 5, seeds: readonly number[] = [13, 14, 15, 16, 17]): { seed: number; bands: Exclude<CitationBand, 'could-not-check'>[]; evaluation: BandEvaluation }[] {
  const groups = [...new Set(rows.map((r) => r.group))].sort();
  return seeds.map((seed) => {
    const order = new Rng(subSeed(seed, 'band-folds')).shuffle(groups.slice());
    const fold = new Map(order.map((g, i) => [g, i % folds] as const));
    const bands = new Array<Exclude<CitationBand, 'could-not-check'>>(rows.length).fill('needs-review');
    for (let k = 0; k < folds; k++) {
      const train = rows.filter((r) => fold.get(r.group) !== k);
      const prob = probabilityModel(train);
      const t = fitThresholds(train.map((r) => ({ p: prob(r), contradicted: r.contradicted, label: r.label })));
      rows.forEach((r, i) => {
        if (fold.get(r.group) === k) bands[i] = bandOf(prob(r), r.contradicted, t);
      });
    }
    return { seed, bands, evaluation: evaluateBands(rows.map((r, i) => ({ band: bands[i]!, label: r.label }))) };
  });
}
