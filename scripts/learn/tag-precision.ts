/**
 * How often a proposed {{failed verification}} tag is right (issue 36: tags only at precision >= 0.8), out of
 * fold, on WiCE dev (rows of scripts/learn/citation-band-rows.ts, banded as the audit bands them: P(supports)
 * and page similarity through the shipped calibration's support signal and probability curve) and the shipped
 * sample (the rows of the latest run in eval-results/citation-sets.json).
 *
 * A tag is proposed for a decisive finding (`stated`) or a probability below tagBelow (verify/decision.ts). It
 * is right when the citation is not labelled supported (the source does not support the text as written:
 * WiCE's not_supported and partially_supported; the strict share, not_supported alone, is reported too).
 * tagBelow is chosen as the highest threshold whose in-fold precision is >= 0.8; out of fold: 5 folds by
 * article (WiCE's page title; the sample is one article), each fold's tags decided by the threshold chosen on
 * the other four.
 *
 *   node --import tsx scripts/learn/citation-band-rows.ts --out eval-results/tag-precision-rows-dev.json && node --import tsx scripts/learn/tag-precision.ts
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultCalibrationPath, loadCalibration, probabilityOf } from '../../src/audit/calibration.js';
import { supportSignal } from '../../src/audit/support-signal.js';
import { BAND_THRESHOLDS, TAG_PRECISION_MIN } from '../../src/verify/decision.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: 'eval-results/tag-precision-rows-dev.json' }, sets: { type: 'string', default: 'eval-results/citation-sets.json' }, run: { type: 'string', default: 'after-fix' }, out: { type: 'string', default: 'eval-results/tag-precision.json' } } });

interface Item {
  group: string;
  label: string;
  p: number;
  stated: boolean;
  from: 'wice' | 'sample';
}

// The audit's support-signal calibration (the one the shipped audit flags and bands with).
const cal = await loadCalibration(join(dirname(defaultCalibrationPath()), 'wice-dev-support.json'));
if (!cal.probability || !cal.supportSignal) throw new Error(`${cal.path}: no probability curve or support signal`);
const rows = (JSON.parse(await readFile(values.rows!, 'utf8')) as { rows: { group: string; label: string; probability: number; similarity: number; stated?: boolean; contradicted: boolean }[] }).rows;
const items: Item[] = rows.map((r) => ({ group: r.group, label: r.label, p: probabilityOf(cal.probability!, supportSignal(r.probability, r.similarity, cal.supportSignal!)), stated: !!r.stated, from: 'wice' }));
const sets = JSON.parse(await readFile(values.sets!, 'utf8')) as { runs: Record<string, { sample: { articles: { score: { rows: { label: string; probability?: number; stated?: boolean }[] } }[] } }> };
for (const r of sets.runs[values.run!]!.sample.articles[0]!.score.rows) if (r.probability !== undefined) items.push({ group: 'Breast cancer risk factors (sample)', label: r.label, p: r.probability, stated: !!r.stated, from: 'sample' });

// A tag only inside the not-supported band: a citation banded partly supported or needs review gets none.
const GRID = Array.from({ length: 41 }, (_, i) => i * 0.005).filter((t) => t <= BAND_THRESHOLDS.notSupportedBelow).concat(BAND_THRESHOLDS.notSupportedBelow);
const tagged = (xs: readonly Item[], t: number) => xs.filter((x) => x.stated || x.p < t);
const precision = (xs: readonly Item[]) => (xs.length ? xs.filter((x) => x.label !== 'supported').length / xs.length : NaN);
const strict = (xs: readonly Item[]) => (xs.length ? xs.filter((x) => x.label === 'not_supported').length / xs.length : NaN);
/** The highest threshold whose tags reach the precision (0: only findings). */
const choose = (xs: readonly Item[]) => Math.max(0, ...GRID.filter((t) => tagged(xs, t).length > 0 && precision(tagged(xs, t)) >= TAG_PRECISION_MIN && precision(xs.filter((x) => !x.stated && x.p < t)) >= TAG_PRECISION_MIN));

const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
const FOLDS = 5;
const heldOut: Item[] = [];
const chosen: number[] = [];
for (let f = 0; f < FOLDS; f++) {
  const test = items.filter((x) => hash(x.group) % FOLDS === f);
  const t = choose(items.filter((x) => hash(x.group) % FOLDS !== f));
  chosen.push(t);
  heldOut.push(...tagged(test, t));
}
const all = choose(items);
const fig = (xs: readonly Item[]) => ({ tags: xs.length, precision: Number(precision(xs).toFixed(3)), strictPrecision: Number(strict(xs).toFixed(3)), onSupported: xs.filter((x) => x.label === 'supported').length });
const result = {
  definition: 'a tag is right when the citation is not labelled supported (not_supported or partially_supported); strictPrecision: not_supported only',
  items: { wice: items.filter((x) => x.from === 'wice').length, sample: items.filter((x) => x.from === 'sample').length },
  outOfFold: { folds: FOLDS, thresholds: chosen, ...fig(heldOut), wice: fig(heldOut.filter((x) => x.from === 'wice')), sample: fig(heldOut.filter((x) => x.from === 'sample')) },
  findingsOnly: { ...fig(items.filter((x) => x.stated)), wice: fig(items.filter((x) => x.stated && x.from === 'wice')), sample: fig(items.filter((x) => x.stated && x.from === 'sample')) },
  tagBelow: all,
  inSampleAtTagBelow: fig(tagged(items, all)),
};
console.log(JSON.stringify(result, null, 1));
await writeFile(values.out!, JSON.stringify({ command: `node --import tsx scripts/learn/tag-precision.ts --rows ${values.rows} --run ${values.run}`, calibration: cal.path, ...result }, null, 1) + '\n');
