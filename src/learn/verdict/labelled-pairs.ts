/**
 * One labelled (claim, document) item of the verdict calibration: what tune-verdict collects
 * (collect-pairs.ts) and what the rule fit (fit-verdict.ts) and its held-out check (held-out.ts) read.
 */
import type { EntailmentProbs } from '../../models/types.js';
import type { Label } from '../../verify/types.js';
import type { DecisionInputs } from '../../verify/aggregate.js';

export interface LabelledPairs {
  /** Entailment probabilities of each evidence sentence of one (claim, document) pair. */
  evidence: EntailmentProbs[];
  gold: Label;
  /** Best evidence score of the pair (what the relevance gate reads); 1 when unknown. */
  relevance?: number;
  /** The document's claim coverage (src/verify/coverage.ts), a calibrator input; 1 when unknown. */
  coverage?: number;
  /**
   * Concat items: P(entailment | claim) - max P(entailment | counter-claim) on the same joined evidence
   * (src/verify/counter-claims.ts), a calibrator input; 0 when the claim has no counter-claim.
   */
  twinMargin?: number;
  /** Evidence score of each sentence, in the order of `evidence` (columbia items; for analysis). */
  scores?: number[];
  /** A claim paired with another claim's cited abstract (gold NOT ENOUGH INFO by construction). */
  shuffled?: boolean;
  /** A claim paired with an abstract retrieval ranks high for it but the claim does not cite (gold NOT ENOUGH INFO). */
  retrieved?: boolean;
  /** The claim's text: held-out folds keep a claim's pairs together (held-out.ts). */
  claim?: string;
  /**
   * Further labels counted as right (learn/verdict/domains.ts: RTE's not_entailment is NOT ENOUGH INFO or
   * REFUTES, RTE does not say which). The calibrator's likelihood reads the set's total probability.
   */
  alsoRight?: Label[];
}

/** Whether `label` is a right answer for the item (its gold, or one of its further right labels). */
export function isRight(it: Pick<LabelledPairs, 'gold' | 'alsoRight'>, label: Label): boolean {
  return label === it.gold || !!it.alsoRight?.includes(label);
}

/** What an item knows beyond its entailment probabilities (the calibrator's further inputs). */
export function knownOf(it: LabelledPairs): DecisionInputs {
  return { ...(it.coverage !== undefined ? { coverage: it.coverage } : {}), ...(it.twinMargin !== undefined ? { twinMargin: it.twinMargin } : {}) };
}
