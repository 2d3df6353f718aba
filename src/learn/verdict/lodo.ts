/**
 * Leave-one-domain-out for the verdict layer (issue 28, items 1 and 4). For each labelled domain
 * (domains.ts) the verdict rule (calibrator, relevance gate, thresholds; the twin margin is a calibrator
 * input) is fitted on the OTHER domains and judged on the held-out one: label accuracy against the domain's
 * majority class, per-class recall, ECE of the stated confidence. Beside it, the shipped calibration
 * (fitted on SciFact train alone) on the same items.
 *
 * The needs-review model (verify/review.ts): a logistic regression of "the verdict is right" on what a
 * verdict knows at runtime (reviewFeatures), fitted on the decisions of the shipped rule, judged per
 * held-out domain by a model fitted on the other domains: AUROC of right-vs-wrong, selective accuracy at
 * 25/50/75/100% coverage, area under the risk-coverage curve (AURC, lower is better).
 */
import { aggregateColumbia, type AggregateConfig } from '../../verify/aggregate.js';
import { reliability } from '../../verify/reliability.js';
import { pRightOf, reviewFeatures, REVIEW_FEATURES, type ReviewModel, type ReviewSignals } from '../../verify/review.js';
import { LABELS, type Label, type LabelProbs } from '../../verify/types.js';
import { aggregateConfigOf, type RuleCalibration } from '../../verify/verdict-calibration.js';
import { Rng, subSeed } from '../../util/rng.js';
import { fitRule } from './fit-verdict.js';
import { isRight, knownOf, type LabelledPairs } from './labelled-pairs.js';
import type { DomainItem, DomainName } from './domains.js';

/** One item decided: the label, its probabilities, and what the needs-review model reads. */
export interface Decided {
  label: Label;
  probs: LabelProbs;
  right: boolean;
  signals: ReviewSignals;
}

/** The verdict rule an item is read by: the shipped calibration's bestRule (lite: concat; the verifier: columbia). */
export type ItemRule = 'concat' | 'columbia';

/**
 * The item read by `rule` (concat by default) decided by `cfg`, with the per-sentence readings of its columbia twin.
 * `document`: as the audit judges one cited source (support.ts): the calibration reads claim coverage, and the
 * only reading it has is the joined one.
 */
export function decideItem(item: DomainItem, cfg: AggregateConfig, document = false, rule: ItemRule = 'concat'): Decided {
  const it = item[rule];
  const known = { twinMargin: it.twinMargin ?? 0, ...(document && it.coverage !== undefined ? { coverage: it.coverage } : {}) };
  const { label, probs } = aggregateColumbia(it.evidence, cfg, it.relevance ?? 1, known);
  return { label, probs, right: isRight(it, label), signals: { probs, label, relevance: it.relevance ?? 0, twinMargin: it.twinMargin ?? 0, sentences: document ? it.evidence : item.columbia.evidence, gate: cfg.relevanceThreshold ?? 0 } };
}

/** P(right) of a needs-review model fitted on the other domains' decisions, on each held-out domain's. */
export function reviewHeldOut(decided: ReadonlyMap<DomainName, Decided[]>, domains: readonly DomainName[], o: { cap: number; seed: number; level: number }): Record<string, RiskCoverage> {
  const out: Record<string, RiskCoverage> = {};
  for (const held of domains) {
    const others = domains.filter((d) => d !== held);
    const model = fitReview(others.flatMap((d) => capped(decided.get(d)!, o.cap, o.seed, `review-${d}`)), o.level, others.join(' + '));
    const te = decided.get(held)!;
    out[held] = riskCoverage(te.map((d) => pRightOf(model, d.signals)), te.map((d) => d.right), o.level);
  }
  return out;
}

export interface DomainFigures {
  items: number;
  accuracy: number;
  /** The label right for the most items, and its share. */
  majority: { label: Label; accuracy: number };
  /** Per gold class: share decided right (RTE's not_entailment: NOT ENOUGH INFO or REFUTES). */
  recall: Partial<Record<Label, number>>;
  ece: number;
  /** Decided label counts. */
  predicted: Partial<Record<Label, number>>;
}

