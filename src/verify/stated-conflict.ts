/**
 * A sentence that states the opposite change cannot support the claim: when the evidence changes the
 * same thing in the opposite direction or valence (explicit-conflict.ts), its entailment probability is
 * capped at its contradiction probability, the rest going to neutral.
 *
 * Why a rule over a learned reading: the NLI head sees the direction features but weighs them against
 * the word overlap, and overlap wins where the two texts share almost every word. "Smoking cessation
 * substantially reduces a person's risk for developing ... lung cancer" read as entailment 0.54 for
 * "Smoking reduces the risk of lung cancer" although the cause-composed direction feature reads the
 * conflict. Only direction and valence rule support out: antonyms, negation scopes and numbers also
 * fire on evidence that merely differs (explicit-conflict.ts).
 */
import type { EntailmentProbs } from '../models/types.js';
import { explicitConflict, type ConflictKind } from './explicit-conflict.js';

const RULES_OUT_SUPPORT: ReadonlySet<ConflictKind> = new Set(['direction', 'valence']);

export function capStatedConflict(claim: string, premise: string, p: EntailmentProbs): EntailmentProbs {
  // Nothing to cap when entailment does not lead: skip the analysis (every pair `verify` reads comes here).
  if (p.entailment <= p.contradiction) return p;
  const kind = explicitConflict(claim, premise);
  if (!kind || !RULES_OUT_SUPPORT.has(kind)) return p;
  return { entailment: p.contradiction, neutral: p.neutral + p.entailment - p.contradiction, contradiction: p.contradiction };
}
