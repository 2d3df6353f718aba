/**
 * Claim coverage of a document: the share of the claim's subject words (its content words but its change
 * words and adverbs) that the document's best passage contains (same word, word family, antonym or WordNet relation;
 * src/models/align/coverage.ts), in [0, 1].
 * An input of the verdict calibrator beside the relevance of the best sentence: the evidence scorer reads
 * sentences that look like findings on the claim's subject as relevant whatever they are about, so a
 * trial of tricyclics for headaches "supported" "Aspirin reduces the risk of heart attack".
 *
 * Measured on SciFact train (docs/RESULTS-HISTORY.md, "Claim verification"): telling a cited abstract with
 * evidence from one without, coverage over the abstract reaches ROC AUC 0.85 against 0.81 for the
 * cross-fitted relevance, 0.88 for the two together; as a calibrator input it raised held-out accuracy
 * 78.0% -> 80.4% (concat; 80.8% with adverbs left out, stop 23). Read only where one document is judged on its own (VerdictCalibration.documentRules):
 * in `verify`, over ten retrieved documents that all name the claim's words, it cost accuracy.
 *
 * Plain word share, not IDF-weighted: it needs no table from any model (an ONNX cross-encoder has none),
 * it is a number a person can read ("the source names 2 of the claim's 4 subject words"), and weighting
 * gained little (AUC 0.857 against 0.848 over whole abstracts).
 */
import type { Document } from '../corpus/types.js';
import { analyseForAlignment, bestWindowCoverageDetail, type AlignAnalysis, type CoverageDetail } from '../models/align/index.js';

export type { CoverageDetail };

/**
 * Passage size, in tokens, over which coverage is counted: about a SciFact abstract, so that an abstract
 * is read whole while a long web page is read passage by passage and its length alone cannot cover the
 * claim. IDF-weighted screen: whole abstracts AUC 0.857, windows of 250 tokens 0.853, of 120 tokens 0.840.
 */
export const COVERAGE_WINDOW = 250;

const plain = (): number => 1;

/** Coverage of `claim` by a text given as sentences (a document: its title first). */
export function claimCoverage(claim: string | AlignAnalysis, sentences: readonly string[]): number {
  return claimCoverageDetail(claim, sentences).share;
}

/** claimCoverage, with the claim's subject words and those the best passage does not name. */
export function claimCoverageDetail(claim: string | AlignAnalysis, sentences: readonly string[]): CoverageDetail {
  const c = typeof claim === 'string' ? analyseForAlignment(claim) : claim;
  return bestWindowCoverageDetail(c, sentences.map(analyseForAlignment), plain, COVERAGE_WINDOW);
}

/** Coverage of `claim` by one document: its title, then its sentences. */
export function coverageOfDocument(claim: string | AlignAnalysis, doc: Pick<Document, 'title' | 'sentences'>): number {
  return claimCoverage(claim, [doc.title, ...doc.sentences]);
}

/** coverageOfDocument, with the words the document's best passage does not name. */
export function coverageDetailOfDocument(claim: string | AlignAnalysis, doc: Pick<Document, 'title' | 'sentences'>): CoverageDetail {
  return claimCoverageDetail(claim, [doc.title, ...doc.sentences]);
}

/** Coverage of `claim` by each document, by document id. */
export function documentCoverage(claim: string, docs: readonly Pick<Document, 'id' | 'title' | 'sentences'>[]): Map<string, number> {
  const c = analyseForAlignment(claim);
  return new Map(docs.map((d) => [d.id, coverageOfDocument(c, d)] as const));
}

/** At most this many missing words are listed; the count says how many there are. */
const LIST_AT_MOST = 6;

/**
 * Claim coverage in words, for people: "names 2 of the claim's 4 subject words (not: aspirin, attack)".
 * A low probability of support is often this: the source is on a near subject but never names what the
 * claim is about.
 */
export function coverageInWords(coverage: Pick<CoverageDetail, 'subjectWords' | 'missing'>): string {
  const of = coverage.subjectWords.length;
  if (!of) return 'the claim has no subject words to look for';
  const named = of - coverage.missing.length;
  if (!coverage.missing.length) return `names all ${of} of the claim's subject words`;
  const listed = coverage.missing.slice(0, LIST_AT_MOST).join(', ');
  const more = coverage.missing.length > LIST_AT_MOST ? `, and ${coverage.missing.length - LIST_AT_MOST} more` : '';
  return `names ${named} of the claim's ${of} subject words (not: ${listed}${more})`;
}
