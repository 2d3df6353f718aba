/**
 * Citation recovery on WiCE-shaped retrieval queries (SIDE's retrieval evaluation, small scale; WiCE dev
 * or anyone's claims with one known cited document each): hide the citation, search a corpus of every
 * cited page pooled with distractors (for WiCE dev: 349 cited pages + 5,183 SciFact abstracts) with the
 * claim in its article context, and see where the cited page lands. Every gold document must be in the
 * index; that is checked before any retrieval, listing all missing ids. Methods:
 *   bm25, dense            first-stage retrievers (SIDE's sparse and dense queries);
 *   union                  both lists merged (ordered by reciprocal rank until reranked);
 *   union+verify           the candidates (top `depth` of bm25 ∪ top `depth` of dense) ordered by the
 *                          verification engine alone (max score over each document's retrieved passages);
 *   union+ranker [cv]      the candidates ordered by the source ranker, every claim scored by a ranker
 *                          trained on the other folds' articles (grouped k-fold cross-validation): the
 *                          held-out figure, since the shipped ranker is trained on these same claims;
 *   union+ranker [shipped] the shipped ranker's weights (in-sample when they were trained on this set).
 * Reranked candidates come first, the rest of the union after them in union order.
 * Metrics: P@1, SR@10, SR@100 (SR = a gold document in the top k), MRR.
 */
import type { RankingExample } from '../learn/ranker/train-ranker.js';
import { crossValidatedScores } from '../learn/ranker/train-ranker.js';
import { RANK_FEATURES } from '../audit/rank-features.js';
import type { SourceRanker } from '../audit/source-ranker.js';
import { collectRecoveryCandidates, type CollectOptions, type RecoveryClaim } from './recovery-candidates.js';
import { evaluateRun, type Qrels } from './retrieval-metrics.js';
import { checkQrelDocs } from './retrieval-data.js';
import { datasetName } from './dataset-name.js';
import { storeDocIds } from './doc-ids.js';

export interface RecoveryOptions extends CollectOptions {
  /** The queries file (reported) and the data's name (default: the file name; "queries" without a file). */
  data?: string;
  name?: string;
  /** Cross-validation folds for the held-out ranker figure (default 5) and their seed (default 13). */
  folds?: number;
  seed?: number;
  /** The shipped ranker, scored as its own method when given. */
  ranker?: SourceRanker;
  /** Fold seeds whose held-out P@1 is reported beside the main one (default 1..4). */
  extraSeeds?: readonly number[];
}

export interface RecoveryMethodResult {
  method: string;
  metrics: { 'p@1': number; 'sr@10': number; 'sr@100': number; mrr: number };
}

export interface CitationRecoveryResult {
  /** The shape of the data (WiCE-shaped retrieval queries), not its name. */
  task: 'wice-citation-recovery';
  /** What the data is called: `--name`, else the queries file's name. */
  name: string;
  data?: string;
  nQueries: number;
  depth: number;
  passagesPerDoc: number;
  folds: number;
  seed: number;
  methods: RecoveryMethodResult[];
  /** Best first-stage P@1 and the held-out reranker's, for the headline comparison. */
  headline: { bestFirstStage: string; bestFirstStageP1: number; reranked: string; rerankedP1: number };
  /** Mean weights of the cross-validation folds, by feature (what the ranker leans on). */
  cvWeights: Record<string, number>;
  /** The held-out P@1 with other fold assignments (how much the headline depends on the split). */
  cvSeeds: { seed: number; p1: number }[];
  /** Claims the held-out ranker gets right at 1 where the best first stage does not, and the reverse. */
  versusFirstStage: { gained: number; lost: number };
  seconds: { collect: number; rerank: number };
  createdAt: string;
}

const CUTOFFS = [1, 10, 100];
export const CV_METHOD = 'union+ranker [cv]';

export function rankingExamples(claims: readonly RecoveryClaim[]): RankingExample[] {
  return claims.map((c) => ({ x: c.candidates.map((d) => d.features), y: c.candidates.map((d) => (d.relevant ? 1 : 0)), group: c.group }));
}

/** Candidates ordered by `score` (ties keep union order), then the rest of the union. */
function reranked(c: RecoveryClaim, score: (i: number) => number, k: number): string[] {
  const order = c.candidates.map((d, i) => ({ id: d.docId, i, s: score(i) })).sort((a, b) => b.s - a.s || a.i - b.i);
  const head = new Set(order.map((o) => o.id));
  return [...order.map((o) => o.id), ...c.runs.union.filter((id) => !head.has(id))].slice(0, k);
}

