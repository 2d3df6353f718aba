/**
 * Claim-evidence alignment features. Each claim content word is aligned to the evidence, in this order:
 *   1. same lemma or surface form;
 *   2. same Porter stem (the word's family across parts of speech: "improves" / "improvement"), counted
 *      as a WordNet relation; it comes before antonyms, so a family member is not read as contradicting;
 *   3. antonym (WordNet direct antonyms, or opposite change words of lexicon.ts): aligned, but contradicting;
 *   4. WordNet relation (synonym, derived form, direct hypernym);
 *   5. word vectors (cosine >= VECTOR_MIN), skipping evidence words that are antonyms of the claim word:
 *      the vectors put antonyms together (increase/decrease 0.88).
 * The features then compare what the two texts say about the aligned words: negation, direction of
 * change, numbers, quantifiers and names. All values are in [0, 1] (or small counts scaled to it).
 */
import { oppositeChange } from './lexicon.js';
import type { AlignAnalysis, Change } from './analyse.js';
import { wordNet, type WordNet } from './wordnet.js';
import { loadWordVectors, wordVectors, type WordVectors } from './word-vectors.js';

export const ALIGN_FEATURE_NAMES = [
  /** IDF-weighted share of claim content words aligned by nothing (lemma, WordNet, antonym). */
  'al_unaligned_idf',
  /** The same with vector alignment counted too. */
  'al_unaligned_idf_soft',
  /** Largest IDF of a claim word aligned by nothing at all, over the unseen-word IDF. */
  'al_max_unaligned_idf',
  /** Mean best alignment strength of claim content words (1 exact, WordNet 0.9, else vector cosine). */
  'al_mean_strength',
  /** Share of claim content words aligned only through WordNet. */
  'al_wordnet_share',
  /** Claim words whose alignment is an antonym (0, 0.5, 1 for 0, 1, 2+). */
  'al_antonym',
  /** An aligned word is inside a negation scope in one text and not in the other. */
  'al_negation_scope_mismatch',
  /** Negation cues in one text only. */
  'al_negation_cue_mismatch',
  /** A change of the same thing in opposite directions ("increases the risk" / "risk decreased"), times the aligned share of the claim. */
  'al_direction_conflict',
  /** A change of the same thing in the same direction, times the aligned share of the claim. */
  'al_direction_agree',
  /** Opposite direction words anywhere, whatever they modify. */
  'al_direction_flip_any',
  /** Opposite valence (improve / worsen) of the same thing, times the aligned share of the claim. */
  'al_valence_conflict',
  /** A claim quantity with a unit whose value the evidence lacks while giving other values in that unit. */
  'al_number_conflict',
  /** Share of claim quantities (identifiers excluded) absent from the evidence. */
  'al_number_missing',
  /** Quantifier clash: all/only vs some/most, none vs some. */
  'al_quantifier_mismatch',
  /** A claim name is missing and the evidence names something else instead. */
  'al_entity_swap',
] as const;
export const ALIGN_DIM = ALIGN_FEATURE_NAMES.length;

/** Vector cosine at or above which two words count as aligned (int8 vectors; synonyms ~0.6-0.8, related ~0.4). */
export const VECTOR_MIN = 0.6;

export interface AlignResources {
  wordnet: WordNet;
  vectors: WordVectors;
}

let shared: AlignResources | undefined;
/** WordNet and the word vectors, opened on first use (the vectors may need a one-time conversion). */
export function alignResources(): AlignResources {
  shared ??= { wordnet: wordNet(), vectors: wordVectors() };
  return shared;
}

/**
 * The same, without a long synchronous step: the word vectors are read asynchronously (and converted in a
 * worker thread when their cache is missing). The composition root awaits this before verifying, so the
 * synchronous `alignResources()` later returns at once.
 */
export async function loadAlignResources(): Promise<AlignResources> {
  if (shared) return shared;
  const vectors = await loadWordVectors();
  shared ??= { wordnet: wordNet(), vectors };
  return shared;
}

/** What the features need besides the two analyses: word weights and the names of each text. */
export interface AlignContext {
  /** IDF of a lower-cased surface form; `unseen` = the IDF of a word never seen in training. */
  idf: (form: string) => number;
  unseen: number;
  claimEntities: ReadonlySet<string>;
  evidenceEntities: ReadonlySet<string>;
  /** Every lower-cased token of the evidence (names are looked up there). */
  evidenceWords: ReadonlySet<string>;
}

type Kind = 'exact' | 'antonym' | 'wordnet' | 'vector' | 'none';
interface Alignment {
  kind: Kind;
  /** Evidence token index, when aligned. */
  to: number;
  strength: number;
}

function isAntonym(res: AlignResources, a: string, b: string): boolean {
  if (oppositeChange(a, b)) return true;
  return res.wordnet.relations(a).antonyms.has(b) || res.wordnet.relations(b).antonyms.has(a);
}

function related(res: AlignResources, a: string, b: string): boolean {
  return res.wordnet.relations(a).related.has(b) || res.wordnet.relations(b).related.has(a);
}

