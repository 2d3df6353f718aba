/**
 * Citation recovery on WiCE dev (SIDE's retrieval evaluation, small scale): hide the citation, search a
 * corpus of every cited page (349) pooled with the SciFact abstracts (5,183 distractors) with the claim in
 * its article context, and see where the cited page lands. Methods:
 *   bm25, dense                first-stage retrievers (SIDE's sparse and dense queries);
 *   union                      both lists merged (ordered by reciprocal rank until reranked);
 *   union+verify               the top `rerankDepth` union documents reordered by the verification engine
 *                              (max score over each document's retrieved passages), the rest kept in order;
 *   union+verify+rank(w)       the same with w / first-stage rank added to the verification score;
 *   rrf(bm25,dense,verify)     reciprocal-rank fusion of the two first-stage lists and the verification
 *                              ranking (the reranker as a third voter rather than the judge).
 * Metrics: P@1, SR@10, SR@100 (SR = a gold document in the top k), MRR.
 */
import { splitText } from '../corpus/prepare.js';
import type { Document } from '../corpus/types.js';
import type { PairScorer } from '../models/types.js';
import type { Retriever, RetrieverResult } from '../retrieve/retriever.js';
import type { Store } from '../store/types.js';
import { verificationQuery, type QueryContext } from '../audit/query.js';
import { scoreDocuments, type ScoringConfig } from '../audit/score-document.js';
import type { EvalQuery } from './retrieval-data.js';
import { evaluateRun, type Qrels } from './retrieval-metrics.js';

export interface RecoveryOptions {
  queries: readonly EvalQuery[];
  qrels: Qrels;
  store: Store;
  retriever: Retriever;
  scorer: PairScorer;
  scoring: ScoringConfig;
  /** Query contexts tried for the verification reranker (first = the main one). */
  queryContexts: readonly QueryContext[];
  /** Union documents reranked (default 20). */
  rerankDepth?: number;
  /** Retrieved passages per document scored (default 3). */
  passagesPerDoc?: number;
  /** Weights tried for verification + w / first-stage rank. */
  rankWeights?: readonly number[];
  k?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface RecoveryMethodResult {
  method: string;
  metrics: { 'p@1': number; 'sr@10': number; 'sr@100': number; mrr: number };
}

export interface CitationRecoveryResult {
  task: 'wice-citation-recovery';
  nQueries: number;
  rerankDepth: number;
  passagesPerDoc: number;
  methods: RecoveryMethodResult[];
  /** Best first-stage P@1 and the reranker's, for the headline comparison. */
  headline: { bestFirstStage: string; bestFirstStageP1: number; reranked: string; rerankedP1: number };
  seconds: { retrieval: number; rerank: number };
  createdAt: string;
}

const CUTOFFS = [1, 10, 100];

function docIds(r: RetrieverResult): string[] {
  return r.documents.map((d) => d.docId);
}

export async function runCitationRecoveryEval(opts: RecoveryOptions): Promise<CitationRecoveryResult> {
  const k = opts.k ?? 100;
  const depth = opts.rerankDepth ?? 20;
  const perDoc = opts.passagesPerDoc ?? 3;
  const weights = opts.rankWeights ?? [0.05, 0.1, 0.2, 0.5, 1];
  const runs = new Map<string, Map<string, string[]>>();
  const put = (method: string, qid: string, ranking: string[]) => {
    let m = runs.get(method);
    if (!m) runs.set(method, (m = new Map()));
    m.set(qid, ranking.slice(0, k));
  };
  let retrievalMs = 0;
  let rerankMs = 0;
  let done = 0;
  for (const q of opts.queries) {
    const input = { claim: q.text, ...(q.context ? { context: q.context } : {}), ...(q.title ? { title: q.title } : {}), ...(q.section ? { section: q.section } : {}) };
    const t0 = performance.now();
    const [bm25, dense, union] = await Promise.all([
      opts.retriever.search(input, { k, mode: 'bm25' }),
      opts.retriever.search(input, { k, mode: 'dense' }),
      opts.retriever.search(input, { k, mode: 'hybrid' }),
    ]);
    put('bm25', q.id, docIds(bm25));
    put('dense', q.id, docIds(dense));
    put('union', q.id, docIds(union));
    const t1 = performance.now();
    retrievalMs += t1 - t0;

    const sparseRank = new Map(bm25.documents.map((d) => [d.docId, d.rank]));
    const denseRank = new Map(dense.documents.map((d) => [d.docId, d.rank]));
    const top = union.documents.slice(0, depth);
    const docs = new Map<string, Document>((await opts.store.getDocuments(top.map((d) => d.docId))).map((d) => [d.id, d]));
    const rest = docIds(union).slice(depth);
    const claimText = { claim: q.text, context: q.context ? splitText(q.context) : [], ...(q.title ? { articleTitle: q.title } : {}) };
    for (const ctx of opts.queryContexts) {
      const query = verificationQuery(claimText, ctx);
      const present = top.filter((d) => docs.has(d.docId));
      const scores = await scoreDocuments(
        opts.scorer,
        present.map((d) => ({ query, doc: docs.get(d.docId)!, passages: d.passages.slice(0, perDoc).map((p) => p.passage) })),
        opts.scoring,
      );
      const scored = present.map((d, i) => ({ id: d.docId, rank: d.rank, v: scores[i]!.score ?? -Infinity }));
      const order = (w: number) => [...scored].sort((a, b) => b.v + w / b.rank - (a.v + w / a.rank) || a.rank - b.rank).map((x) => x.id);
      const suffix = ctx === opts.queryContexts[0] ? '' : ` [context ${ctx}]`;
      const byVerify = order(0);
      put(`union+verify${suffix}`, q.id, [...byVerify, ...rest]);
      for (const w of weights) put(`union+verify+rank(${w})${suffix}`, q.id, [...order(w), ...rest]);
      const vRank = new Map(byVerify.map((id, i) => [id, i + 1]));
      const rrf = (id: string) => [sparseRank.get(id), denseRank.get(id), vRank.get(id)].reduce<number>((s, r) => s + (r ? 1 / (60 + r) : 0), 0);
      put(`rrf(bm25,dense,verify)${suffix}`, q.id, [...[...byVerify].sort((a, b) => rrf(b) - rrf(a)), ...rest]);
    }
    rerankMs += performance.now() - t1;
    opts.onProgress?.(++done, opts.queries.length);
  }

  const methods: RecoveryMethodResult[] = [...runs.entries()].map(([method, run]) => {
    const m = evaluateRun(run, opts.qrels, CUTOFFS).metrics;
    return { method, metrics: { 'p@1': m['p@1'] ?? 0, 'sr@10': m['sr@10'] ?? 0, 'sr@100': m['sr@100'] ?? 0, mrr: m['mrr'] ?? 0 } };
  });
  const first = methods.filter((m) => ['bm25', 'dense', 'union'].includes(m.method)).reduce((a, b) => (b.metrics['p@1'] > a.metrics['p@1'] ? b : a));
  const reranked = methods.find((m) => m.method === 'union+verify')!;
  return {
    task: 'wice-citation-recovery',
    nQueries: opts.queries.length,
    rerankDepth: depth,
    passagesPerDoc: perDoc,
    methods,
    headline: { bestFirstStage: first.method, bestFirstStageP1: first.metrics['p@1'], reranked: reranked.method, rerankedP1: reranked.metrics['p@1'] },
    seconds: { retrieval: retrievalMs / 1000, rerank: rerankMs / 1000 },
    createdAt: new Date().toISOString(),
  };
}
