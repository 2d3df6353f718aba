/**
 * From entailment probabilities to a verdict.
 *
 * - columbia (per pair, ColumbiaNLP): the claim is SUPPORTED if some evidence sentence entails it,
 *   REFUTED if none entails it and some sentence contradicts it, otherwise NOT ENOUGH INFO. With
 *   probabilities: support = max entailment over pairs, refute = max contradiction, each compared to a
 *   threshold; the label probabilities are those maxima with NEI taking the remaining mass.
 * - concat: one prediction with the top evidence sentences concatenated as the premise.
 *
 * Relevance gate: SUPPORTS or REFUTES only when some evidence is relevant enough (the best evidence
 * score >= relevanceThreshold, fitted on SciFact train); otherwise NOT ENOUGH INFO, whatever the
 * entailment model says about text that is not about the claim.
 *
 * Probabilities: with a fitted calibrator (calibrate-verdict.ts) the label probabilities are a small
 * multinomial logistic model over [ln P(support), ln P(refute), ln P(neither), relevance, ...inputs],
 * fitted by likelihood on SciFact train: P(SUPPORTS) is then "the probability that the evidence found
 * supports the claim" on that data's terms. The further inputs (the calibrator's `inputs`):
 * - coverage, the share of the claim's subject words that the document's best passage contains
 *   (src/verify/coverage.ts): a source on the claim's subject that never names what the claim is about gets
 *   little chance to support or refute it. Only the calibration for a document judged on its own reads it
 *   (VerdictCalibration.documentRules).
 * - twinMargin, how much more the evidence entails the claim than the claim's own counter-claims
 *   (counter-claims.ts): evidence that reads the claim's opposite as entailed says the opposite. Read by
 *   the concat rule's calibrations.
 * Without a calibrator, a temperature-scaled normalisation of the raw probabilities.
 */
import type { EntailmentProbs } from '../models/types.js';
import { LABELS, type Label, type LabelProbs } from './types.js';

export const VERDICT_RULES = ['columbia', 'concat'] as const;
export type VerdictRule = (typeof VERDICT_RULES)[number];

/**
 * How evidence from several documents becomes one verdict. `pooled`: the rule reads all top-k sentences
 * together (ColumbiaNLP on FEVER). `by-document`: the rule decides each document's sentences on their own
 * (the unit it was fitted on: one claim and one abstract), and the most relevant document that takes a
 * side decides; a contradiction about another subject in a less relevant document cannot outvote it.
 * `by-rank`: the same per-document decisions, but the first document in document retrieval's order that
 * takes a side decides (title matches first, as ColumbiaNLP ranks them, then by retrieval score) instead
 * of the one with the best evidence score: retrieval ranks what a claim is about from the whole document,
 * the evidence score from five sentences.
 */
export const ACROSS_DOCUMENTS = ['pooled', 'by-document', 'by-rank'] as const;
export type AcrossDocuments = (typeof ACROSS_DOCUMENTS)[number];

/** A calibrator input beyond the raw probabilities and the relevance. */
export type CalibratorInput = 'coverage' | 'twinMargin';

/** What one decision knows beyond its entailment probabilities; a calibrator reads those in its `inputs`. */
export interface DecisionInputs {
  coverage?: number;
  twinMargin?: number;
}

/** The value an input takes when it was not computed: nothing missing, no counter-claim. */
const NEUTRAL_INPUT: Record<CalibratorInput, number> = { coverage: 1, twinMargin: 0 };

/**
 * Multinomial logistic calibration: logits[k] = bias[k] + weights[k] . [ln pS, ln pR, ln pN, relevance, ...inputs],
 * k in LABELS order.
 */
export interface VerdictCalibrator {
  weights: number[][];
  bias: number[];
  /** The inputs after the first four, in order. Absent in older files: coverage when there are five weights. */
  inputs?: CalibratorInput[];
}

/** The calibrator's inputs after the first four. */
export function calibratorInputs(c: VerdictCalibrator): CalibratorInput[] {
  return c.inputs ?? ((c.weights[0]?.length ?? 4) > 4 ? ['coverage'] : []);
}

