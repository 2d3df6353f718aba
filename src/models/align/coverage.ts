/**
 * How much of a claim a text covers: the weighted share of the claim's subject words that the alignment
 * (same lemma or family, antonym, WordNet relation; not word vectors, which put any two drugs together)
 * finds in it. A source that covers few of the claim's words can hardly support or contradict it, however
 * close its subject: "Aspirin reduces the risk of heart attack" against a trial of tricyclics for
 * headaches. Sentence analyses are aligned one by one and their alignments united, so a window of a
 * document costs nothing beyond its sentences.
 */
import type { AlignAnalysis } from './analyse.js';
import { alignClaim, alignResources, type AlignResources } from './features.js';

/** Word weight: IDF of a lower-cased form, or 1 for every word (a plain share). */
export type WordWeight = (form: string) => number;

/** For each claim content word (claim.content order), whether each sentence aligns it. */
export function alignedBySentence(claim: AlignAnalysis, sentences: readonly AlignAnalysis[], res: AlignResources = alignResources()): boolean[][] {
  return sentences.map((s) => alignClaim(claim, s, res).map((a) => a.kind !== 'none' && a.kind !== 'vector'));
}

/**
 * Weighted share of the claim's subject words (content words other than its change words, whose direction
 * the entailment model reads) aligned in at least one of sentences [from, to). 1 for a claim without any.
 */
export function coverageOf(claim: AlignAnalysis, aligned: readonly boolean[][], weight: WordWeight, from = 0, to = aligned.length): number {
  let total = 0;
  let covered = 0;
  const changeWords = new Set(claim.changes.map((c) => c.at));
  claim.content.forEach((ti, k) => {
    if (changeWords.has(ti)) return;
    const w = weight(claim.tokens[ti]!.form);
    total += w;
    for (let s = from; s < to; s++) {
      if (aligned[s]![k]) {
        covered += w;
        break;
      }
    }
  });
  return total > 0 ? covered / total : 1;
}

/**
 * The best coverage over windows of consecutive sentences of about `words` words (a whole short abstract
 * is one window; a long web page is read passage by passage, so that its length alone does not cover
 * the claim).
 */
export function bestWindowCoverage(claim: AlignAnalysis, sentences: readonly AlignAnalysis[], weight: WordWeight, words: number, res?: AlignResources): number {
  if (!sentences.length) return 0;
  const aligned = alignedBySentence(claim, sentences, res);
  const lengths = sentences.map((s) => s.tokens.length);
  let best = 0;
  for (let from = 0; from < sentences.length; from++) {
    let n = 0;
    let to = from;
    while (to < sentences.length && (to === from || n + lengths[to]! <= words)) n += lengths[to++]!;
    best = Math.max(best, coverageOf(claim, aligned, weight, from, to));
    if (to === sentences.length) break;
  }
  return best;
}
