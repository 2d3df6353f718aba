/**
 * Fits the audit's plain bands (src/audit/bands.ts) on WiCE dev rows (scripts/learn/citation-band-rows.ts) and
 * reports them out of fold by article: the 3x3 confusion (supported / partly / not) with the share sent to
 * needs-review, per fold seed and pooled. Prints the thresholds fitted on all rows (what BAND_THRESHOLDS ships).
 *
 *   node --import tsx scripts/learn/citation-bands.ts --rows eval-results/citation-band-rows-dev.json --out eval-results/citation-bands.json
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { bandsOutOfFold, evaluateBands, fitThresholds, probabilityModel, REVIEW_COST, BAND_COSTS, type BandRow } from '../../src/learn/bands.js';
import { bandOf, BAND_THRESHOLDS } from '../../src/audit/bands.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: 'eval-results/citation-band-rows-dev.json' }, out: { type: 'string', default: 'eval-results/citation-bands.json' } } });
const file = JSON.parse(await readFile(values.rows!, 'utf8')) as { data: string; rows: BandRow[] };
const rows = file.rows;
const oof = bandsOutOfFold(rows);
const pooled = evaluateBands(oof.flatMap((o) => o.bands.map((band, i) => ({ band, label: rows[i]!.label }))));
const prob = probabilityModel(rows);
const all = fitThresholds(rows.map((r) => ({ p: prob(r), contradicted: r.contradicted, label: r.label })));
const round = (t: typeof all) => ({ supportedFrom: +t.supportedFrom.toFixed(3), partlyFrom: +t.partlyFrom.toFixed(3), notSupportedBelow: +t.notSupportedBelow.toFixed(3) });
const shipped = evaluateBands(rows.map((r) => ({ band: bandOf(prob(r), r.contradicted, BAND_THRESHOLDS), label: r.label })));
const fmt = (e: ReturnType<typeof evaluateBands>) =>
  (['supported', 'partially_supported', 'not_supported'] as const).map((l) => `  ${l.padEnd(20)} ${(['supported', 'partly-supported', 'not-supported', 'needs-review'] as const).map((b) => String(+e.confusion[l][b].toFixed(1)).padStart(7)).join('')}`).join('\n');
console.log(`bands out of fold (5 folds by article, seeds ${oof.map((o) => o.seed).join(',')}), pooled over seeds (counts / ${oof.length}):`);
const perSeed = { ...pooled, confusion: Object.fromEntries(Object.entries(pooled.confusion).map(([l, r]) => [l, Object.fromEntries(Object.entries(r).map(([b, n]) => [b, n / oof.length]))])) } as typeof pooled;
console.log(`  label \\ band          supported  partly     not  review\n${fmt(perSeed)}`);
console.log(`  needs-review share ${(pooled.reviewShare * 100).toFixed(1)}% (seeds ${oof.map((o) => (o.evaluation.reviewShare * 100).toFixed(1)).join(', ')}); accuracy of the decided ${(pooled.accuracyDecided * 100).toFixed(1)}%; supported badge precision ${(pooled.supportedPrecision * 100).toFixed(1)}%; not_supported shown supported ${pooled.notSupportedShownSupported / oof.length} per seed; mean cost ${pooled.meanCost.toFixed(3)}`);
console.log(`thresholds fitted on all ${rows.length}: ${JSON.stringify(round(all))} (shipped: ${JSON.stringify(BAND_THRESHOLDS)}; shipped in sample: review ${(shipped.reviewShare * 100).toFixed(1)}%, decided accuracy ${(shipped.accuracyDecided * 100).toFixed(1)}%)`);
await writeFile(
  values.out!,
  JSON.stringify({ data: file.data, n: rows.length, costs: BAND_COSTS, reviewCost: REVIEW_COST, outOfFold: { folds: 5, seeds: oof.map((o) => o.seed), pooled, perSeed: oof.map((o) => ({ seed: o.seed, ...o.evaluation })) }, fittedOnAll: round(all), shipped: BAND_THRESHOLDS, shippedInSample: shipped }, null, 1) + '\n',
);
console.log(`wrote ${values.out}`);