export function scoreRecovery(claims: readonly RecoveryClaim[], qrels: Qrels, opts: { folds?: number; seed?: number; extraSeeds?: readonly number[]; ranker?: SourceRanker; k?: number } = {}) {
  const k = opts.k ?? 100;
  const folds = opts.folds ?? 5;
  const seed = opts.seed ?? 13;
  const runs = new Map<string, Map<string, string[]>>();
  const put = (method: string, qid: string, ranking: string[]) => {
    let m = runs.get(method);
    if (!m) runs.set(method, (m = new Map()));
    m.set(qid, ranking.slice(0, k));
  };
  const examples = rankingExamples(claims);
  const cv = crossValidatedScores(examples, RANK_FEATURES.length, folds, seed);
  claims.forEach((c, qi) => {
    put('bm25', c.qid, c.runs.bm25);
    put('dense', c.qid, c.runs.dense);
    put('union', c.qid, c.runs.union);
    put('union+verify', c.qid, reranked(c, (i) => c.candidates[i]!.engine ?? -Infinity, k));
    put(CV_METHOD, c.qid, reranked(c, (i) => cv.scores[qi]![i]!, k));
    if (opts.ranker) put('union+ranker [shipped]', c.qid, reranked(c, (i) => opts.ranker!.score(c.candidates[i]!.features), k));
  });
  const methods: RecoveryMethodResult[] = [...runs.entries()].map(([method, run]) => {
    const m = evaluateRun(run, qrels, CUTOFFS).metrics;
    return { method, metrics: { 'p@1': m['p@1'] ?? 0, 'sr@10': m['sr@10'] ?? 0, 'sr@100': m['sr@100'] ?? 0, mrr: m['mrr'] ?? 0 } };
  });
  const first = methods.filter((m) => ['bm25', 'dense', 'union'].includes(m.method)).reduce((a, b) => (b.metrics['p@1'] > a.metrics['p@1'] ? b : a));
  const re = methods.find((m) => m.method === CV_METHOD)!;
  const cvWeights = Object.fromEntries(RANK_FEATURES.map((f, j) => [f, cv.foldWeights.reduce((s, w) => s + w[j]!, 0) / cv.foldWeights.length]));
  const hitAt1 = (method: string, qid: string) => {
    const top = runs.get(method)?.get(qid)?.[0];
    return top !== undefined && (qrels.get(qid)?.get(top) ?? 0) > 0;
  };
  const versusFirstStage = { gained: 0, lost: 0 };
  for (const c of claims) {
    const a = hitAt1(first.method, c.qid);
    const b = hitAt1(CV_METHOD, c.qid);
    if (b && !a) versusFirstStage.gained++;
    if (a && !b) versusFirstStage.lost++;
  }
  const cvSeeds = (opts.extraSeeds ?? []).map((s) => {
    const scores = crossValidatedScores(examples, RANK_FEATURES.length, folds, s).scores;
    const run = new Map(claims.map((c, qi) => [c.qid, reranked(c, (i) => scores[qi]![i]!, 1)]));
    return { seed: s, p1: evaluateRun(run, qrels, [1]).metrics['p@1'] ?? 0 };
  });
  return {
    methods,
    headline: { bestFirstStage: first.method, bestFirstStageP1: first.metrics['p@1'], reranked: re.method, rerankedP1: re.metrics['p@1'] },
    cvWeights,
    cvSeeds: [{ seed, p1: re.metrics['p@1'] }, ...cvSeeds],
    versusFirstStage,
  };
}

export async function runCitationRecoveryEval(opts: RecoveryOptions): Promise<CitationRecoveryResult> {
  const name = opts.name ?? (opts.data ? datasetName(opts.data) : 'queries');
  await checkQrelDocs({ name, queries: opts.queries, qrels: opts.qrels }, storeDocIds(opts.store), 'the index (build it with --corpus over the cited pages and the distractors)', opts.data ?? name);
  const t0 = performance.now();
  const claims = await collectRecoveryCandidates(opts);
  const t1 = performance.now();
  const scored = scoreRecovery(claims, opts.qrels, { ...opts, extraSeeds: opts.extraSeeds ?? [1, 2, 3, 4] });
  return {
    task: 'wice-citation-recovery',
    name,
    ...(opts.data ? { data: opts.data } : {}),
    nQueries: claims.length,
    depth: opts.depth ?? 20,
    passagesPerDoc: opts.passagesPerDoc ?? 3,
    folds: opts.folds ?? 5,
    seed: opts.seed ?? 13,
    ...scored,
    seconds: { collect: (t1 - t0) / 1000, rerank: (performance.now() - t1) / 1000 },
    createdAt: new Date().toISOString(),
  };
}