export function alignClaim(claim: AlignAnalysis, evidence: AlignAnalysis, res: AlignResources = alignResources()): Alignment[] {
  const ev = evidence.content;
  return claim.content.map((ci): Alignment => {
    const c = claim.tokens[ci]!;
    for (const ei of ev) {
      const e = evidence.tokens[ei]!;
      if (e.lemma === c.lemma || e.form === c.form) return { kind: 'exact', to: ei, strength: 1 };
    }
    // The claim word's own family ("improves" / "improvement") before antonyms: an evidence text that says
    // "improvement" is not contradicting "improves" because it also says "impairment" somewhere.
    for (const ei of ev) if (evidence.tokens[ei]!.stem === c.stem) return { kind: 'wordnet', to: ei, strength: 0.9 };
    for (const ei of ev) if (isAntonym(res, c.lemma, evidence.tokens[ei]!.lemma)) return { kind: 'antonym', to: ei, strength: 1 };
    for (const ei of ev) if (related(res, c.lemma, evidence.tokens[ei]!.lemma)) return { kind: 'wordnet', to: ei, strength: 0.9 };
    let best: Alignment = { kind: 'none', to: -1, strength: 0 };
    for (const ei of ev) {
      const e = evidence.tokens[ei]!;
      const cos = res.vectors.cosine(c.form, e.form) ?? res.vectors.cosine(c.lemma, e.lemma);
      if (cos !== undefined && cos > best.strength) best = { kind: cos >= VECTOR_MIN ? 'vector' : 'none', to: ei, strength: cos };
    }
    return best;
  });
}

function sameThing(res: AlignResources, a: Change, b: Change): boolean {
  return a.heads.some((h) => b.heads.some((k) => h === k || related(res, h, k)));
}

/** Writes ALIGN_DIM features of (evidence, claim) into `out` at `offset`. */
export function alignFeatures(claim: AlignAnalysis, evidence: AlignAnalysis, ctx: AlignContext, out: Float32Array | number[], offset = 0, res: AlignResources = alignResources()): void {
  const al = alignClaim(claim, evidence, res);
  let total = 0;
  let hard = 0;
  let soft = 0;
  let maxUnaligned = 0;
  let strength = 0;
  let viaWordnet = 0;
  let antonyms = 0;
  let scopeMismatch = 0;
  // The share of what the claim says besides its change words (they are compared by direction below).
  const changeWords = new Set(claim.changes.map((c) => c.at));
  let subjectTotal = 0;
  let subjectAligned = 0;
  al.forEach((a, k) => {
    const c = claim.tokens[claim.content[k]!]!;
    const w = ctx.idf(c.form);
    total += w;
    if (!changeWords.has(claim.content[k]!)) {
      subjectTotal += w;
      if (a.kind !== 'none') subjectAligned += w;
    }
    if (a.kind === 'exact' || a.kind === 'antonym' || a.kind === 'wordnet') hard += w;
    if (a.kind !== 'none') soft += w;
    else maxUnaligned = Math.max(maxUnaligned, w);
    strength += a.kind === 'none' ? Math.max(0, a.strength) : a.strength;
    if (a.kind === 'wordnet') viaWordnet++;
    if (a.kind === 'antonym') antonyms++;
    if (a.kind !== 'none' && a.kind !== 'vector' && evidence.tokens[a.to]!.negated !== c.negated) scopeMismatch = 1;
  });
  const n = al.length;

  let conflict = 0;
  let agree = 0;
  let valence = 0;
  let up = 0;
  let down = 0;
  for (const e of evidence.changes) if (e.axis === 'magnitude' && !e.negated) e.dir > 0 ? up++ : down++;
  let flip = 0;
  for (const c of claim.changes) {
    if (c.negated) continue;
    if (c.axis === 'magnitude' && ((c.dir > 0 && down > 0 && up === 0) || (c.dir < 0 && up > 0 && down === 0))) flip = 1;
    for (const e of evidence.changes) {
      if (e.negated || e.axis !== c.axis || !sameThing(res, c, e)) continue;
      // Directions composed with their causes': "smoking reduction reduces the risk" disagrees with
      // "smoking reduces the risk".
      if (e.dir * e.cause !== c.dir * c.cause) {
        if (c.axis === 'magnitude') conflict = 1;
        else valence = 1;
      } else if (c.axis === 'magnitude') agree = 1;
    }
  }

  let numberConflict = 0;
  let missing = 0;
  for (const q of claim.quantities) {
    const found = evidence.quantities.some((e) => e.value === q.value);
    if (!found) {
      missing++;
      if (q.unit && evidence.quantities.some((e) => e.unit === q.unit)) numberConflict = 1;
    }
  }

  const cq = claim.quantifiers;
  const eq = evidence.quantifiers;
  const quantifier =
    ((cq.has('universal') || cq.has('only')) && eq.has('partial')) || (cq.has('none') && eq.has('partial')) || (cq.has('partial') && eq.has('none') && !cq.has('none')) ? 1 : 0;

  let entitySwap = 0;
  const missingEntity = [...ctx.claimEntities].some((e) => !ctx.evidenceWords.has(e));
  if (missingEntity) for (const e of ctx.evidenceEntities) if (!ctx.claimEntities.has(e)) entitySwap = 1;

  // A change of the same thing means little when the claim's other words (who or what changes it) are not
  // in the evidence: "alendronate decreased the risk of fractures" does not contradict "vitamin D
  // deficiency increases the risk of fractures". Direction and valence features are scaled by the share
  // of the claim's content words, change words aside (IDF-weighted), that the evidence aligns.
  const aligned = subjectTotal ? subjectAligned / subjectTotal : 1;
  const v = [
    total ? 1 - hard / total : 0,
    total ? 1 - soft / total : 0,
    maxUnaligned / ctx.unseen,
    n ? strength / n : 1,
    n ? viaWordnet / n : 0,
    Math.min(antonyms, 2) / 2,
    scopeMismatch,
    (claim.negationCues > 0) !== (evidence.negationCues > 0) ? 1 : 0,
    conflict * aligned,
    agree * aligned,
    flip,
    valence * aligned,
    numberConflict,
    claim.quantities.length ? missing / claim.quantities.length : 0,
    quantifier,
    entitySwap,
  ];
  for (let i = 0; i < v.length; i++) out[offset + i] = v[i]!;
}
