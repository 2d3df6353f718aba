/**
 * Document-level evidence selection, in the spirit of Stammbach (2021): all sentences of a document are
 * scored together, each seen in its document context (the title, which resolves "he"/"the film", and its
 * neighbours), instead of as isolated pairs. With a sentence-pair scorer underneath, "together" means:
 * one batch per document, each sentence prefixed by the title, and a sentence's score raised by its
 * neighbours' (evidence clusters: a supporting sentence's neighbours are often evidence too).
 */
import type { PairScorer } from '../models/types.js';
import { topEvidence } from './evidence-sentence-level.js';
import type { Document, EvidenceSelectOptions, EvidenceSelector, EvidenceSentence } from './types.js';

export interface DocumentLevelOptions {
  /** Weight of the best neighbour's score added to a sentence's own. */
  neighbourWeight?: number;
  /** Longest document scored whole; longer ones are cut (their first sentences kept). */
  maxSentences?: number;
}

export class DocumentLevelSelector implements EvidenceSelector {
  readonly name = 'document';
  private readonly neighbourWeight: number;
  private readonly maxSentences: number;
  constructor(
    private readonly scorer: PairScorer,
    opts: DocumentLevelOptions = {},
  ) {
    this.neighbourWeight = opts.neighbourWeight ?? 0.15;
    this.maxSentences = opts.maxSentences ?? 60;
  }

  async select(claim: string, docs: Document[], opts: EvidenceSelectOptions): Promise<EvidenceSentence[]> {
    const all: EvidenceSentence[] = [];
    // One batch for all documents: a single scorer call amortises model overhead.
    const spans: { doc: Document; start: number; n: number }[] = [];
    const pairs: { query: string; passage: string }[] = [];
    for (const doc of docs) {
      const sentences = doc.sentences.slice(0, this.maxSentences);
      spans.push({ doc, start: pairs.length, n: sentences.length });
      for (const s of sentences) pairs.push({ query: claim, passage: s.trim() ? `${doc.title}. ${s}` : '' });
    }
    const raw = pairs.length ? await this.scorer.score(pairs, opts.signal) : [];
    for (const { doc, start, n } of spans) {
      for (let i = 0; i < n; i++) {
        const text = doc.sentences[i]!;
        if (!text.trim()) continue;
        const own = raw[start + i]!;
        const prev = i > 0 && doc.sentences[i - 1]!.trim() ? raw[start + i - 1]! : -Infinity;
        const next = i + 1 < n && doc.sentences[i + 1]!.trim() ? raw[start + i + 1]! : -Infinity;
        const neighbour = Math.max(prev, next);
        const score = Number.isFinite(neighbour) ? own + this.neighbourWeight * Math.max(0, neighbour - own) : own;
        all.push({ docId: doc.id, title: doc.title, sentenceIndex: i, text, score });
      }
    }
    return topEvidence(all, opts);
  }
}
