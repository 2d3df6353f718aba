/**
 * The score distribution of one audit's citations, with the flag threshold: for the audit's HTML report
 * (src/audit/report-html.ts takes the SVG) and for anything else that shows an audit. The scores are the
 * report's one scale (src/audit/report-scale.ts): the calibrated probability of support, else the raw flag signal.
 */
import { renderAuditHtml } from '../audit/report-html.js';
import { reportScale } from '../audit/report-scale.js';
import type { AuditReport } from '../audit/types.js';
import { renderSvg, scoreDistributionSpec } from './charts.js';
import { scaleOf } from './eval-figures.js';

export function auditScoreSpec(report: AuditReport) {
  const scale = reportScale(report);
  const scorer = report.provenance.models[0];
  const scored = report.citations.filter((c) => c.verification);
  return scoreDistributionSpec({
    title: `Scores of the ${scored.length} scored citations`,
    scores: scored.map((c) => ({ score: scale.of(c), flagged: !!c.verification!.flagged })),
    scale: scale.kind === 'probability' ? 'probability that the cited source supports the claim (calibrated, 0..1)' : scaleOf({ ranker: scale.kind === 'ranker', ...(scorer ? { backend: scorer.backend, id: scorer.id } : {}) }),
    ...(scale.threshold !== undefined ? { threshold: scale.threshold } : {}),
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