export function figuresOf(items: readonly DomainItem[], decided: readonly Decided[]): DomainFigures {
  // The most frequent gold label (ties: the most often right), and the share of items it is right for.
  const majority = LABELS.map((l) => ({ label: l, gold: items.filter((it) => it.concat.gold === l).length, accuracy: items.filter((it) => isRight(it.concat, l)).length / Math.max(items.length, 1) })).sort((a, b) => b.gold - a.gold || b.accuracy - a.accuracy)[0]!;
  const recall: Partial<Record<Label, number>> = {};
  const predicted: Partial<Record<Label, number>> = {};
  for (const l of LABELS) {
    const idx = items.flatMap((it, i) => (it.concat.gold === l ? [i] : []));
    if (idx.length) recall[l] = +(idx.filter((i) => decided[i]!.right).length / idx.length).toFixed(4);
    const n = decided.filter((d) => d.label === l).length;
    if (n) predicted[l] = n;
  }
  const rel = reliability(decided.map((d) => d.probs[d.label]), decided.map((d) => d.right));
  return { items: items.length, accuracy: +(decided.filter((d) => d.right).length / Math.max(decided.length, 1)).toFixed(4), majority: { label: majority.label, accuracy: +majority.accuracy.toFixed(4) }, recall, ece: +rel.ece.toFixed(4), predicted };
}

/** At most `cap` items of a domain (seeded): each fitting domain weighs about the same. */
export function capped<T>(items: readonly T[], cap: number, seed: number, tag: string): T[] {
  if (items.length <= cap) return items.slice();
  const keep = new Set(new Rng(subSeed(seed, tag)).sample(items.map((_, i) => i), cap));
  return items.filter((_, i) => keep.has(i));
}

/**
 * The calibrator families the leave-one-domain-out choice compares: `full`, the shipped form (relevance is a
 * calibrator input and the gate reads it); `no-relevance`, relevance read by the gate alone.
 */
export const FAMILIES = ['full', 'no-relevance'] as const;
export type Family = (typeof FAMILIES)[number];

export function fitOn(byDomain: ReadonlyMap<DomainName, DomainItem[]>, domains: readonly DomainName[], cap: number, seed: number, family: Family = 'full', rule: ItemRule = 'concat'): RuleCalibration {
  const pool: LabelledPairs[] = domains.flatMap((d) => capped(byDomain.get(d) ?? [], cap, seed, `lodo-${d}`).map((it) => stripCoverage(it[rule])));
  return fitRule(pool, `leave-one-domain-out (${family}): ${domains.join(' + ')}`, { relevanceInCalibrator: family === 'full' });
}

/** verify's rules read no coverage (VerdictCalibration.rules). */
export function stripCoverage({ coverage: _, ...it }: LabelledPairs): LabelledPairs {
  return it;
}

/** Binary logistic regression (full-batch gradient descent from zero, a little L2) of `y` on `xs`. */
export function fitLogistic(xs: readonly number[][], ys: readonly boolean[], iterations = 2000, l2 = 1e-3, rate = 0.5): { weights: number[]; bias: number } {
  const d = xs[0]?.length ?? 0;
  const n = Math.max(xs.length, 1);
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j]!, 0) / n);
  const std = Array.from({ length: d }, (_, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / n) || 1);
  const zs = xs.map((x) => x.map((v, j) => (v - mean[j]!) / std[j]!));
  const w = new Array<number>(d).fill(0);
  let b = 0;
  for (let it = 0; it < iterations; it++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    zs.forEach((z, i) => {
      const p = 1 / (1 + Math.exp(-(b + z.reduce((s, v, j) => s + v * w[j]!, 0))));
      const g = p - (ys[i] ? 1 : 0);
      gb += g / n;
      for (let j = 0; j < d; j++) gw[j]! += (g * z[j]!) / n;
    });
    b -= rate * gb;
    for (let j = 0; j < d; j++) w[j]! -= rate * (gw[j]! + l2 * w[j]!);
  }
  return { weights: w.map((v, j) => +(v / std[j]!).toFixed(6)), bias: +(b - w.reduce((s, v, j) => s + (v * mean[j]!) / std[j]!, 0)).toFixed(6) };
}

