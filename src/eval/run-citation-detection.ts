/**
 * WiCE dev as a citation-audit benchmark: each record is a Wikipedia claim (with its context, article
 * title and section) and the sentence-split text of the page it cites, labelled supported /
 * partially_supported / not_supported. We score the cited page the way `veracite audit` does (document
 * score = max passage score) and measure how well a LOW score detects unsupported citations:
 * precision-recall curve, precision at 15% recall (SIDE's operating point), ROC AUC, average precision,
 * for two positive definitions, beside lexical baselines.
 *
 * SIDE's URL-depth baseline needs the cited URL; WiCE's claim_dev has none (meta holds id, claim_title,
 * claim_section, claim_context; the evidence's "(meta data)" lines name publisher/author pages, not the
 * cited page), so the baselines here are BM25 and TF-IDF similarity of the claim to the best passage.
 */
import { chunkPassages } from '../corpus/passages.js';
import { splitText } from '../corpus/split-text.js';
import type { Document } from '../corpus/types.js';
import type { Embedder, ModelInfo, PairScorer } from '../models/types.js';
import { rankFeatures } from '../audit/rank-features.js';
import type { SourceRanker } from '../audit/source-ranker.js';
import { averagePrecision, precisionAtRecall, prCurve, rocAuc, type PrPoint } from '../learn/detection-metrics.js';
import { Bm25Stats } from '../text/bm25-stats.js';
import { verificationQuery, type QueryContext } from '../audit/query.js';
import { DEFAULT_SCORING, scoreDocuments, type ScoringConfig } from '../audit/score-document.js';
import { tfidfRank } from '../text/tfidf.js';
import { readFile } from 'node:fs/promises';

export const WICE_LABELS = ['supported', 'partially_supported', 'not_supported'] as const;
export type WiceLabel = (typeof WICE_LABELS)[number];

export interface WiceClaim {
  id: string;
  claim: string;
  context: string[];
  title: string;
  section: string;
  label: WiceLabel;
  /** The cited page as WiCE gives it (sentence list). */
  doc: Document;
}

/** Positive = "this citation fails verification". */
export const POSITIVE_DEFINITIONS = {
  not_supported: ['not_supported'],
  not_or_partially_supported: ['not_supported', 'partially_supported'],
} as const satisfies Record<string, readonly WiceLabel[]>;
export type PositiveDefinition = keyof typeof POSITIVE_DEFINITIONS;

export async function readWiceClaims(path: string): Promise<WiceClaim[]> {
  const lines = (await readFile(path, 'utf8')).split(/\r?\n/);
  const out: WiceClaim[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const r = JSON.parse(line) as { claim?: unknown; label?: unknown; evidence?: unknown; meta?: Record<string, unknown> };
    const where = `${path}:${i + 1}`;
    if (typeof r.claim !== 'string') throw new Error(`${where}: "claim" missing`);
    if (!WICE_LABELS.includes(r.label as WiceLabel)) throw new Error(`${where}: "label" must be one of ${WICE_LABELS.join(', ')}`);
    if (!Array.isArray(r.evidence) || !r.evidence.every((s) => typeof s === 'string')) throw new Error(`${where}: "evidence" must be a list of sentences`);
    const meta = r.meta ?? {};
    const id = typeof meta['id'] === 'string' ? meta['id'] : `line${i + 1}`;
    const str = (k: string) => (typeof meta[k] === 'string' ? (meta[k] as string) : '');
    const sentences = r.evidence as string[];
    // The page's own title is WiCE's first "(meta data) TITLE:" line when present.
    const pageTitle = /^\(meta data\) TITLE:\s*(.*)$/.exec(sentences[0] ?? '')?.[1] ?? '';
    out.push({
      id,
      claim: r.claim,
      context: splitText(str('claim_context')),
      title: str('claim_title'),
      section: str('claim_section').replace(/\.\s*$/, ''),
      label: r.label as WiceLabel,
      doc: { id: `wice:${id}`, title: pageTitle, sentences },
    });
  });
  return out;
}

export interface DetectionVariant {
  name: string;
  scoring: ScoringConfig;
  queryContext: QueryContext;
}

