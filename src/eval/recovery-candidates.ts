/**
 * The shared first half of citation recovery (eval) and source-ranker training: for each claim, the
 * first-stage rankings (bm25, dense, union) and the candidates the verification engine reranks (SIDE:
 * the union of the top `depth` documents of the sparse and of the dense list), each with its engine
 * score and its rank features.
 */
import { splitText } from '../corpus/split-text.js';
import type { Document } from '../corpus/types.js';
import type { Embedder, PairScorer } from '../models/types.js';
import type { Retriever, RetrieverResult } from '../retrieve/retriever.js';
import type { RankedDocument } from '../retrieve/types.js';
import type { Store } from '../store/types.js';
import type { Bm25Stats } from '../text/bm25-stats.js';
import { storedVectorsOf } from '../audit/rank-features.js';
import { rankFeatures, type RankQuery } from '../audit/rank-features.js';
import { scoreDocuments, type ScoringConfig } from '../audit/score-document.js';
import { evalQueryInput, type EvalQuery } from './retrieval-data.js';
import type { Qrels } from './retrieval-metrics.js';

export interface RecoveryCandidate {
  docId: string;
  relevant: boolean;
  /** Verification engine score (claim alone vs the document's retrieved passages). */
  engine: number | undefined;
  features: number[];
}

export interface RecoveryClaim {
  qid: string;
  /** Cross-validation group: the article the claim comes from. */
  group: string;
  runs: { bm25: string[]; dense: string[]; union: string[] };
  /** Reranked candidates, in union order. */
  candidates: RecoveryCandidate[];
}

export interface CollectOptions {
  queries: readonly EvalQuery[];
  qrels: Qrels;
  store: Store;
  retriever: Retriever;
  scorer: PairScorer;
  scoring: ScoringConfig;
  stats: Bm25Stats;
  /** The sentence encoder of the `dense` rank feature (USE). */
  embedder: Embedder;
  /** Documents taken from each first-stage list (default 20). */
  depth?: number;
  /** Retrieved passages per document the engine scores (default 3). */
  passagesPerDoc?: number;
  /** Documents per first-stage ranking (default 100). */
  k?: number;
  onProgress?: (done: number, total: number) => void;
}

const ids = (r: RetrieverResult): string[] => r.documents.map((d) => d.docId);

export function rankQueryOf(q: EvalQuery): RankQuery {
  return { claim: q.text, context: q.context ? splitText(q.context) : [], sectionPath: q.section ? [q.section] : [], ...(q.title ? { articleTitle: q.title } : {}) };
}

export async function collectRecoveryCandidates(opts: CollectOptions): Promise<RecoveryClaim[]> {
  const k = opts.k ?? 100;
  const depth = opts.depth ?? 20;
  const perDoc = opts.passagesPerDoc ?? 3;
  const out: RecoveryClaim[] = [];
  const storedVectors = storedVectorsOf(opts.store, opts.embedder);
  for (const q of opts.queries) {
    const input = evalQueryInput(q);
    const [bm25, dense, union] = await Promise.all([
      opts.retriever.search(input, { k, mode: 'bm25' }),
      opts.retriever.search(input, { k, mode: 'dense' }),
      opts.retriever.search(input, { k, mode: 'hybrid' }),
    ]);
    const hits = new Map<string, RankedDocument>();
    for (const d of [...bm25.documents.slice(0, depth), ...dense.documents.slice(0, depth)]) if (!hits.has(d.docId)) hits.set(d.docId, d);
    const unionOrder = ids(union);
    const unionRank = new Map(unionOrder.map((id, i) => [id, i]));
    const position = (id: string) => unionRank.get(id) ?? Infinity;
    const candIds = [...hits.keys()].sort((a, b) => position(a) - position(b));
    const docs = new Map<string, Document>((await opts.store.getDocuments(candIds)).map((d) => [d.id, d]));
    const present = candIds.filter((id) => docs.has(id));
    const scores = await scoreDocuments(
      opts.scorer,
      present.map((id) => ({ query: q.text, doc: docs.get(id)!, passages: hits.get(id)!.passages.slice(0, perDoc).map((p) => p.passage) })),
      opts.scoring,
    );
    const features = await rankFeatures(
      rankQueryOf(q),
      present.map((id, i) => ({ doc: docs.get(id)!, engineScore: scores[i]!.score })),
      { stats: opts.stats, embedder: opts.embedder, maxWords: opts.scoring.maxWords, ...(storedVectors ? { storedVectors } : {}) },
    );
    const rel = opts.qrels.get(q.id);
    out.push({
      qid: q.id,
      group: q.title ?? q.id,
      runs: { bm25: ids(bm25), dense: ids(dense), union: unionOrder },
      candidates: present.map((id, i) => ({ docId: id, relevant: (rel?.get(id) ?? 0) > 0, engine: scores[i]!.score, features: features[i]! })),
    });
    opts.onProgress?.(out.length, opts.queries.length);
  }
  return out;
}
