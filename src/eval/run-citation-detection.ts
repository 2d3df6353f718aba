/**
 * Citation detection on WiCE-shaped data (WiCE dev, or anyone's set in its shape): each record is a
 * Wikipedia claim (with its context, article title and section) and the sentence-split text of the page it
 * cites, labelled supported / partially_supported / not_supported (usual spellings accepted, see
 * label-aliases.ts). We score the cited page the way `veracite audit` does (document score = max passage
 * score) and measure how well a LOW score detects unsupported citations: precision-recall curve,
 * precision at 15% recall (SIDE's operating point), ROC AUC, average precision, for two positive
 * definitions, beside every baseline the data allows: BM25 and TF-IDF similarity of the claim to the best
 * passage always, and SIDE's URL-depth baseline when the records carry the cited URL (`url`, `cited_url`
 * or `source_url`, at the top level or in `meta`). WiCE's own claim_dev carries none (its meta holds id,
 * claim_title, claim_section, claim_context; the evidence's "(meta data)" lines name publisher pages).
 *
 * Records may also carry SIDE's text before the citation (`claim_prefix`, top level or `meta`); then the
 * audit-default variant is also scored with the prefix as the claim, so the two choices of
 * AuditConfig.claimText are compared on the same labels.
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
import { pageSimilarity } from '../audit/page-similarity.js';
import { urlDepth } from '../audit/url-depth.js';
import type { ClaimText } from '../audit/types.js';
import { ProblemList, readJsonRecords } from './data-problems.js';
import { datasetName } from './dataset-name.js';
import { ACCEPTED_SUPPORT_LABELS, acceptedHint, supportLabel, unknownLabel } from './label-aliases.js';
import { POSITIVE_DEFINITIONS, WICE_LABELS, type PositiveDefinition, type WiceLabel } from './positive-definitions.js';

// Defined in positive-definitions.ts (light: the command line's help lists them).
export { POSITIVE_DEFINITIONS, WICE_LABELS, type PositiveDefinition, type WiceLabel };

export interface WiceClaim {
  id: string;
  /** The whole sentence. */
  claim: string;
  /** SIDE's text before the citation, when the record gives it (`claim_prefix`). */
  claimPrefix?: string;
  context: string[];
  title: string;
  section: string;
  label: WiceLabel;
  /** The cited page's URL, when the record gives it. */
  url?: string;
  /** The cited page as WiCE gives it (sentence list). */
  doc: Document;
}

/** A WiCE-shaped file, checked, labels in WiCE's spelling. */
export interface WiceData {
  /** `--name`, else the file name ("claim_dev"). */
  name: string;
  path: string;
  claims: WiceClaim[];
  labelCounts: Record<WiceLabel, number>;
  /** Labels written in another spelling (SUPPORTED, PARTIAL, REFUTES, NEI...) and mapped. */
  relabelled: number;
  /** Records that carry the cited URL / a claim prefix different from the claim. */
  withUrl: number;
  withPrefix: number;
}

const URL_FIELDS = ['url', 'cited_url', 'source_url'] as const;

/**
 * Reads and checks a WiCE-shaped file (`claim`, `label`, `evidence: [sentences]`, optional `meta` with id,
 * claim_title, claim_section, claim_context; optional cited URL and claim prefix) in full before any
 * scoring: every unknown label and malformed field is listed with file:line in one DataProblemsError.
 */
