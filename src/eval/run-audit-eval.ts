/**
 * `veracite eval audit`: an editor's own labelled article becomes an evaluation. The article (wikitext,
 * HTML or WAFER JSONL) is audited as `veracite audit` would (same auditor, same sources), and its
 * failed-verification flags are scored against per-citation human labels (audit-labels.ts):
 *
 * - at the default threshold (the one the audit flags with): flagged, precision, recall, F1, for both
 *   positive definitions (not_supported; not_or_partially_supported);
 * - the precision-recall curve of the flag signal (the ranker's score of the cited page with a ranker
 *   calibration, else the engine's), ROC AUC, average precision, precision at 15% recall;
 * - baselines the data allows: SIDE's URL depth (citations with a URL) and the article's own
 *   {{failed verification}} tags.
 *
 * Only citations whose source text was found are scored (an unreadable source is never flagged); recall
 * is also given over every labelled positive (`recallOfAllPositives`), so "could not check" is visible.
 */
import type { CitationAuditor } from '../audit/audit.js';
import { signalScore } from '../audit/report-scale.js';
import type { AuditInput, AuditReport, CitationAudit } from '../audit/types.js';
import type { PrPoint } from '../learn/detection-metrics.js';
import type { SourceStatus } from '../sources/types.js';
import { loadAuditLabels, type AuditLabel, type MatchedLabels } from './audit-labels.js';
import { datasetName } from './dataset-name.js';
import type { SupportLabel } from './label-aliases.js';
import { POSITIVE_DEFINITIONS, detectionMetrics, type DetectionMetrics, type PositiveDefinition } from './run-citation-detection.js';

export interface AtThreshold {
  /** Flag when the signal is <= threshold (the audit's rule). */
  threshold: number;
  flagged: number;
  truePositives: number;
  precision: number;
  /** Over positives whose source was scored. */
  recall: number;
  /** Over every labelled positive, including those whose source could not be read (never flagged). */
  recallOfAllPositives: number;
  f1: number;
}

export interface DefinitionResult {
  positives: number;
  positivesScored: number;
  /** Absent when the audit had no threshold (no matching calibration and no --threshold). */
  atThreshold?: AtThreshold;
  metrics: DetectionMetrics;
  /** In signal units: flag when signal <= threshold. */
  curve: PrPoint[];
}

export interface AuditEvalRow {
  /** 1-based position, as the audit prints it. */
  citation: number;
  id: string;
  claim: string;
  claimPrefix?: string;
  label: SupportLabel;
  status: SourceStatus;
  /** The flag signal (ranker or engine score), when the source was scored. */
  signal?: number;
  flagged?: boolean;
  urlDepth?: number;
  taggedFailedVerification: boolean;
  note?: string;
}

export interface AuditEvalResult {
  task: 'audit-eval';
  /** `--name`, else the article file's name. */
  name: string;
  article: AuditReport['article'];
  labels: string;
  /** Labelled citations evaluated, and the article's citations left without a label (skipped). */
  n: number;
  unlabelled: number[];
  labelCounts: Record<SupportLabel, number>;
  scored: number;
  notScored: Partial<Record<SourceStatus, number>>;
  /** What was verified for each citation (AuditConfig.claimText) and what was thresholded. */
  claimText: string;
  flagging: AuditReport['provenance']['flagging'];
  definitions: Record<PositiveDefinition, DefinitionResult>;
  baselines: { name: string; description: string; n: number; metrics: Record<PositiveDefinition, DetectionMetrics & { atFlag?: { flagged: number; precision: number; recall: number } }> }[];
  citations: AuditEvalRow[];
  createdAt: string;
}

const isPositive = (label: SupportLabel, d: PositiveDefinition) => (POSITIVE_DEFINITIONS[d] as readonly string[]).includes(label);

