/**
 * The score distribution of one audit's citations, with the flag threshold: for the audit's HTML report
 * (src/audit/report-html.ts takes the SVG) and for anything else that shows an audit. The scores are the
 * ones the flag is decided on (the source ranker's with a ranker calibration, else the engine's).
 */
import { renderAuditHtml, signalScore } from '../audit/report-html.js';
import type { AuditReport } from '../audit/types.js';
import { renderSvg, scoreDistributionSpec } from './charts.js';
import { scaleOf } from './eval-figures.js';

export function auditScoreSpec(report: AuditReport) {
  const signal = report.provenance.flagging.signal ?? 'engine';
  const scorer = report.provenance.models[0];
  const scored = report.citations.filter((c) => c.verification);
  const threshold = report.provenance.flagging.threshold;
  return scoreDistributionSpec({
    title: `Scores of the ${scored.length} scored citations`,
    scores: scored.map((c) => ({ score: signalScore(c, signal), flagged: !!c.verification!.flagged })),
    scale: scaleOf({ ranker: signal === 'ranker', ...(scorer ? { backend: scorer.backend, id: scorer.id } : {}) }),
    ...(threshold !== undefined ? { threshold } : {}),
  });
}

/** SVG of the distribution, or undefined when no citation was scored. */
export async function auditScoreChartSvg(report: AuditReport): Promise<string | undefined> {
  if (!report.citations.some((c) => c.verification)) return undefined;
  return renderSvg(auditScoreSpec(report), 'scores-');
}

/** The audit's HTML report with its score distribution: what `veracite audit --html` should write. */
export async function renderAuditHtmlWithChart(report: AuditReport): Promise<string> {
  const svg = await auditScoreChartSvg(report);
  return renderAuditHtml(report, svg ? { scoreChartSvg: svg } : {});
}