/** Fits the needs-review model on decisions (balanced across domains by `cap`). */
export function fitReview(decided: readonly Decided[], level: number, source: string): ReviewModel {
  const { weights, bias } = fitLogistic(decided.map((d) => reviewFeatures(d.signals)), decided.map((d) => d.right));
  return { features: [...REVIEW_FEATURES], weights, bias, level, fittedOn: { source, decisions: decided.length } };
}

export interface RiskCoverage {
  /** Accuracy of the verdicts kept when only the most confident share is answered. */
  selectiveAccuracy: Record<'25' | '50' | '75' | '100', number>;
  /** Area under the risk-coverage curve (mean error over every coverage); lower is better. */
  aurc: number;
  /** AUROC of P(right) for right against wrong verdicts. */
  auroc: number;
  /** The share answered (not sent to review) at the stated level, and their accuracy. */
  atLevel: { level: number; coverage: number; accuracy: number };
  /** The curve itself, 20 points (coverage, selective accuracy), for the report's chart. */
  curve: { coverage: number; accuracy: number }[];
}

export function riskCoverage(pRight: readonly number[], right: readonly boolean[], level: number): RiskCoverage {
  const order = pRight.map((p, i) => [p, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, i]) => i);
  const n = order.length;
  const accAt = (share: number) => {
    const k = Math.max(1, Math.round(share * n));
    return +(order.slice(0, k).filter((i) => right[i]).length / k).toFixed(4);
  };
  let errors = 0;
  let area = 0;
  for (let k = 0; k < n; k++) {
    if (!right[order[k]!]) errors++;
    area += errors / (k + 1);
  }
  const kept = pRight.flatMap((p, i) => (p >= level ? [i] : []));
  return {
    selectiveAccuracy: { '25': accAt(0.25), '50': accAt(0.5), '75': accAt(0.75), '100': accAt(1) },
    aurc: +(area / Math.max(n, 1)).toFixed(4),
    auroc: +auroc(pRight, right).toFixed(4),
    atLevel: { level, coverage: +(kept.length / Math.max(n, 1)).toFixed(4), accuracy: +(kept.filter((i) => right[i]).length / Math.max(kept.length, 1)).toFixed(4) },
    curve: Array.from({ length: 20 }, (_, i) => ({ coverage: (i + 1) / 20, accuracy: accAt((i + 1) / 20) })),
  };
}

