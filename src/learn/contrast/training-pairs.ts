/**
 * Contrast twins as NLI training pairs, from the TRAINING parts of the shared data only: SciFact train
 * SUPPORT rationales, SNLI entailment pairs of the training pool (never the held-out split) and RTE train
 * entailment pairs. Never from dev or test claims.
 */
import { CON, ENT, NEU, type LabelledPair, type SciFactClaim, type SciFactDoc } from '../heads/data.js';
import { Rng, subSeed } from '../../util/rng.js';
import { label } from '../heads/softmax-regression.js';
import { countByRule, makeTwins, type ContrastTwin, type SupportedClaim } from '../../models/align/twins.js';
import type { ContrastRule } from '../../models/align/contrast-rules.js';

/** SciFact claims with their rationale sentences of one label (one entry per claim text, premises pooled). */
function sciFactWithLabel(claims: readonly SciFactClaim[], corpus: Map<number, SciFactDoc>, label: 'SUPPORT' | 'CONTRADICT'): SupportedClaim[] {
  // SciFact repeats a claim for several cited abstracts: one entry per claim text, its premises pooled.
  const byClaim = new Map<string, SupportedClaim>();
  for (const c of claims) {
    for (const [docId, sets] of Object.entries(c.evidence).sort((a, b) => Number(a[0]) - Number(b[0]))) {
      const doc = corpus.get(Number(docId));
      if (!doc || sets[0]?.label !== label) continue;
      const idx = [...new Set(sets.flatMap((s) => s.sentences))].sort((a, b) => a - b);
      const premises = idx.map((i) => doc.abstract[i]).filter((s): s is string => !!s);
      if (!premises.length) continue;
      const had = byClaim.get(c.claim);
      if (had) had.premises.push(...premises);
      else byClaim.set(c.claim, { claim: c.claim, premises, group: `scifact:${c.id}` });
    }
  }
  return [...byClaim.values()];
}

/** SciFact claims with their SUPPORT rationale sentences (one entry per evidence abstract). */
export const sciFactSupported = (claims: readonly SciFactClaim[], corpus: Map<number, SciFactDoc>): SupportedClaim[] => sciFactWithLabel(claims, corpus, 'SUPPORT');

/**
 * SciFact claims with their CONTRADICT rationale sentences, for reverse twins: a contradicted claim with its
 * negation toggled is what those sentences support ("X does not lower Y" contradicted -> "X lowers Y"
 * supported).
 */
export const sciFactContradicted = (claims: readonly SciFactClaim[], corpus: Map<number, SciFactDoc>): SupportedClaim[] => sciFactWithLabel(claims, corpus, 'CONTRADICT');

/**
 * Rules whose twin of a contradicted claim is supported. Only negation: a direction flip of a claim
 * contradicted by "no effect" is still contradicted, so direction and antonym twins would be mislabelled.
 */
export const REVERSE_RULES: readonly ContrastRule[] = ['negation'];

/** Entailment pairs of an NLI pool as supported claims (premise -> hypothesis), at most `max`, seeded. */
function entailed(pairs: readonly LabelledPair[], max: number, seed: number, tag: string): SupportedClaim[] {
  const ent = pairs.filter((p) => p.y === label(ENT));
  const picked = new Rng(subSeed(seed, tag)).sample(ent, max);
  // Input order, so the choice of twins does not depend on the sample's order.
  const keep = new Set(picked);
  return ent.filter((p) => keep.has(p)).map((p) => ({ claim: p.hypothesis, premises: [p.premise], group: p.group }));
}

export const snliSupported = (pool: readonly LabelledPair[], max: number, seed: number) => entailed(pool, max, seed, 'contrast-snli');
export const rteSupported = (pool: readonly LabelledPair[], max: number, seed: number) => entailed(pool, max, seed, 'contrast-rte');

export interface ContrastSources {
  scifact: SupportedClaim[];
  snli: SupportedClaim[];
  rte: SupportedClaim[];
  /** Contradicted SciFact train claims: their REVERSE_RULES twins are entailed (sciFactContradicted). */
  scifactReverse?: SupportedClaim[];
}

export interface ContrastPairs {
  pairs: LabelledPair[];
  twins: ContrastTwin[];
  /** Twins per source and rule, and pairs written, for the training report. */
  counts: Record<string, number>;
}

/**
 * NLI pairs (premise, twin): contradiction, or neutral for rules whose twin is only unsupported; entailment
 * for reverse twins of contradicted claims. RTE twins get RTE's own 2-way target, the set {neutral,
 * contradiction}. One pair per premise of the original (and
 * one with the premises joined), in the original's split group.
 */
export function contrastNliPairs(src: ContrastSources, seed: number, rules?: readonly ContrastRule[]): ContrastPairs {
  const pairs: LabelledPair[] = [];
  const twins: ContrastTwin[] = [];
  const counts: Record<string, number> = {};
  for (const [name, claims] of Object.entries(src) as [keyof ContrastSources, SupportedClaim[]][]) {
    const reverse = name === 'scifactReverse';
    const made = makeTwins(claims, seed, { tag: name, ...(reverse ? { rules: REVERSE_RULES } : rules ? { rules } : {}) });
    twins.push(...made);
    counts[`${name}_supported_claims`] = claims.length;
    for (const [rule, n] of Object.entries(countByRule(made))) counts[`${name}_${rule}`] = n;
    const before = pairs.length;
    for (const t of made) {
      const y = reverse ? label(ENT) : name === 'rte' ? label(NEU) | label(CON) : label(t.label === 'contradiction' ? CON : NEU);
      // The original's group: a twin never sits on the other side of a split from its original.
      // Each premise alone (as the per-sentence rule reads evidence) and, when several, joined (as the concat rule does).
      const premises = t.premises.length > 1 ? [...t.premises, t.premises.join(' ')] : t.premises;
      for (const premise of premises) pairs.push({ premise, hypothesis: t.twin, y, group: t.group, source: 'contrast' });
    }
    counts[`${name}_pairs`] = pairs.length - before;
  }
  return { pairs, twins, counts };
}
