/**
 * From entailment probabilities to a verdict.
 *
 * - columbia (per pair, ColumbiaNLP): the claim is SUPPORTED if some evidence sentence entails it,
 *   REFUTED if none entails it and some sentence contradicts it, otherwise NOT ENOUGH INFO. With
 *   probabilities: support = max entailment over pairs, refute = max contradiction, each compared to a
 *   threshold; the label probabilities are those maxima with NEI taking the remaining mass.
 * - concat: one prediction with the top evidence sentences concatenated as the premise.
 */
import type { EntailmentProbs } from '../models/types.js';
import type { Label, LabelProbs } from './types.js';

export const VERDICT_RULES = ['columbia', 'concat'] as const;
export type VerdictRule = (typeof VERDICT_RULES)[number];

export interface AggregateConfig {
  /** Minimum entailment (contradiction) probability for SUPPORTS (REFUTES). */
  supportThreshold: number;
  refuteThreshold: number;
  /** Softmax temperature applied to the label probabilities (fitted on held-out data; 1 = none). */
  temperature: number;
}

export const DEFAULT_AGGREGATE: AggregateConfig = { supportThreshold: 0.5, refuteThreshold: 0.5, temperature: 1 };

export function labelOf(probs: LabelProbs, cfg: AggregateConfig): Label {
  if (probs.SUPPORTS >= cfg.supportThreshold && probs.SUPPORTS >= probs.REFUTES) return 'SUPPORTS';
  if (probs.REFUTES >= cfg.refuteThreshold) return 'REFUTES';
  return 'NOT ENOUGH INFO';
}

function normalise(p: LabelProbs, temperature: number): LabelProbs {
  const entries = Object.entries(p) as [keyof LabelProbs, number][];
  const logits = entries.map(([, v]) => Math.log(Math.max(v, 1e-9)) / temperature);
  const m = Math.max(...logits);
  const exps = logits.map((l) => Math.exp(l - m));
  const z = exps.reduce((a, b) => a + b, 0);
  return Object.fromEntries(entries.map(([k], i) => [k, exps[i]! / z])) as LabelProbs;
}

export function fromEntailment(e: EntailmentProbs, temperature = 1): LabelProbs {
  return normalise({ SUPPORTS: e.entailment, REFUTES: e.contradiction, 'NOT ENOUGH INFO': e.neutral }, temperature);
}

/** ColumbiaNLP's rule over per-sentence entailment probabilities. */
export function aggregateColumbia(pairs: EntailmentProbs[], cfg: AggregateConfig = DEFAULT_AGGREGATE): { label: Label; probs: LabelProbs } {
  if (pairs.length === 0) return { label: 'NOT ENOUGH INFO', probs: { SUPPORTS: 0, REFUTES: 0, 'NOT ENOUGH INFO': 1 } };
  const support = Math.max(...pairs.map((p) => p.entailment));
  const refute = Math.max(...pairs.map((p) => p.contradiction));
  const raw: LabelProbs = { SUPPORTS: support, REFUTES: refute, 'NOT ENOUGH INFO': Math.max(1e-6, 1 - Math.max(support, refute)) };
  const probs = normalise(raw, cfg.temperature);
  // The decision uses the raw maxima, as the rule is stated; probabilities are reported normalised.
  return { label: labelOf(raw, cfg), probs };
}

export function aggregateConcat(e: EntailmentProbs, cfg: AggregateConfig = DEFAULT_AGGREGATE): { label: Label; probs: LabelProbs } {
  const raw: LabelProbs = { SUPPORTS: e.entailment, REFUTES: e.contradiction, 'NOT ENOUGH INFO': e.neutral };
  return { label: labelOf(raw, cfg), probs: normalise(raw, cfg.temperature) };
}