/** Support score of each claim's cited page (higher = better supported), in input order. */
export async function scoreWiceClaims(
  scorer: PairScorer,
  claims: readonly WiceClaim[],
  variant: Pick<DetectionVariant, 'scoring' | 'queryContext'>,
  onProgress?: (done: number, total: number) => void,
  batch = 8,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < claims.length; i += batch) {
    const chunk = claims.slice(i, i + batch);
    const jobs = chunk.map((c) => ({ query: verificationQuery({ claim: c.claim, context: c.context, articleTitle: c.title }, variant.queryContext), doc: c.doc }));
    const scores = await scoreDocuments(scorer, jobs, variant.scoring);
    // A page with no text is as unsupported as it gets (WiCE has none; kept for other data sets).
    for (const s of scores) out.push(s.score ?? -Infinity);
    onProgress?.(Math.min(i + batch, claims.length), claims.length);
  }
  return out;
}

export interface DetectionMetrics {
  n: number;
  positives: number;
  positiveRate: number;
  rocAuc: number;
  averagePrecision: number;
  precisionAt15Recall: number;
  precisionAt30Recall: number;
  precisionAt50Recall: number;
}

/** Metrics of a support score as a detector of the positive labels (low support = flagged). */
export function detectionMetrics(support: readonly number[], labels: readonly WiceLabel[], definition: PositiveDefinition): { metrics: DetectionMetrics; curve: PrPoint[] } {
  const pos = labels.map((l) => (POSITIVE_DEFINITIONS[definition] as readonly string[]).includes(l));
  const detection = support.map((s) => -s);
  const curve = prCurve(detection, pos);
  const positives = pos.filter(Boolean).length;
  return {
    metrics: {
      n: labels.length,
      positives,
      positiveRate: positives / labels.length,
      rocAuc: rocAuc(detection, pos),
      averagePrecision: averagePrecision(curve),
      precisionAt15Recall: precisionAtRecall(curve, 0.15),
      precisionAt30Recall: precisionAtRecall(curve, 0.3),
      precisionAt50Recall: precisionAtRecall(curve, 0.5),
    },
    // Curve in support-score units: flag when support <= threshold.
    curve: curve.map((p) => ({ ...p, threshold: -p.threshold })),
  };
}

function citedPassages(claims: readonly WiceClaim[], maxWords: number): string[][] {
  return claims.map((c) => chunkPassages(c.doc, { maxWords }).map((p) => p.text));
}

/** IDF over every passage of every cited page: the "corpus" an auditor of these claims would have. */
function citedPageStats(passages: readonly string[][]): Bm25Stats {
  return Bm25Stats.build(passages.flat());
}

/** Lexical baselines: similarity of the bare claim to the page's best ~100-word passage. */
export function lexicalBaselines(claims: readonly WiceClaim[], maxWords = 100): { bm25: number[]; tfidf: number[] } {
  const passages = citedPassages(claims, maxWords);
  const stats = citedPageStats(passages);
  return {
    bm25: claims.map((c, i) => Math.max(0, ...passages[i]!.map((p) => stats.score(c.claim, p)))),
    tfidf: claims.map((c, i) => (passages[i]!.length ? Math.max(...tfidfRank(c.claim, passages[i]!)) : 0)),
  };
}

/**
 * The source ranker's score of each claim's cited page (the audit's ranker flag signal), from the engine's
 * scores of the same pages. IDF comes from every cited page's passages, as for the lexical baselines.
 */
export async function rankerSupport(claims: readonly WiceClaim[], engineScores: readonly number[], ranker: SourceRanker, embedder: Embedder, maxWords = 100): Promise<number[]> {
  const stats = citedPageStats(citedPassages(claims, maxWords));
  const out: number[] = [];
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]!;
    const query = { claim: c.claim, context: c.context, articleTitle: c.title, sectionPath: c.section ? [c.section] : [] };
    const engine = engineScores[i]!;
    const [row] = await rankFeatures(query, [{ doc: c.doc, engineScore: Number.isFinite(engine) ? engine : undefined }], { stats, embedder, maxWords });
    out.push(ranker.score(row!));
  }
  return out;
}

export interface VariantResult {
  name: string;
  config: Omit<DetectionVariant, 'name'>;
  seconds: number;
  metrics: Record<PositiveDefinition, DetectionMetrics>;
  /** Set when the support score is the source ranker's. */
  ranker?: ModelInfo;
}

export interface CitationDetectionResult {
  task: 'wice-citation-detection';
  data: string;
  n: number;
  labelCounts: Record<WiceLabel, number>;
  positiveDefinitions: typeof POSITIVE_DEFINITIONS;
  urlDepthBaseline: string;
  scorer: ModelInfo;
  variants: VariantResult[];
  baselines: { name: string; description: string; metrics: Record<PositiveDefinition, DetectionMetrics> }[];
  /** The variant with the best mean ROC AUC over the two definitions, and its curves. */
  best: { name: string; curves: Record<PositiveDefinition, PrPoint[]> };
  createdAt: string;
}

