/**
 * WiCE dev: how well the audit's signals detect unsupported citations, including the probability of support
 * and the audit's actual flag order (a source that fails the support judgement — irrelevant or contradicted —
 * is flagged whatever its ranker score). Saves eval-results/support-detection.json.
 *
 *   node --import tsx scripts/learn/support-detection.ts --data ../shared/data/wice/claim_dev.jsonl
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { wiceSupport } from './wice-support.js';
import { SourceRanker, defaultRankerPath } from '../../src/audit/source-ranker.js';
import { supportSignal } from '../../src/audit/support-signal.js';
import { fitSupportSignal } from '../../src/learn/support-signal.js';
import { fitProbability } from '../../src/learn/probability.js';
import { probabilityOf } from '../../src/audit/calibration.js';
import { detectionMetrics, rankerSupport, type PositiveDefinition } from '../../src/eval/run-citation-detection.js';
import { reliabilityTable } from '../../src/verify/reliability.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/wice/claim_dev.jsonl' }, out: { type: 'string', default: 'eval-results/support-detection.json' }, cache: { type: 'string', default: 'tmp/embcache-wice' }, profile: { type: 'string' } } });
// The audit's engine as the composition root loads it (no index: the claims carry their cited pages).
const { vc, claims, loaded, support, r } = await wiceSupport(values.data!, values.cache!, 'support-detection', 80, values.profile);
const labels = claims.map((c) => c.label);
const rows: Record<string, Record<PositiveDefinition, ReturnType<typeof detectionMetrics>['metrics']>> = { engine: r.metrics.engine, support: r.metrics.support };
const both = (x: number[]) => Object.fromEntries((['not_supported', 'not_or_partially_supported'] as const).map((d) => [d, detectionMetrics(x, labels, d).metrics])) as Record<PositiveDefinition, ReturnType<typeof detectionMetrics>['metrics']>;
// The audit flags in this order: failed judgements first, then by the flag signal.
const failedFirst = (x: number[]) => {
  const lo = Math.min(...x.filter(Number.isFinite)) - 1;
  return x.map((v, i) => (r.judgements[i]?.fails ? lo - (1 - (r.judgements[i]?.probability ?? 0)) : v));
};
rows['engine, failed judgements first'] = both(failedFirst(r.engine));
// Which part of the judgement fails: below the SciFact-fitted relevance gate, or contradicted (REFUTES).
const reasons: Record<string, { irrelevant: number; refuted: number; n: number }> = {};
claims.forEach((c, i) => {
  const x = (reasons[c.label] ??= { irrelevant: 0, refuted: 0, n: 0 });
  x.n++;
  const j = r.judgements[i];
  if (j && !j.relevant) x.irrelevant++;
  else if (j?.label === 'REFUTES') x.refuted++;
});
console.log(`fail reasons by label: ${JSON.stringify(reasons)}`);
const refutedFirst = (x: number[]) => {
  const lo = Math.min(...x.filter(Number.isFinite)) - 1;
  return x.map((v, i) => (r.judgements[i]?.relevant && r.judgements[i]?.label === 'REFUTES' ? lo - (r.judgements[i]?.probs.REFUTES ?? 0) : v));
};
rows['engine, refuted first'] = both(refutedFirst(r.engine));
const contradictedFirst = (x: number[]) => {
  const lo = Math.min(...x.filter(Number.isFinite)) - 1;
  return x.map((v, i) => (r.judgements[i]?.contradicted ? lo - (r.judgements[i]?.probs.REFUTES ?? 0) : v));
};
const contradicted: Record<string, number> = {};
claims.forEach((c, i) => r.judgements[i]?.contradicted && (contradicted[c.label] = (contradicted[c.label] ?? 0) + 1));
console.log(`contradicted (raw contradiction >= CONTRADICTED_MIN on relevant evidence, the conflict stated in words) by label: ${JSON.stringify(contradicted)}`);
rows['engine, contradicted first'] = both(contradictedFirst(r.engine));
// The audit's support signal: P(supports) with the page's similarity to the claim, by weights fitted on these
// claims (as `veracite calibrate --signal support` fits them); its out-of-fold figures (by article) are saved.
const signalFit = fitSupportSignal(claims.map((c, i) => ({ probability: r.support[i]!, similarity: r.similarity[i]!, fails: c.label === 'not_supported', group: c.title || c.claim })), values.data!);
const signal = r.support.map((p, i) => supportSignal(p, r.similarity[i]!, signalFit));
rows['page similarity alone'] = both(r.similarity);
rows['support signal (in sample)'] = both(signal);
rows['support signal, contradicted first'] = both(contradictedFirst(signal));
// As the audit orders its report: the signal read as a probability of support (its Platt fit on these claims),
// a contradicted source's capped at its P(supports) (audit.ts), and flagged whatever that says.
const platt = fitProbability(signal.map((x, i) => ({ signal: x, supported: claims[i]!.label === 'supported' })), values.data!);
rows['support signal, as the audit orders'] = both(signal.map((x, i) => (r.judgements[i]?.contradicted ? Math.min(probabilityOf(platt, x), r.support[i]!) : probabilityOf(platt, x))));
console.log(`support signal out of fold (${signalFit.outOfFold.folds} folds by article, seeds ${signalFit.outOfFold.seeds.join(',')}): not_supported AUC ${signalFit.outOfFold.rocAuc.toFixed(3)} P@15%R ${signalFit.outOfFold.precisionAt15Recall.toFixed(3)} AP ${signalFit.outOfFold.averagePrecision.toFixed(3)}`);
rows['support, contradicted first'] = both(contradictedFirst(r.support));
let rankerInfo;
try {
  const ranker = await SourceRanker.loadFor(loaded.scorer.info, defaultRankerPath());
  const rs = await rankerSupport(claims, r.engine, ranker, loaded.embedder!, 100);
  rows.ranker = both(rs);
  rows['ranker, failed judgements first'] = both(failedFirst(rs));
  rows['ranker, refuted first'] = both(refutedFirst(rs));
  rows['ranker, contradicted first'] = both(contradictedFirst(rs));
  rankerInfo = ranker.info;
} catch (e) {
  console.log(`no ranker rows: ${(e as Error).message}`);
}
await mkdir(dirname(values.out!), { recursive: true });
await writeFile(values.out!, JSON.stringify({ data: values.data, n: claims.length, scorer: loaded.scorer.info, nli: support.info, ranker: rankerInfo, rows, supportSignal: signalFit, failsByLabel: r.failsByLabel, reliability: r.reliability }, null, 2) + '\n');
console.log(`WiCE dev, ${claims.length} claims; failed support judgements by label: ${JSON.stringify(r.failsByLabel)}`);
for (const [name, m] of Object.entries(rows)) {
  console.log(`  ${name.padEnd(34)} not_supported: AUC ${m.not_supported.rocAuc.toFixed(3)} P@15%R ${m.not_supported.precisionAt15Recall.toFixed(3)} AP ${m.not_supported.averagePrecision.toFixed(3)} | +partial: AUC ${m.not_or_partially_supported.rocAuc.toFixed(3)} P@15%R ${m.not_or_partially_supported.precisionAt15Recall.toFixed(3)}`);
}
console.log('P(supports) vs WiCE "supported":');
console.log(reliabilityTable(r.reliability));
await vc.close();
