/**
 * Sentence-level evidence selection: every (claim, sentence) pair scored on its own by a pair scorer
 * (the ColumbiaNLP / SciFact rationale-selection setting). A TF-IDF pre-selection keeps the learned
 * scorer's work bounded when candidate documents are long.
 */
import { boundModelInput, MODEL_INPUT_MAX_CHARS } from '../models/bounded-input.js';
import type { PairScorer } from '../models/types.js';
import { tfidfRank } from '../text/tfidf.js';
import type { Document, EvidenceSelectOptions, EvidenceSelector, EvidenceSentence } from './types.js';

export interface Candidate {
  doc: Document;
  index: number;
  text: string;
}

export function candidateSentences(docs: Document[]): Candidate[] {
  return docs.flatMap((doc) => doc.sentences.map((text, index) => ({ doc, index, text })).filter((c) => c.text.trim().length > 0));
}

export function preselect(claim: string, candidates: Candidate[], limit: number): Candidate[] {
  if (candidates.length <= limit) return candidates;
  const scores = tfidfRank(claim, candidates.map((c) => c.text));
  return candidates
    .map((c, i) => ({ c, s: scores[i]! }))
    .sort((a, b) => b.s - a.s)
    .slice(0, limit)
    .map((x) => x.c);
}

export function topEvidence(scored: EvidenceSentence[], opts: EvidenceSelectOptions): EvidenceSentence[] {
  return (
    scored
      .filter((e) => opts.threshold === undefined || e.score >= opts.threshold)
      .sort((a, b) => b.score - a.score || a.docId.localeCompare(b.docId) || a.sentenceIndex - b.sentenceIndex)
      .slice(0, opts.k)
      // The text the models read (bounded-input.ts), not a stored run-on "sentence" of megabytes: verdicts,
      // API answers and CLI output stay bounded; sentenceIndex still names the whole sentence.
      .map((e) => (e.text.length > MODEL_INPUT_MAX_CHARS ? { ...e, text: boundModelInput(e.text) } : e))
  );
}

export class SentenceLevelSelector implements EvidenceSelector {
  readonly name = 'sentence';
  constructor(
    private readonly scorer: PairScorer,
    private readonly prefilter = 40,
  ) {}

  async select(claim: string, docs: Document[], opts: EvidenceSelectOptions): Promise<EvidenceSentence[]> {
    const candidates = preselect(claim, candidateSentences(docs), this.prefilter);
    if (candidates.length === 0) return [];
    const scores = await this.scorer.score(candidates.map((c) => ({ query: claim, passage: c.text })), opts.signal);
    return topEvidence(
      candidates.map((c, i) => ({ docId: c.doc.id, title: c.doc.title, sentenceIndex: c.index, text: c.text, score: scores[i]! })),
      opts,
    );
  }
}