export interface DetectionEvalOptions {
  data: string;
  claims: readonly WiceClaim[];
  scorer: PairScorer;
  variants: readonly DetectionVariant[];
  /** Also score the source ranker's signal (on the audit's default scoring), when given. */
  ranker?: { ranker: SourceRanker; embedder: Embedder };
  onVariant?: (name: string, done: number, total: number) => void;
}

export const URL_DEPTH_NOTE =
  'not computed: WiCE claim_dev has no cited URL (meta = id, claim_title, claim_section, claim_context; the evidence\'s "(meta data)" lines name publisher/author pages only); BM25 / TF-IDF similarity baselines reported instead';

export async function runCitationDetectionEval(opts: DetectionEvalOptions): Promise<CitationDetectionResult> {
  const labels = opts.claims.map((c) => c.label);
  const both = (support: number[]) => {
    const m = {} as Record<PositiveDefinition, DetectionMetrics>;
    const curves = {} as Record<PositiveDefinition, PrPoint[]>;
    for (const d of Object.keys(POSITIVE_DEFINITIONS) as PositiveDefinition[]) {
      const r = detectionMetrics(support, labels, d);
      m[d] = r.metrics;
      curves[d] = r.curve;
    }
    return { m, curves };
  };
  const variants: VariantResult[] = [];
  let best: { name: string; auc: number; curves: Record<PositiveDefinition, PrPoint[]> } | undefined;
  const record = (v: DetectionVariant, support: number[], t0: number, ranker?: ModelInfo) => {
    const { m, curves } = both(support);
    variants.push({ name: v.name, config: { scoring: v.scoring, queryContext: v.queryContext }, seconds: (performance.now() - t0) / 1000, metrics: m, ...(ranker ? { ranker } : {}) });
    const auc = (m.not_supported.rocAuc + m.not_or_partially_supported.rocAuc) / 2;
    if (!best || auc > best.auc) best = { name: v.name, auc, curves };
  };
  // Engine scores by settings: the ranker reuses the audit-default variant's when it was run.
  const engineBySettings = new Map<string, number[]>();
  const settingsKey = (v: Pick<DetectionVariant, 'scoring' | 'queryContext'>) => JSON.stringify([v.scoring, v.queryContext]);
  for (const v of opts.variants) {
    const t0 = performance.now();
    const support = await scoreWiceClaims(opts.scorer, opts.claims, v, (d, t) => opts.onVariant?.(v.name, d, t));
    engineBySettings.set(settingsKey(v), support);
    record(v, support, t0);
  }
  if (opts.ranker) {
    // The audit's settings: sentence-level engine scores, claim alone, default pre-selection.
    const v: DetectionVariant = { name: `ranker (sentence/none/${DEFAULT_SCORING.preselect})`, scoring: DEFAULT_SCORING, queryContext: 'none' };
    const t0 = performance.now();
    const engine = engineBySettings.get(settingsKey(v)) ?? (await scoreWiceClaims(opts.scorer, opts.claims, v, (d, t) => opts.onVariant?.(v.name, d, t)));
    record(v, await rankerSupport(opts.claims, engine, opts.ranker.ranker, opts.ranker.embedder, v.scoring.maxWords), t0, opts.ranker.ranker.info);
  }
  const lex = lexicalBaselines(opts.claims);
  const labelCounts = { supported: 0, partially_supported: 0, not_supported: 0 } as Record<WiceLabel, number>;
  for (const l of labels) labelCounts[l]++;
  return {
    task: 'wice-citation-detection',
    data: opts.data,
    n: opts.claims.length,
    labelCounts,
    positiveDefinitions: POSITIVE_DEFINITIONS,
    urlDepthBaseline: URL_DEPTH_NOTE,
    scorer: opts.scorer.info,
    variants,
    baselines: [
      { name: 'bm25', description: 'BM25 of the claim vs the best ~100-word passage (IDF over all cited pages\' passages)', metrics: both(lex.bm25).m },
      { name: 'tfidf', description: 'TF-IDF cosine of the claim vs the best passage (IDF over the page\'s passages)', metrics: both(lex.tfidf).m },
    ],
    best: { name: best?.name ?? '', curves: best?.curves ?? ({} as Record<PositiveDefinition, PrPoint[]>) },
    createdAt: new Date().toISOString(),
  };
}