/** Mann-Whitney AUROC (ties count half); 0.5 when one class is absent. */
export function auroc(score: readonly number[], positive: readonly boolean[]): number {
  const pos = score.filter((_, i) => positive[i]);
  const neg = score.filter((_, i) => !positive[i]);
  if (!pos.length || !neg.length) return 0.5;
  const ranked = score.map((s, i) => [s, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(score.length);
  for (let i = 0; i < ranked.length; ) {
    let j = i;
    while (j + 1 < ranked.length && ranked[j + 1]![0] === ranked[i]![0]) j++;
    for (let k = i; k <= j; k++) ranks[ranked[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const sumPos = positive.reduce((s, p, i) => s + (p ? ranks[i]! : 0), 0);
  return (sumPos - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length);
}

export interface LodoReport {
  domains: DomainName[];
  cap: number;
  seed: number;
  /** The calibrator family chosen leave-one-domain-out: the best worst-domain gain over the majority class. */
  family: Family;
  familyChoice: Record<Family, { worstGain: number; meanGain: number }>;
  /**
   * Per held-out domain: the shipped calibration (SciFact train alone), and each family fitted on the other
   * domains (`lodo`: the chosen family's).
   */
  verdict: Record<string, { shipped: DomainFigures; lodo: DomainFigures; families: Record<Family, DomainFigures & { rule: RuleSummary }> }>;
  /** The needs-review model on the shipped rule's decisions, fitted without the held-out domain. */
  review: Record<string, RiskCoverage>;
  /** The same on the chosen LODO-fitted rule's decisions (nested: its training decisions are out of domain too). */
  reviewLodoRule: Record<string, RiskCoverage>;
}

export type RuleSummary = Pick<RuleCalibration, 'supportThreshold' | 'refuteThreshold' | 'relevanceThreshold'>;

const gain = (f: DomainFigures) => f.accuracy - f.majority.accuracy;

/**
 * `shipped`: verify's fitted rule as it ships (models/verdict-calibration.json rules[bestRule]).
 * `level`: the stated P(right) below which a verdict is sent to review.
 */
export function leaveOneDomainOut(byDomain: ReadonlyMap<DomainName, DomainItem[]>, domains: readonly DomainName[], shipped: RuleCalibration, o: { cap: number; seed: number; level: number; log?: (line: string) => void; rule?: ItemRule }): LodoReport {
  const shippedCfg = aggregateConfigOf(shipped);
  const rule = o.rule ?? 'concat';
  const decidedShipped = new Map(domains.map((d) => [d, (byDomain.get(d) ?? []).map((it) => decideItem(it, shippedCfg, false, rule))] as const));
  const fitted = new Map<string, { rule: RuleCalibration; decided: Decided[]; figures: DomainFigures }>();
  for (const family of FAMILIES) {
    for (const held of domains) {
      const items = byDomain.get(held) ?? [];
      const fit = fitOn(byDomain, domains.filter((d) => d !== held), o.cap, o.seed, family, rule);
      const decided = items.map((it) => decideItem(it, aggregateConfigOf(fit), false, rule));
      fitted.set(`${family}/${held}`, { rule: fit, decided, figures: figuresOf(items, decided) });
      o.log?.(`${family} without ${held}: accuracy ${(100 * fitted.get(`${family}/${held}`)!.figures.accuracy).toFixed(1)}%`);
    }
  }
  const familyChoice = Object.fromEntries(
    FAMILIES.map((f) => {
      const gains = domains.map((d) => gain(fitted.get(`${f}/${d}`)!.figures));
      return [f, { worstGain: +Math.min(...gains).toFixed(4), meanGain: +(gains.reduce((a, b) => a + b, 0) / gains.length).toFixed(4) }];
    }),
  ) as LodoReport['familyChoice'];
  // Ties (within a point) go to the shipped form.
  const family: Family = familyChoice['no-relevance'].worstGain > familyChoice.full.worstGain + 0.01 ? 'no-relevance' : 'full';
  const report: LodoReport = { domains: [...domains], cap: o.cap, seed: o.seed, family, familyChoice, verdict: {}, review: {}, reviewLodoRule: {} };
  for (const held of domains) {
    const items = byDomain.get(held) ?? [];
    const others = domains.filter((d) => d !== held);
    const families = Object.fromEntries(FAMILIES.map((f) => {
      const x = fitted.get(`${f}/${held}`)!;
      return [f, { ...x.figures, rule: { supportThreshold: x.rule.supportThreshold, refuteThreshold: x.rule.refuteThreshold, relevanceThreshold: x.rule.relevanceThreshold ?? 0 } }];
    })) as LodoReport['verdict'][string]['families'];
    report.verdict[held] = { shipped: figuresOf(items, decidedShipped.get(held)!), lodo: families[family], families };
    // Nested, for the chosen family: each training domain's decisions by a rule fitted without it and without `held`.
    const nested = others.flatMap((e) => {
      const inner = fitOn(byDomain, others.filter((d) => d !== e), o.cap, o.seed, family, rule);
      return capped(byDomain.get(e) ?? [], o.cap, o.seed, `review-${e}`).map((it) => decideItem(it, aggregateConfigOf(inner), false, rule));
    });
    const nestedModel = fitReview(nested, o.level, others.join(' + '));
    const lodoDecided = fitted.get(`${family}/${held}`)!.decided;
    report.reviewLodoRule[held] = riskCoverage(lodoDecided.map((d) => pRightOf(nestedModel, d.signals)), lodoDecided.map((d) => d.right), o.level);
  }
  // Needs review on the shipped rule's decisions: fitted on the other domains' decisions.
  report.review = reviewHeldOut(decidedShipped, domains, o);
  return report;
}
