/**
 * Adds the probability-of-support curve (learn/probability.ts) to calibration files written before
 * `veracite calibrate` fitted it. Each file stores the full precision-recall curve of both definitions
 * (one point per distinct score), from which every citation's score and label are recovered exactly
 * (report/eval-figures.ts itemsFromCurves); the fit is then the one `calibrate` makes.
 *
 *   node --import tsx scripts/learn/add-probability.ts models/calibration/*.json
 */
import { readFile } from 'node:fs/promises';
import { probabilityOf, type CalibrationFile } from '../../src/audit/calibration.js';
import { fitProbability } from '../../src/learn/probability.js';
import { itemsFromCurves } from '../../src/report/eval-figures.js';
import { writeFileAtomic } from '../../src/util/atomic-file.js';

for (const path of process.argv.slice(2)) {
  const cal = JSON.parse(await readFile(path, 'utf8')) as CalibrationFile;
  if (cal.format !== 'veracite-calibration') {
    console.error(`${path}: not a calibration file, skipped`);
    continue;
  }
  const items = itemsFromCurves(cal.definitions['not_supported']!.curve, cal.definitions['not_or_partially_supported']!.curve);
  if (items.length !== cal.data.n) throw new Error(`${path}: the curves give ${items.length} citations, the file says ${cal.data.n}`);
  cal.probability = fitProbability(
    items.map((i) => ({ signal: i.score, supported: i.label === 'supported' })),
    `${cal.data.path} (scores recovered from this file's curves)`,
  );
  await writeFileAtomic(path, JSON.stringify(cal, null, 2) + '\n');
  const th = cal.definitions[cal.defaultDefinition]!.threshold;
  console.log(`${path}: P = 1/(1+e^-(${cal.probability.a.toFixed(4)} x + ${cal.probability.b.toFixed(4)})), ECE ${cal.probability.ece.toFixed(3)}; threshold ${th.toFixed(4)} -> P ${probabilityOf(cal.probability, th).toFixed(3)}`);
}