export interface AggregateConfig {
  /** Minimum entailment (contradiction) probability for SUPPORTS (REFUTES); on calibrated probabilities when a calibrator is set. */
  supportThreshold: number;
  refuteThreshold: number;
  /** Softmax temperature applied to the label probabilities when there is no calibrator (1 = none). */
  temperature: number;
  /** Relevance gate: below this best evidence score the verdict is NOT ENOUGH INFO (0 = no gate). */
  relevanceThreshold?: number;
  calibrator?: VerdictCalibrator;
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

/** The calibrator's input vector: raw label probabilities, a relevance, then `inputs` from `known` (neutral when not computed). */
export function calibratorFeatures(raw: LabelProbs, relevance: number, known: DecisionInputs = {}, inputs: readonly CalibratorInput[] = []): number[] {
  const x = [Math.log(Math.max(raw.SUPPORTS, 1e-6)), Math.log(Math.max(raw.REFUTES, 1e-6)), Math.log(Math.max(raw['NOT ENOUGH INFO'], 1e-6)), relevance];
  return [...x, ...inputs.map((k) => known[k] ?? NEUTRAL_INPUT[k])];
}

/** The calibrated label probabilities of one decision. */
export function calibrated(c: VerdictCalibrator, raw: LabelProbs, relevance: number, known: DecisionInputs = {}): LabelProbs {
  return applyCalibrator(c, calibratorFeatures(raw, relevance, known, calibratorInputs(c)));
}

/** A feature the calibrator has a weight for but `x` lacks counts as 1. */
export function applyCalibrator(c: VerdictCalibrator, x: readonly number[]): LabelProbs {
  const logits = LABELS.map((_, k) => c.bias[k]! + c.weights[k]!.reduce((s, w, j) => s + w * (x[j] ?? 1), 0));
  const m = Math.max(...logits);
  const e = logits.map((l) => Math.exp(l - m));
  const z = e.reduce((a, b) => a + b, 0);
  return Object.fromEntries(LABELS.map((l, k) => [l, e[k]! / z])) as LabelProbs;
}

export function fromEntailment(e: EntailmentProbs, temperature = 1): LabelProbs {
  return normalise({ SUPPORTS: e.entailment, REFUTES: e.contradiction, 'NOT ENOUGH INFO': e.neutral }, temperature);
}

/** Whether the relevance gate lets a SUPPORTS / REFUTES verdict through. */
export function passesGate(relevance: number, cfg: AggregateConfig): boolean {
  return relevance >= (cfg.relevanceThreshold ?? 0);
}

function decide(raw: LabelProbs, cfg: AggregateConfig, relevance: number, known: DecisionInputs): { label: Label; probs: LabelProbs } {
  const probs = cfg.calibrator ? calibrated(cfg.calibrator, raw, relevance, known) : normalise(raw, cfg.temperature);
  // Thresholds apply to the calibrated probabilities when there is a calibrator (they were fitted on them),
  // else to the raw ones, as the rule is stated.
  const label = passesGate(relevance, cfg) ? labelOf(cfg.calibrator ? probs : raw, cfg) : 'NOT ENOUGH INFO';
  return { label, probs };
}

/**
 * ColumbiaNLP's rule over per-sentence entailment probabilities. `relevance` = the best evidence score
 * (default 1: no gate effect for callers without one); `known` = the decision's further inputs (coverage,
 * twin margin), read only by a calibrator fitted with them (absent: neutral).
 */
export function aggregateColumbia(pairs: EntailmentProbs[], cfg: AggregateConfig = DEFAULT_AGGREGATE, relevance = 1, known: DecisionInputs = {}): { label: Label; probs: LabelProbs } {
  if (pairs.length === 0) return { label: 'NOT ENOUGH INFO', probs: { SUPPORTS: 0, REFUTES: 0, 'NOT ENOUGH INFO': 1 } };
  const support = Math.max(...pairs.map((p) => p.entailment));
  const refute = Math.max(...pairs.map((p) => p.contradiction));
  const raw: LabelProbs = { SUPPORTS: support, REFUTES: refute, 'NOT ENOUGH INFO': Math.max(1e-6, 1 - Math.max(support, refute)) };
  return decide(raw, cfg, relevance, known);
}

export function aggregateConcat(e: EntailmentProbs, cfg: AggregateConfig = DEFAULT_AGGREGATE, relevance = 1, known: DecisionInputs = {}): { label: Label; probs: LabelProbs } {
  return decide({ SUPPORTS: e.entailment, REFUTES: e.contradiction, 'NOT ENOUGH INFO': e.neutral }, cfg, relevance, known);
}

/**
 * The by-document combination: `decisions` in order of relevance (most relevant document first). The first
 * one that says SUPPORTS or REFUTES decides; when none does, the most relevant one (NOT ENOUGH INFO).
 */
export function decideAcrossDocuments<T extends { label: Label }>(decisions: readonly T[]): T | undefined {
  return decisions.find((d) => d.label !== 'NOT ENOUGH INFO') ?? decisions[0];
}
