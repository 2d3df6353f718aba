/**
 * Needs review, not a confident mistake (issue 28, item 4). A verdict carries the probability that its label
 * is right, P(right), from a small logistic model of what the verdict knows (its calibrated probabilities,
 * the deciding evidence's relevance, how the evidence sentences read one by one, the claim read against its
 * opposite). Below a stated level the verdict is still given, but marked "needs review" with the reason:
 * - conflicting-evidence: some evidence sentence reads as entailing the claim and another as contradicting it;
 * - off-topic: the deciding document's best evidence score is low (it may be about something else);
 * - uncertain: the engine's own reading is unsure.
 *
 * The model and its level are fitted leave-one-domain-out over SciFact, SNLI, RTE and WiCE
 * (src/learn/verdict/lodo.ts, `veracite tune-verdict --domains`; models/verdict-review.json), on the
 * decisions of the shipped verdict calibration, and applied only with the models it was fitted with.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntailmentProbs, ModelInfo } from '../models/types.js';
import { packageRoot } from '../util/package-root.js';
import type { Label, LabelProbs, Review, ReviewReason } from './types.js';

export const REVIEW_PATH = join(packageRoot(), 'models', 'verdict-review.json');

/**
 * What P(right) reads. Chosen leave-one-domain-out (docs/RESULTS-HISTORY.md): richer sets (the margin, the relevance,
 * the twin margin, the label) fitted the domains they were fitted on and ranked a held-out domain's verdicts
 * worse; relevance in particular means opposite things on SciFact (low: another subject, NOT ENOUGH INFO is
 * right) and SNLI (low: the evidence scorer does not know the style).
 */
export const REVIEW_FEATURES = ['confidence', 'agreement', 'sideMax', 'nei'] as const;

/** What one verdict knows that P(right) reads. */
export interface ReviewSignals {
  /** The verdict's (calibrated) label probabilities and label. */
  probs: LabelProbs;
  label: Label;
  /** Best evidence score of the deciding evidence (what the relevance gate reads). */
  relevance: number;
  /** P(entailment | claim) - max P(entailment | counter-claim) on the deciding evidence; 0 without one. */
  twinMargin: number;
  /** Each deciding evidence sentence read alone against the claim. */
  sentences: readonly EntailmentProbs[];
  /** The relevance gate in force. */
  gate: number;
}

export type { Review, ReviewReason };

export interface ReviewModel {
  features: string[];
  weights: number[];
  bias: number;
  /** Below this P(right) a verdict needs review. */
  level: number;
  fittedOn: { source: string; decisions: number };
  /** The evidence scorer and entailment model whose readings it was fitted on. */
  models?: Pick<ModelInfo, 'id' | 'version'>[];
  /**
   * The model for one cited source judged on its own (check, the audit: audit/support.ts), fitted on the
   * decisions of the calibration for one document, whose only reading is the joined evidence.
   */
  document?: ReviewModel;
}

/** Sentences read as entailing (contradicting) the claim at or above this, for the conflict reason. */
const CONFLICT = 0.4;
/** Deciding evidence scoring below this is called possibly off-topic. */
const OFF_TOPIC = 0.3;

function side(p: EntailmentProbs): Label {
  return p.entailment >= p.contradiction && p.entailment >= p.neutral ? 'SUPPORTS' : p.contradiction >= p.neutral ? 'REFUTES' : 'NOT ENOUGH INFO';
}

/** How far the evidence sentences, read one by one, point both ways: min(max entailment, max contradiction). */
export function conflictOf(sentences: readonly EntailmentProbs[]): number {
  if (!sentences.length) return 0;
  return Math.min(Math.max(...sentences.map((s) => s.entailment)), Math.max(...sentences.map((s) => s.contradiction)));
}

export function reviewFeatures(s: ReviewSignals): number[] {
  const agreement = s.sentences.length ? s.sentences.filter((p) => side(p) === s.label).length / s.sentences.length : 0;
  // The strongest reading of the verdict's own side by a sentence read alone.
  const own = (p: EntailmentProbs) => (s.label === 'SUPPORTS' ? p.entailment : s.label === 'REFUTES' ? p.contradiction : p.neutral);
  const sideMax = s.sentences.length ? Math.max(...s.sentences.map(own)) : 0;
  return [s.probs[s.label], agreement, sideMax, s.label === 'NOT ENOUGH INFO' ? 1 : 0];
}

export function pRightOf(m: ReviewModel, s: ReviewSignals): number {
  const x = reviewFeatures(s);
  const z = m.bias + m.weights.reduce((a, w, j) => a + w * (x[j] ?? 0), 0);
  return 1 / (1 + Math.exp(-z));
}

/** The review of one verdict: undefined when P(right) reaches the model's level. */
export function reviewOf(m: ReviewModel, s: ReviewSignals): Review | undefined {
  const pRight = pRightOf(m, s);
  if (pRight >= m.level) return undefined;
  // Rounded down: 0.5996 shown as 0.60 would read "0.60 is below 0.60".
  const p = `P(right) ${(Math.floor(pRight * 100) / 100).toFixed(2)} is below ${m.level.toFixed(2)}`;
  if (conflictOf(s.sentences) >= CONFLICT) return { reason: 'conflicting-evidence', message: `needs review: the evidence points both ways (one sentence reads as support, another as contradiction); ${p}`, pRight, level: m.level };
  if (s.relevance < Math.max(OFF_TOPIC, s.gate)) return { reason: 'off-topic', message: `needs review: the deciding document may be about something else (best evidence score ${s.relevance.toFixed(2)}); ${p}`, pRight, level: m.level };
  return { reason: 'uncertain', message: `needs review: the engine is uncertain; ${p}`, pRight, level: m.level };
}

/** The saved needs-review model when it was fitted with exactly these models (or names none); undefined otherwise. */
export function loadReviewModel(models: ModelInfo[], path = REVIEW_PATH): ReviewModel | undefined {
  if (!existsSync(path)) return undefined;
  let m: ReviewModel;
  try {
    m = JSON.parse(readFileSync(path, 'utf8')) as ReviewModel;
  } catch (e) {
    throw new Error(`${path}: not a needs-review model (${(e as Error).message})`);
  }
  if (!Array.isArray(m.weights) || m.features?.join() !== REVIEW_FEATURES.join()) return undefined;
  if (m.models) {
    const want = new Set(models.map((x) => `${x.id}@${x.version}`));
    if (m.models.length !== want.size || m.models.some((x) => !want.has(`${x.id}@${x.version}`))) return undefined;
  }
  return m;
}