export async function readWiceData(path: string, opts: { name?: string } = {}): Promise<WiceData> {
  const problems = new ProblemList();
  const records = await readJsonRecords(path, problems);
  const out: WiceClaim[] = [];
  const ids = new Map<string, number>();
  const labelCounts: Record<WiceLabel, number> = { supported: 0, partially_supported: 0, not_supported: 0 };
  let relabelled = 0;
  for (const { file, line, value: r } of records) {
    const before = problems.size;
    const bad = (field: string, problem: string) => problems.add(file, line, field, problem);
    if (typeof r['claim'] !== 'string' || !r['claim'].trim()) bad('claim', 'missing or empty');
    const label = supportLabel(r['label']);
    if (!label) bad('label', unknownLabel(r['label']));
    const evidence = r['evidence'];
    if (!Array.isArray(evidence) || !evidence.every((x) => typeof x === 'string')) bad('evidence', 'must be the cited page as a list of sentences');
    const meta = (r['meta'] ?? {}) as Record<string, unknown>;
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) bad('meta', 'not an object');
    const pick = (k: string): unknown => r[k] ?? meta[k];
    const str = (k: string) => (typeof meta[k] === 'string' ? (meta[k] as string) : '');
    let url: string | undefined;
    for (const k of URL_FIELDS) {
      const v = pick(k);
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string' || !v.trim()) bad(k, 'the cited URL must be a non-empty string');
      else url ??= v.trim();
    }
    const prefix = pick('claim_prefix');
    if (prefix !== undefined && (typeof prefix !== 'string' || !prefix.trim())) bad('claim_prefix', 'must be a non-empty string (the claim up to the citation marker)');
    const id = typeof meta['id'] === 'string' || typeof meta['id'] === 'number' ? String(meta['id']) : typeof r['id'] === 'string' || typeof r['id'] === 'number' ? String(r['id']) : `line${line}`;
    if (ids.has(id)) bad('meta.id', `duplicate id ${JSON.stringify(id)} (first on line ${ids.get(id)})`);
    else ids.set(id, line);
    if (problems.size > before) continue;
    if (label !== r['label']) relabelled++;
    labelCounts[label!]++;
    const sentences = evidence as string[];
    // The page's own title is WiCE's first "(meta data) TITLE:" line when present.
    const pageTitle = /^\(meta data\) TITLE:\s*(.*)$/.exec(sentences[0] ?? '')?.[1] ?? '';
    const claim: WiceClaim = {
      id,
      claim: r['claim'] as string,
      context: splitText(str('claim_context') || (typeof r['context'] === 'string' ? r['context'] : '')),
      title: str('claim_title') || (typeof r['wiki_title'] === 'string' ? r['wiki_title'] : ''),
      section: (str('claim_section') || (typeof r['section'] === 'string' ? r['section'] : '')).replace(/\.\s*$/, ''),
      label: label!,
      doc: { id: `wice:${id}`, title: pageTitle, sentences },
    };
    if (url) claim.url = url;
    if (typeof prefix === 'string' && prefix.trim() !== claim.claim.trim()) claim.claimPrefix = prefix.trim();
    out.push(claim);
  }
  const name = datasetName(path, opts.name);
  problems.throwIfAny(`citation claims "${name}" (${path})`, acceptedHint(ACCEPTED_SUPPORT_LABELS));
  if (!out.length) throw new Error(`${path}: no records: a WiCE-shaped file has one JSON object per line ({claim, label, evidence: [sentences], meta?})`);
  return { name, path, claims: out, labelCounts, relabelled, withUrl: out.filter((c) => c.url).length, withPrefix: out.filter((c) => c.claimPrefix).length };
}

/** The claims of a WiCE-shaped file, checked (see readWiceData). */
export async function readWiceClaims(path: string): Promise<WiceClaim[]> {
  return (await readWiceData(path)).claims;
}

export interface DetectionVariant {
  name: string;
  scoring: ScoringConfig;
  queryContext: QueryContext;
  /** 'prefix' scores `claimPrefix` (where a record has one) instead of the claim; default 'sentence'. */
  claimText?: ClaimText;
}

/** The text a variant verifies for a claim. */
export function claimTextOf(c: WiceClaim, mode: ClaimText | undefined): string {
  return mode === 'prefix' && c.claimPrefix ? c.claimPrefix : c.claim;
}

