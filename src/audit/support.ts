/**
 * "Does this source support the claim?" as one calibrated probability, for the audit's cited source and
 * its suggested sources: the same verdict machinery as `veracite verify` (concat rule), applied to the
 * document's best evidence sentences. P(supports) = the calibrated SUPPORTS probability of that verdict
 * (fitted on SciFact train, models/verdict-calibration.json).
 *
 * The relevance gate of the verdict rule applies here too: a source whose best sentence scores below the
 * gate is `relevant: false`, and the gate's relevance is an input of the calibrated probability, so such a
 * source gets a low P(supports). In the audit only `contradicted` flags a source whatever the flag signal
 * says (audit.ts): the gate and the verdict's REFUTES alone (`fails`) were fitted on SciFact abstracts and
 * on WiCE's Wikipedia claims fail 52 of 115 supported citations against 38 of 43 unsupported ones
 * (eval-results/support-detection.json `failsByLabel`), too often wrong to flag by themselves.
 */
import type { EntailmentModel, ModelInfo } from '../models/types.js';
import { aggregateConcat, calibratorInputs, passesGate, type AggregateConfig } from '../verify/aggregate.js';
import { counterClaims, counterPairs, splitCounterReads } from '../verify/counter-claims.js';
import { aggregateConfigOf, loadVerdictCalibration, oneSourceRule } from '../verify/verdict-calibration.js';
import type { Label, LabelProbs } from '../verify/types.js';
import { explicitConflict, type ConflictKind } from '../verify/explicit-conflict.js';
import { loadReviewModel, reviewOf, type Review, type ReviewModel } from '../verify/review.js';
import { capStatedConflict } from '../verify/stated-conflict.js';
import { evidenceFindings, readWithFindings, sourceFindings, type Finding } from '../verify/findings/findings.js';

export interface SupportModel {
  entailment: EntailmentModel;
  /** The concat rule's fitted configuration: thresholds, relevance gate, probability calibrator. */
  verdict: AggregateConfig;
  info: ModelInfo;
  /** Needs review for one cited source (verify/review.ts, the `document` model), when fitted for these models. */
  review?: ReviewModel;
}

export interface SupportJudgement {
  /** Calibrated probability that the source supports the claim, in [0, 1]. */
  probability: number;
  /** The verdict on this source alone. */
  label: Label;
  probs: LabelProbs;
  /** The best evidence sentence passes the relevance gate. */
  relevant: boolean;
  /**
   * The entailment model reads a contradiction in relevant evidence with raw probability >= CONTRADICTED_MIN,
   * and the evidence states the conflict in so many words (explicit-conflict.ts: "double the risk" against
   * "a 71% reduction in risk"): the source contradicts the claim.
   */
  contradicted: boolean;
  /** What states the conflict, when `contradicted`. */
  conflict?: ConflictKind;
  /**
   * What the best evidence states against the claim, in words (src/verify/findings). A decisive one in
   * relevant evidence makes the source `contradicted`, whatever the NLI head's contradiction.
   */
  findings?: Finding[];
  /**
   * The verdict rule's own reading, as `veracite verify` would give it: not relevant, REFUTES, or
   * contradicted. Reported (scripts/learn/support-detection.ts); the audit flags on `contradicted` only.
   */
  fails: boolean;
  /** Needs review (verify/review.ts): P(right) of this verdict is below the stated level, with the reason. */
  review?: Review;
}

/** The conflict a decisive finding states (explicit-conflict.ts kinds). */
const CONFLICT_OF_FINDING: Record<Finding['kind'], ConflictKind> = { quantity: 'number', direction: 'direction', negation: 'negation' };

/** Findings of the whole source and of its best evidence, each said once, decisive ones first. */
function mergeFindings(...lists: readonly Finding[][]): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const f of lists.flat()) if (!seen.has(f.message)) (seen.add(f.message), out.push(f));
  return out.sort((a, b) => Number(b.decisive) - Number(a.decisive));
}

/**
 * Raw contradiction probability (NLI head, concatenated best evidence) from which relevant evidence counts as
 * contradicting the claim. High on purpose: on WiCE dev the head's contradictions on Wikipedia claims are
 * mostly wrong below it (scripts/learn/support-detection.ts reports the cost).
 */
export const CONTRADICTED_MIN = 0.9;

/**
 * The support model for an audit engine: its NLI model (the composition root loads it on the engine's
 * encoder) with the verdict calibration fitted for exactly (scorer, NLI model). The reason instead when
 * there is none. `calibrationPath`: a profile's verdict calibration (else the shipped one); `reviewPath`: that
 * profile's needs-review model, fitted on its own decisions (a profile without one marks nothing for review).
 */
export function supportModel(scorer: ModelInfo, entailment: EntailmentModel, calibrationPath?: string, reviewPath?: string): SupportModel | { reason: string } {
  // A model profile (veracite models) brings its own verdict calibration; else the shipped one.
  const cal = loadVerdictCalibration([scorer, entailment.info], ...(calibrationPath ? [calibrationPath] : []));
  // The cited source is one document judged on its own: the calibration that reads claim coverage.
  const fitted = oneSourceRule(cal);
  if (!fitted?.calibrator) return { reason: `no support probability: ${calibrationPath ?? 'models/verdict-calibration.json'} was not fitted for ${scorer.id} + ${entailment.info.id} (run veracite tune-verdict)` };
  // Needs review: the model fitted on the decisions of this calibration (the shipped one's, or the profile's own).
  const review = (calibrationPath ? (reviewPath ? loadReviewModel([scorer, entailment.info], reviewPath) : undefined) : loadReviewModel([scorer, entailment.info]))?.document;
  return { entailment, verdict: aggregateConfigOf(fitted), info: entailment.info, ...(review ? { review } : {}) };
}

