/**
 * Failed-verification threshold on the audit's probability of support (audit/support.ts), chosen on WiCE
 * dev as `veracite calibrate` chooses the engine's and the ranker's (not_supported: max F1;
 * not_or_partially_supported: highest recall at precision >= 0.8), written in the same format with
 * `support` naming the NLI head, so an audit that loads the support model flags on P(supports):
 *
 *   node --import tsx src/learn/calibrate-support.ts --data ../shared/data/wice/claim_dev.jsonl
 */
import { parseArgs } from 'node:util';
import { saveCalibration, scoringHash, type CalibrationDefinition, type CalibrationFile } from '../audit/calibration.js';
import { chooseOperatingPoint, f1, type ThresholdCriterion } from '../audit/detection-metrics.js';
import { loadAuditScorer } from '../audit/load-scorer.js';
import { DEFAULT_SCORING } from '../audit/score-document.js';
import { loadSupportModel } from '../audit/support.js';
import { detectionMetrics, POSITIVE_DEFINITIONS, readWiceClaims, type PositiveDefinition } from '../eval/run-citation-detection.js';
import { supportDetection } from '../eval/support-detection.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/wice/claim_dev.jsonl' }, out: { type: 'string', default: 'models/calibration/wice-dev-support.json' }, cache: { type: 'string', default: 'tmp/embcache-wice-cal' } } });
const claims = await readWiceClaims(values.data!);
const loaded = await loadAuditScorer('trained', { embeddingCacheDir: values.cache! });
const support = await loadSupportModel(loaded.scorer, loaded.embedder);
if ('reason' in support) throw new Error(support.reason);
const r = await supportDetection(loaded.scorer, support, claims, (d, t) => d % 80 === 0 && process.stderr.write(`calibrate-support: ${d}/${t}\n`));
const labels = claims.map((c) => c.label);
const criteria: Record<PositiveDefinition, ThresholdCriterion> = { not_supported: { kind: 'max-f1' }, not_or_partially_supported: { kind: 'precision', target: 0.8 } };
const definitions: Record<string, CalibrationDefinition> = {};
for (const def of Object.keys(POSITIVE_DEFINITIONS) as PositiveDefinition[]) {
  const { metrics, curve } = detectionMetrics(r.support, labels, def);
  const c = criteria[def];
  const { point, met } = chooseOperatingPoint(curve, c);
  definitions[def] = {
    positives: [...POSITIVE_DEFINITIONS[def]],
    positivesCount: metrics.positives,
    criterion: c.kind === 'max-f1' ? 'max-f1' : `${c.kind}>=${c.target}`,
    criterionMet: met,
    threshold: point.threshold,
    atThreshold: { precision: point.precision, recall: point.recall, f1: f1(point), flagged: point.flagged },
    rocAuc: metrics.rocAuc,
    averagePrecision: metrics.averagePrecision,
    precisionAt15Recall: metrics.precisionAt15Recall,
    curve: curve.map((p) => ({ threshold: p.threshold, precision: p.precision, recall: p.recall, flagged: p.flagged })),
  };
  console.log(`${def}: P(supports) <= ${point.threshold.toFixed(4)} (${definitions[def]!.criterion}) -> precision ${point.precision.toFixed(3)}, recall ${point.recall.toFixed(3)}, flagged ${point.flagged}/${claims.length}; ROC AUC ${metrics.rocAuc.toFixed(3)}, P@15%R ${metrics.precisionAt15Recall.toFixed(3)}`);
}
const labelCounts: Record<string, number> = {};
for (const l of labels) labelCounts[l] = (labelCounts[l] ?? 0) + 1;
const file: CalibrationFile = {
  format: 'veracite-calibration',
  version: 1,
  command: `node --import tsx src/learn/calibrate-support.ts --data ${values.data} --out ${values.out}`,
  data: { path: values.data!, n: claims.length, labelCounts },
  scorer: loaded.scorer.info,
  support: support.info,
  scoring: DEFAULT_SCORING,
  queryContext: 'none',
  configHash: scoringHash(loaded.scorer.info, DEFAULT_SCORING, 'none', undefined, support.info),
  defaultDefinition: 'not_supported',
  definitions,
  createdAt: new Date().toISOString(),
};
await saveCalibration(values.out!, file);
console.log(`saved ${values.out}`);
await loaded.close();