/** Support score of each claim's cited page (higher = better supported), in input order. */
export async function scoreWiceClaims(
  scorer: PairScorer,
  claims: readonly WiceClaim[],
  variant: Pick<DetectionVariant, 'scoring' | 'queryContext' | 'claimText'>,
  onProgress?: (done: number, total: number) => void,
  batch = 8,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < claims.length; i += batch) {
    const chunk = claims.slice(i, i + batch);
    const jobs = chunk.map((c) => ({ query: verificationQuery({ claim: claimTextOf(c, variant.claimText), context: c.context, articleTitle: c.title }, variant.queryContext), doc: c.doc }));
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
    // The audit's page similarity (same passages, IDF over the page's own passages).
    tfidf: claims.map((c) => pageSimilarity(c.claim, c.doc, maxWords)),
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

export interface DetectionBaseline {
  name: string;
  description: string;
  metrics: Record<PositiveDefinition, DetectionMetrics>;
}

export interface CitationDetectionResult {
  /** The shape of the data (WiCE-shaped records), not its name. */
  task: 'wice-citation-detection';
  /** What the data is called: `--name`, else the file name. */
  name: string;
  data: string;
  n: number;
  labelCounts: Record<WiceLabel, number>;
  /** Records whose label was written in another spelling and mapped. */
  relabelled: number;
  positiveDefinitions: typeof POSITIVE_DEFINITIONS;
  /** How SIDE's URL-depth baseline was handled on this data (computed on how many records, or why not). */
  urlDepthBaseline: string;
  /** Records that carry a claim prefix; when > 0 the audit-default variant is also scored on prefixes. */
  withPrefix: number;
  scorer: ModelInfo;
  variants: VariantResult[];
  baselines: DetectionBaseline[];
  /** The variant with the best mean ROC AUC over the two definitions, and its curves. */
  best: { name: string; curves: Record<PositiveDefinition, PrPoint[]> };
  createdAt: string;
}

export interface DetectionEvalOptions {
  /** Path of the data (reported). */
  data: string;
  /** Name of the data; default: the file name. */
  name?: string;
  claims: readonly WiceClaim[];
  /** Label spellings mapped by the reader (reported). */
  relabelled?: number;
  scorer: PairScorer;
  variants: readonly DetectionVariant[];
  /** Also score the source ranker's signal (on the audit's default scoring), when given. */
  ranker?: { ranker: SourceRanker; embedder: Embedder };
  onVariant?: (name: string, done: number, total: number) => void;
}

/** Metrics of a support score for both positive definitions, with the curves. */
function bothDefinitions(support: readonly number[], labels: readonly WiceLabel[]) {
  const m = {} as Record<PositiveDefinition, DetectionMetrics>;
  const curves = {} as Record<PositiveDefinition, PrPoint[]>;
  for (const d of Object.keys(POSITIVE_DEFINITIONS) as PositiveDefinition[]) {
    const r = detectionMetrics(support, labels, d);
    m[d] = r.metrics;
    curves[d] = r.curve;
  }
  return { m, curves };
}

/**
 * SIDE's URL-depth baseline (deeper URL = more specific page = more likely to support; `urlDepth`) on the
 * records that carry a cited URL, or why it cannot be computed.
 */
export function urlDepthBaseline(claims: readonly WiceClaim[], name: string): { note: string; baseline?: DetectionBaseline } {
  const withUrl = claims.filter((c) => urlDepth(c.url) !== undefined);
  if (!withUrl.length) {
    return { note: `not computed: the records of "${name}" carry no cited URL (fields ${URL_FIELDS.join(' / ')}, top level or in meta); BM25 / TF-IDF similarity baselines reported instead` };
  }
  const labels = withUrl.map((c) => c.label);
  const scope = withUrl.length === claims.length ? `all ${claims.length} records` : `the ${withUrl.length} of ${claims.length} records that carry a parsable cited URL`;
  return {
    note: `computed on ${scope} (baseline "url-depth")`,
    baseline: { name: 'url-depth', description: `SIDE's baseline: number of path elements of the cited URL (home pages flagged first), on ${scope}`, metrics: bothDefinitions(withUrl.map((c) => urlDepth(c.url)!), labels).m },
  };
}

export async function runCitationDetectionEval(opts: DetectionEvalOptions): Promise<CitationDetectionResult> {
  const labels = opts.claims.map((c) => c.label);
  const name = opts.name ?? datasetName(opts.data);
  const both = (support: number[]) => bothDefinitions(support, labels);
  const variants: VariantResult[] = [];
  let best: { name: string; auc: number; curves: Record<PositiveDefinition, PrPoint[]> } | undefined;
  const record = (v: DetectionVariant, support: number[], t0: number, ranker?: ModelInfo) => {
    const { m, curves } = both(support);
    const { name: _n, ...config } = v;
    variants.push({ name: v.name, config, seconds: (performance.now() - t0) / 1000, metrics: m, ...(ranker ? { ranker } : {}) });
    const auc = (m.not_supported.rocAuc + m.not_or_partially_supported.rocAuc) / 2;
    if (!best || auc > best.auc) best = { name: v.name, auc, curves };
  };
  // Engine scores by settings: the ranker reuses the audit-default variant's when it was run.
  const engineBySettings = new Map<string, number[]>();
  const settingsKey = (v: Pick<DetectionVariant, 'scoring' | 'queryContext' | 'claimText'>) => JSON.stringify([v.scoring, v.queryContext, v.claimText ?? 'sentence']);
  const withPrefix = opts.claims.filter((c) => c.claimPrefix).length;
  const toRun = [...opts.variants];
  // The data gives SIDE's text before the citation: compare it with the sentence on the audit's settings.
  const auditDefault = opts.variants.find((v) => (v.claimText ?? 'sentence') === 'sentence' && v.queryContext === 'none' && JSON.stringify(v.scoring) === JSON.stringify(DEFAULT_SCORING));
  if (withPrefix > 0 && !opts.variants.some((v) => v.claimText === 'prefix')) {
    const base = auditDefault ?? opts.variants[0];
    if (base) toRun.push({ ...base, name: `${base.name} [claim prefix]`, claimText: 'prefix' });
  }
  for (const v of toRun) {
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
  const url = urlDepthBaseline(opts.claims, name);
  return {
    task: 'wice-citation-detection',
    name,
    data: opts.data,
    n: opts.claims.length,
    labelCounts,
    relabelled: opts.relabelled ?? 0,
    positiveDefinitions: POSITIVE_DEFINITIONS,
    urlDepthBaseline: url.note,
    withPrefix,
    scorer: opts.scorer.info,
    variants,
    baselines: [
      { name: 'bm25', description: 'BM25 of the claim vs the best ~100-word passage (IDF over all cited pages\' passages)', metrics: both(lex.bm25).m },
      { name: 'tfidf', description: 'TF-IDF cosine of the claim vs the best passage (IDF over the page\'s passages)', metrics: both(lex.tfidf).m },
      ...(url.baseline ? [url.baseline] : []),
    ],
    best: { name: best?.name ?? '', curves: best?.curves ?? ({} as Record<PositiveDefinition, PrPoint[]>) },
    createdAt: new Date().toISOString(),
  };
}