/**
 * Judges several (claim, evidence sentences) at once: one entailment call for all of them, the claim's
 * counter-claims included (src/verify/counter-claims.ts: their twin margin is an input of the calibrated
 * probability, as in `verify`). `coverage`: the source's claim coverage (src/verify/coverage.ts), another
 * input (1 when absent).
 */
export async function judgeSupport(model: SupportModel, items: readonly { claim: string; evidence: readonly { text: string; score: number }[]; coverage?: number; sentences?: readonly string[] }[]): Promise<(SupportJudgement | undefined)[]> {
  const withText = items.map((it, i) => ({ i, premise: it.evidence.map((e) => e.text).join(' '), claim: it.claim })).filter((x) => x.premise.trim());
  // The evidence sentences behind each joined premise (findings read them one by one where it matters).
  const partsOf = new Map(items.map((it) => [it.evidence.map((e) => e.text).join(' '), it.evidence.map((e) => e.text)] as const));
  // The source's best evidence is read for findings as one text: a sentence's subject may be named in the
  // one before it ("The Great Wall of China ..." / "... the total length of all its sections at 21,196 km").
  // The claim's counter-claims, read on the same evidence, when the calibration reads the twin margin.
  const readsMargin = !!model.verdict.calibrator && calibratorInputs(model.verdict.calibrator).includes('twinMargin');
  const counters = new Map<string, string[]>();
  for (const x of withText) if (!counters.has(x.claim)) counters.set(x.claim, readsMargin ? counterClaims(x.claim) : []);
  const pairsOf = withText.map((x) => counterPairs(x.claim, [x.premise], counters.get(x.claim)!));
  const pairs = pairsOf.flat();
  const raw = pairs.length ? await model.entailment.predict(pairs) : [];
  // Read as verify reads the joined sentences: a stated opposite change is not support (stated-conflict.ts),
  // nor is evidence with a finding (another figure, the opposite change, a negation: findings/findings.ts).
  const read = raw.map((p, j) => readWithFindings(capStatedConflict(pairs[j]!.hypothesis, pairs[j]!.premise, p), evidenceFindings(pairs[j]!.hypothesis, partsOf.get(pairs[j]!.premise) ?? [pairs[j]!.premise])));
  const out: (SupportJudgement | undefined)[] = items.map(() => undefined);
  let at = 0;
  withText.forEach((x, k) => {
    const n = pairsOf[k]!.length;
    const [reading] = splitCounterReads(read.slice(at, at + n), 1, counters.get(x.claim)!);
    const rawOwn = raw[at]!;
    at += n;
    const relevance = Math.max(...items[x.i]!.evidence.map((e) => e.score));
    const v = aggregateConcat(reading!.claim, model.verdict, relevance, { ...(items[x.i]!.coverage !== undefined ? { coverage: items[x.i]!.coverage } : {}), ...(readsMargin ? { twinMargin: reading!.margin } : {}) });
    const relevant = passesGate(relevance, model.verdict);
    const best = evidenceFindings(x.claim, partsOf.get(x.premise) ?? [x.premise]);
    // The whole source read for what states the conflict in so many words (a no-effect sentence the scorer
    // ranks low, a swapped contrast): decisive wherever it is, as for `check` (verify/decision.ts).
    const whole = items[x.i]!.sentences ? sourceFindings(x.claim, items[x.i]!.sentences!) : [];
    const findings = mergeFindings(whole, best);
    // A decisive finding states the conflict in so many words, whatever the head's contradiction.
    const decisive = relevant || whole.some((f) => f.decisive) ? findings.find((f) => f.decisive) : undefined;
    const conflict = decisive ? CONFLICT_OF_FINDING[decisive.kind] : relevant && rawOwn.contradiction >= CONTRADICTED_MIN && v.label !== 'SUPPORTS' ? explicitConflict(x.claim, x.premise) : undefined;
    const contradicted = conflict !== undefined;
    // The judge's own word first: a reply it could not read (or a quote not in the source) is no reading at all.
    const why = model.entailment.reviewOf?.({ premise: x.premise, hypothesis: x.claim });
    const judged: Review | undefined = why ? { reason: 'judge', message: `needs review: the judge's reading of this source cannot be trusted: ${why}`, pRight: v.probs[v.label], level: 1 } : undefined;
    const review = judged ?? (model.review && reviewOf(model.review, { probs: v.probs, label: v.label, relevance, twinMargin: reading!.margin, sentences: [reading!.claim], gate: model.verdict.relevanceThreshold ?? 0 }));
    out[x.i] = { probability: v.probs.SUPPORTS, label: v.label, probs: v.probs, relevant, contradicted, ...(conflict ? { conflict } : {}), ...(findings.length ? { findings } : {}), fails: !relevant || v.label === 'REFUTES' || contradicted, ...(review ? { review } : {}) };
  });
  return out;
}