/** Scores an audit report's flags against labels (pure: no models; the runner below makes the report). */
export function scoreAuditAgainstLabels(report: AuditReport, labels: MatchedLabels, meta: { name: string; labels: string; unlabelled?: number[] }): AuditEvalResult {
  const signal = report.provenance.flagging.signal ?? 'engine';
  const threshold = report.provenance.flagging.threshold;
  const rows: AuditEvalRow[] = [];
  const labelled: { c: CitationAudit; l: AuditLabel }[] = [];
  for (const c of report.citations) {
    const l = labels.byIndex.get(c.index);
    if (!l) continue;
    labelled.push({ c, l });
    rows.push({
      citation: c.index + 1,
      id: c.id,
      claim: c.claim,
      ...(c.claimPrefix ? { claimPrefix: c.claimPrefix } : {}),
      label: l.label,
      status: c.source.status,
      ...(c.verification ? { signal: signalScore(c, signal), flagged: !!c.verification.flagged } : {}),
      ...(c.urlDepth !== undefined ? { urlDepth: c.urlDepth } : {}),
      taggedFailedVerification: c.tags.failedVerification,
      ...(l.note ? { note: l.note } : {}),
    });
  }
  const scored = labelled.filter(({ c }) => c.verification);
  const labelCounts: Record<SupportLabel, number> = { supported: 0, partially_supported: 0, not_supported: 0 };
  for (const { l } of labelled) labelCounts[l.label]++;
  const notScored: AuditEvalResult['notScored'] = {};
  for (const { c } of labelled) if (!c.verification) notScored[c.source.status] = (notScored[c.source.status] ?? 0) + 1;

  const definitions = {} as Record<PositiveDefinition, DefinitionResult>;
  for (const d of Object.keys(POSITIVE_DEFINITIONS) as PositiveDefinition[]) {
    const { metrics, curve } = detectionMetrics(
      scored.map(({ c }) => signalScore(c, signal)),
      scored.map(({ l }) => l.label),
      d,
    );
    const positives = labelled.filter(({ l }) => isPositive(l.label, d)).length;
    const r: DefinitionResult = { positives, positivesScored: metrics.positives, metrics, curve };
    if (threshold !== undefined) {
      const flagged = scored.filter(({ c }) => c.verification!.flagged);
      const tp = flagged.filter(({ l }) => isPositive(l.label, d)).length;
      const precision = flagged.length ? tp / flagged.length : 0;
      const recall = metrics.positives ? tp / metrics.positives : 0;
      r.atThreshold = {
        threshold,
        flagged: flagged.length,
        truePositives: tp,
        precision,
        recall,
        recallOfAllPositives: positives ? tp / positives : 0,
        f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
      };
    }
    definitions[d] = r;
  }

  return {
    task: 'audit-eval',
    name: meta.name,
    article: report.article,
    labels: meta.labels,
    n: labelled.length,
    unlabelled: meta.unlabelled ?? [],
    labelCounts,
    scored: scored.length,
    notScored,
    claimText: report.provenance.config.claimText ?? 'sentence',
    flagging: report.provenance.flagging,
    definitions,
    baselines: baselines(scored),
    citations: rows,
    createdAt: new Date().toISOString(),
  };
}

/** SIDE's URL depth and the article's own {{failed verification}} tags, on the scored citations. */
function baselines(scored: readonly { c: CitationAudit; l: AuditLabel }[]): AuditEvalResult['baselines'] {
  const out: AuditEvalResult['baselines'] = [];
  const withUrl = scored.filter(({ c }) => c.urlDepth !== undefined);
  if (withUrl.length) {
    out.push({
      name: 'url-depth',
      description: "SIDE's baseline: number of path elements of the cited URL (home pages flagged first), on the scored citations with a URL",
      n: withUrl.length,
      metrics: perDefinition(withUrl.map(({ c }) => c.urlDepth!), withUrl.map(({ l }) => l.label)),
    });
  }
  // The tag is a yes/no detector: support 0 when tagged, 1 otherwise; its single operating point is the flag.
  const tag = perDefinition(scored.map(({ c }) => (c.tags.failedVerification ? 0 : 1)), scored.map(({ l }) => l.label));
  for (const d of Object.keys(tag) as PositiveDefinition[]) {
    const tagged = scored.filter(({ c }) => c.tags.failedVerification);
    const tp = tagged.filter(({ l }) => isPositive(l.label, d)).length;
    tag[d].atFlag = { flagged: tagged.length, precision: tagged.length ? tp / tagged.length : 0, recall: tag[d].positives ? tp / tag[d].positives : 0 };
  }
  out.push({ name: 'failed-verification tag', description: "the article's own {{failed verification}} tags as the flags", n: scored.length, metrics: tag });
  return out;
}

function perDefinition(support: number[], labels: SupportLabel[]): Record<PositiveDefinition, DetectionMetrics & { atFlag?: { flagged: number; precision: number; recall: number } }> {
  const m = {} as Record<PositiveDefinition, DetectionMetrics>;
  for (const d of Object.keys(POSITIVE_DEFINITIONS) as PositiveDefinition[]) m[d] = detectionMetrics(support, labels, d).metrics;
  return m;
}

export interface AuditEvalOptions {
  /** The auditor, built as for `veracite audit` (scorer, sources, index, ranker, flag rule, config). */
  auditor: Pick<CitationAuditor, 'auditArticle'>;
  input: AuditInput;
  /** The label file (JSONL, see audit-labels.ts). */
  labels: string;
  /** Default: the article file's name. */
  name?: string;
  /** 'error' (default): every citation needs a label; 'skip': unlabelled citations are not audited. */
  unlabelled?: 'error' | 'skip';
  onProgress?: (done: number, total: number) => void;
}

/**
 * Checks the labels against the article (all problems at once, before any work), audits the labelled
 * citations, and scores the flags. Returns the evaluation and the audit report it was computed from.
 */
export async function runAuditEval(opts: AuditEvalOptions): Promise<{ result: AuditEvalResult; report: AuditReport }> {
  const matched = await loadAuditLabels(opts.labels, opts.input.citations, opts.input.origin, opts.unlabelled ? { unlabelled: opts.unlabelled } : {});
  // Only labelled citations are audited; each keeps its `index`, the article position the labels refer to.
  const citations = opts.input.citations.filter((c) => matched.byIndex.has(c.index));
  const report = await opts.auditor.auditArticle({ ...opts.input, citations }, opts.onProgress ? (p) => opts.onProgress!(p.done, p.total) : undefined);
  const result = scoreAuditAgainstLabels(report, matched, { name: opts.name ?? datasetName(opts.input.origin), labels: opts.labels, unlabelled: matched.unlabelled });
  return { result, report };
}
