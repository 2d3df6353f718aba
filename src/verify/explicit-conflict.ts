/**
 * What, in so many words, sets the evidence against the claim: the audit flags a source as contradicting
 * a claim only when the NLI head's contradiction comes with one of these (support.ts `contradicted`).
 *
 * Why: the head reads contradiction into evidence that merely differs. On the shipped audit sample it
 * read "birth length, rather than birth weight, was the strongest independent predictor of risk" as
 * contradicted (raw 0.9+) by "Birth weight was positively associated with breast cancer risk ...", and
 * on WiCE dev its contradictions on relevant evidence fell on partially supported claims only. The
 * statins case it must catch ("double the risk" against "a 71% reduction in risk") is a change in the
 * opposite direction. The kinds are the alignment features that state a conflict (src/models/align):
 * a change of the same thing in the opposite direction or valence, an antonym, an aligned word negated
 * in one text only, a different value in the same unit.
 */
import { ALIGN_DIM, ALIGN_FEATURE_NAMES, alignFeatures } from '../models/align/index.js';
import { analysePairText } from '../models/trained/features.js';

export type ConflictKind = 'direction' | 'valence' | 'antonym' | 'negation' | 'number';

/** How each kind is said in a report. */
export const CONFLICT_WORDS: Record<ConflictKind, string> = {
  direction: 'it changes the same thing in the opposite direction',
  valence: 'it says the opposite about whether the same thing improves or worsens',
  antonym: 'it uses the opposite of a word of the claim',
  negation: 'it negates what the claim states',
  number: 'it gives another value in the same unit',
};

const FEATURE_OF: [ConflictKind, (typeof ALIGN_FEATURE_NAMES)[number]][] = [
  ['direction', 'al_direction_conflict'],
  ['valence', 'al_valence_conflict'],
  ['antonym', 'al_antonym'],
  ['negation', 'al_negation_scope_mismatch'],
  ['number', 'al_number_conflict'],
];

/**
 * The first explicit conflict between the claim and the evidence text, or undefined. Word weights are
 * flat (each content word counts once): this asks whether a conflict is stated, not how much it weighs.
 */
export function explicitConflict(claim: string, evidence: string): ConflictKind | undefined {
  const c = analysePairText(claim);
  const e = analysePairText(evidence);
  const out = new Float32Array(ALIGN_DIM);
  alignFeatures(c.align, e.align, { idf: () => 1, unseen: 1, claimEntities: new Set(), evidenceEntities: new Set(), evidenceWords: e.lexical.lowerSet }, out);
  for (const [kind, name] of FEATURE_OF) if (out[ALIGN_FEATURE_NAMES.indexOf(name)]! > 0) return kind;
  return undefined;
}
