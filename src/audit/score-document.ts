/**
 * How well a source document supports a claim (SIDE): document score = max over its ~100-word passages of
 * the passage score, the passage score coming from the verification engine (a PairScorer). Two ways to get
 * a passage score, chosen by measurement on WiCE (see docs in src/audit/README.md):
 *   sentence: score each sentence of the passage against the query, passage score = max over them
 *             (the trained scorer was trained on sentences; also gives the evidence sentences for free);
 *   passage:  score the whole passage text; evidence sentences are then scored inside the best passage.
 * Long pages are pre-selected by TF-IDF similarity to the query (`preselect` units per document), which
 * bounds the model's work per citation; the eval measures what this costs in detection quality.
 * All jobs of a call go to the scorer in one batch: the trained head embeds each distinct text once per call.
 */
import { chunkPassages } from '../corpus/passages.js';
import type { Document, Passage } from '../corpus/types.js';
import type { PairScorer } from '../models/types.js';
import { tfidfRank } from '../text/tfidf.js';

export type Granularity = 'sentence' | 'passage';

export interface ScoringConfig {
  granularity: Granularity;
  /** Passage size in words (chunkPassages). */
  maxWords: number;
  /** Most units (sentences or passages) scored per document, best TF-IDF matches first; 0 = all. */
  preselect: number;
  /** Evidence sentences returned per document. */
  evidenceK: number;
}

export const DEFAULT_SCORING: ScoringConfig = { granularity: 'sentence', maxWords: 100, preselect: 48, evidenceK: 3 };

export interface ScoreJob {
  query: string;
  doc: Document;
  /** Score only these passages (e.g. the ones retrieval returned); default: all passages of `doc`. */
  passages?: Passage[];
}

export interface EvidenceSentence {
  /** Index of the sentence in its document. */
  sentenceIndex: number;
  text: string;
  score: number;
  /** Page of the sentence in a paged source (PDF: Document.sentencePages), so a report can say "p. 12". */
  page?: number;
}

export interface ScoredPassage {
  index: number;
  sentenceStart: number;
  sentenceEnd: number;
  text: string;
  score: number;
  /** Page the passage starts on, for a paged source. */
  page?: number;
}

export interface DocumentScore {
  /** Max passage score; undefined when the document has no text to score. */
  score: number | undefined;
  best?: ScoredPassage;
  /** Best sentences, highest first. */
  evidence: EvidenceSentence[];
  unitsScored: number;
  unitsTotal: number;
}

interface Unit {
  job: number;
  /** Sentence index (sentence mode) or passage position in the job's passage list (passage mode). */
  at: number;
  text: string;
}

/** `signal` goes to the scorer (a request's deadline). */
export async function scoreDocuments(scorer: PairScorer, jobs: readonly ScoreJob[], cfg: ScoringConfig = DEFAULT_SCORING, signal?: AbortSignal): Promise<DocumentScore[]> {
  const passagesOf = jobs.map((j) => j.passages ?? chunkPassages(j.doc, { maxWords: cfg.maxWords }));
  const units: Unit[] = [];
  const totals: number[] = [];
  jobs.forEach((job, j) => {
    const all: Unit[] = [];
    if (cfg.granularity === 'sentence') {
      const seen = new Set<number>();
      for (const p of passagesOf[j]!) {
        for (let s = p.sentenceStart; s < p.sentenceEnd; s++) {
          const text = job.doc.sentences[s];
          if (text?.trim() && !seen.has(s)) {
            seen.add(s);
            all.push({ job: j, at: s, text });
          }
        }
      }
    } else {
      passagesOf[j]!.forEach((p, at) => p.text.trim() && all.push({ job: j, at, text: p.text }));
    }
    totals.push(all.length);
    units.push(...preselect(job.query, all, cfg.preselect));
  });
  const scores = units.length ? await scorer.score(units.map((u) => ({ query: jobs[u.job]!.query, passage: u.text })), signal) : [];

  const byJob = jobs.map(() => new Map<number, number>());
  units.forEach((u, i) => byJob[u.job]!.set(u.at, scores[i]!));
  const results = jobs.map((job, j): DocumentScore => {
    const scored = byJob[j]!;
    const passages = passagesOf[j]!;
    let best: ScoredPassage | undefined;
    passages.forEach((p, at) => {
      let s: number | undefined;
      if (cfg.granularity === 'passage') s = scored.get(at);
      else for (let k = p.sentenceStart; k < p.sentenceEnd; k++) {
        const v = scored.get(k);
        if (v !== undefined && (s === undefined || v > s)) s = v;
      }
      if (s !== undefined && (!best || s > best.score)) best = withPage({ index: p.index, sentenceStart: p.sentenceStart, sentenceEnd: p.sentenceEnd, text: p.text, score: s }, job.doc, p.sentenceStart);
    });
    const evidence =
      cfg.granularity === 'sentence'
        ? [...scored.entries()].map(([sentenceIndex, score]) => withPage({ sentenceIndex, text: job.doc.sentences[sentenceIndex]!, score }, job.doc, sentenceIndex)).sort(byScore).slice(0, cfg.evidenceK)
        : [];
    const out: DocumentScore = { score: best?.score, evidence, unitsScored: scored.size, unitsTotal: totals[j]! };
    if (best) out.best = best;
    return out;
  });
  if (cfg.granularity === 'passage') await evidenceInBestPassage(scorer, jobs, results, cfg.evidenceK);
  return results;
}

function byScore(a: EvidenceSentence, b: EvidenceSentence): number {
  return b.score - a.score || a.sentenceIndex - b.sentenceIndex;
}

function preselect(query: string, units: Unit[], limit: number): Unit[] {
  if (limit <= 0 || units.length <= limit) return units;
  const sims = tfidfRank(query, units.map((u) => u.text));
  return units
    .map((u, i) => ({ u, s: sims[i]! }))
    .sort((a, b) => b.s - a.s || a.u.at - b.u.at)
    .slice(0, limit)
    .map((x) => x.u);
}

/** Passage mode: the evidence sentences are the best passage's sentences, scored on their own. */
async function evidenceInBestPassage(scorer: PairScorer, jobs: readonly ScoreJob[], results: DocumentScore[], k: number): Promise<void> {
  const units: Unit[] = [];
  results.forEach((r, j) => {
    if (!r.best) return;
    for (let s = r.best.sentenceStart; s < r.best.sentenceEnd; s++) {
      const text = jobs[j]!.doc.sentences[s];
      if (text?.trim()) units.push({ job: j, at: s, text });
    }
  });
  if (!units.length) return;
  const scores = await scorer.score(units.map((u) => ({ query: jobs[u.job]!.query, passage: u.text })));
  units.forEach((u, i) => results[u.job]!.evidence.push(withPage({ sentenceIndex: u.at, text: u.text, score: scores[i]! }, jobs[u.job]!.doc, u.at)));
  for (const r of results) r.evidence = r.evidence.sort(byScore).slice(0, k);
}

function withPage<T extends EvidenceSentence | ScoredPassage>(x: T, doc: Document, sentence: number): T {
  const page = doc.sentencePages?.[sentence];
  if (page !== undefined) x.page = page;
  return x;
}
