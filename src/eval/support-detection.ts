/**
 * WiCE dev detection of unsupported citations with the audit's probability of support (src/audit/support.ts):
 * the cited page scored as `veracite audit` scores it (sentence units, claim alone, default pre-selection),
 * then P(supports) of the verdict on its best evidence sentences. Reported beside the engine's and the
 * ranker's scores by the same metrics (ROC AUC, P@15%R, AP) and with the reliability of P(supports)
 * against "supported".
 */
import type { PairScorer } from '../models/types.js';
import { verificationQuery } from '../audit/query.js';
import { DEFAULT_SCORING, scoreDocuments, type ScoringConfig } from '../audit/score-document.js';
import { judgeSupport, type SupportJudgement, type SupportModel } from '../audit/support.js';
import { pageSimilarity } from '../audit/page-similarity.js';
import { coverageOfDocument } from '../verify/coverage.js';
import { reliability, type Reliability } from '../verify/reliability.js';
import { detectionMetrics, type DetectionMetrics, type PositiveDefinition, type WiceClaim } from './run-citation-detection.js';

export interface SupportDetection {
  /** Engine (relevance) score, P(supports), and the judgement per claim, in input order. */
  engine: number[];
  support: number[];
  /** The cited page's similarity to the claim (audit/page-similarity.ts), the support signal's second input. */
  similarity: number[];
  judgements: (SupportJudgement | undefined)[];
  metrics: Record<'engine' | 'support', Record<PositiveDefinition, DetectionMetrics>>;
  /** Share of claims the support judgement fails (irrelevant or contradicted), by WiCE label. */
  failsByLabel: Record<string, { n: number; fails: number }>;
  /** P(supports) against WiCE "supported". */
  reliability: Reliability;
}

export interface SupportDetectionOptions {
  onProgress?: (done: number, total: number) => void;
  batch?: number;
  /** The audit's scoring (app/audit.ts auditConfigOf: a profile's own evidence size); default DEFAULT_SCORING. */
  scoring?: ScoringConfig;
}

export async function supportDetection(scorer: PairScorer, support: SupportModel, claims: readonly WiceClaim[], opts: SupportDetectionOptions = {}): Promise<SupportDetection> {
  const { onProgress, batch = 8, scoring = DEFAULT_SCORING } = opts;
  const engine: number[] = [];
  const similarity: number[] = [];
  const judgements: (SupportJudgement | undefined)[] = [];
  for (let i = 0; i < claims.length; i += batch) {
    const chunk = claims.slice(i, i + batch);
    const queries = chunk.map((c) => verificationQuery({ claim: c.claim, context: c.context, articleTitle: c.title }, 'none'));
    const scores = await scoreDocuments(scorer, chunk.map((c, k) => ({ query: queries[k]!, doc: c.doc })), scoring);
    for (const s of scores) engine.push(s.score ?? -Infinity);
    chunk.forEach((c, k) => similarity.push(pageSimilarity(queries[k]!, c.doc)));
    judgements.push(...(await judgeSupport(support, scores.map((s, k) => ({ claim: queries[k]!, evidence: s.evidence, coverage: coverageOfDocument(queries[k]!, chunk[k]!.doc), sentences: chunk[k]!.doc.sentences })))));
    onProgress?.(Math.min(i + batch, claims.length), claims.length);
  }
  const sup = judgements.map((j) => j?.probability ?? 0);
  const labels = claims.map((c) => c.label);
  const both = (x: number[]) =>
    Object.fromEntries((['not_supported', 'not_or_partially_supported'] as const).map((d) => [d, detectionMetrics(x, labels, d).metrics])) as Record<PositiveDefinition, DetectionMetrics>;
  const failsByLabel: SupportDetection['failsByLabel'] = {};
  claims.forEach((c, i) => {
    const r = (failsByLabel[c.label] ??= { n: 0, fails: 0 });
    r.n++;
    if (judgements[i]?.fails) r.fails++;
  });
  return {
    engine,
    support: sup,
    similarity,
    judgements,
    metrics: { engine: both(engine), support: both(sup) },
    failsByLabel,
    reliability: reliability(sup, labels.map((l) => l === 'supported')),
  };
}
