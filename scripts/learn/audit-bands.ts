/**
 * The plain bands of an audit report against labels (`{"citation": <1-based index>, "label": ...}` lines, as
 * data/samples/audit/labels.jsonl): the 3x3 confusion (supported / partly / not) and the share sent to review.
 * Bands are recomputed with the shipped thresholds (src/audit/bands.ts), so a report saved earlier reads the same.
 *
 *   node --import tsx scripts/learn/audit-bands.ts --report audit.json --labels data/samples/audit/labels.jsonl
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { citationBand } from '../../src/audit/bands.js';
import type { AuditReport } from '../../src/audit/types.js';
import { evaluateBands, type WiceLabel3 } from '../../src/learn/bands.js';

const { values } = parseArgs({ options: { report: { type: 'string' }, labels: { type: 'string', default: 'data/samples/audit/labels.jsonl' } } });
const report = JSON.parse(await readFile(values.report!, 'utf8')) as AuditReport;
const labels = new Map(
  (await readFile(values.labels!, 'utf8'))
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { citation: number; label: WiceLabel3 })
    .map((l) => [l.citation, l.label] as const),
);
const items: { band: Exclude<ReturnType<typeof citationBand>['band'], 'could-not-check'>; label: WiceLabel3 }[] = [];
let unchecked = 0;
for (const c of report.citations) {
  const label = labels.get(c.index + 1);
  if (!label) continue;
  const { band } = citationBand({ ...c, band: undefined } as typeof c);
  if (band === 'could-not-check') unchecked++;
  else items.push({ band, label });
}
const e = evaluateBands(items);
console.log(`${items.length} labelled citations banded (${unchecked} could not be checked)`);
console.log('label \\ band          supported  partly     not  review');
for (const l of ['supported', 'partially_supported', 'not_supported'] as const) console.log(`${l.padEnd(20)} ${(['supported', 'partly-supported', 'not-supported', 'needs-review'] as const).map((b) => String(e.confusion[l][b]).padStart(9)).join('')}`);
console.log(`needs-review share ${(e.reviewShare * 100).toFixed(1)}%; accuracy of the decided ${(e.accuracyDecided * 100).toFixed(1)}%; supported badge precision ${(e.supportedPrecision * 100).toFixed(1)}%`);
