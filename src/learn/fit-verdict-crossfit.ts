/**
 * Fits and saves models/verdict-calibration.json with the cross-fitted procedure (verdict-crossfit.ts).
 * Stand-in for `veracite tune-verdict` until the CLI calls fitVerdictCrossFitted:
 *
 *   node --import tsx src/learn/fit-verdict-crossfit.ts --index tmp/scifact --data ../shared/data --seed 13
 */
import { parseArgs } from 'node:util';
import { loadVerifierModels } from '../models/registry.js';
import { createUseEmbedder } from '../models/use/index.js';
import { LanceStore } from '../store/lancedb-store.js';
import { CALIBRATION_PATH, saveVerdictCalibration } from '../verify/calibrate-verdict.js';
import { reliabilityTable } from '../verify/reliability.js';
import { fitVerdictCrossFitted } from './verdict-crossfit.js';

const { values } = parseArgs({
  options: {
    index: { type: 'string', default: 'tmp/scifact' },
    data: { type: 'string', default: '../shared/data' },
    seed: { type: 'string', default: '13' },
    cache: { type: 'string', default: 'tmp/train-cache' },
    out: { type: 'string', default: CALIBRATION_PATH },
  },
});
const store = await LanceStore.open(values.index!, { create: false });
const models = await loadVerifierModels({});
// One thread for the training vectors: the training embedding cache is keyed by the encoder's exact output.
const trainingEmbedder = await createUseEmbedder({ threads: 1 });
try {
  const cal = await fitVerdictCrossFitted({ store, data: values.data!, seed: Number(values.seed), models, trainingEmbedder, cacheDir: values.cache!, log: (l) => console.error(l) });
  await saveVerdictCalibration(cal, values.out);
  for (const [rule, r] of Object.entries(cal.rules)) {
    console.log(`${rule}: relevance >= ${r.relevanceThreshold}, support >= ${r.supportThreshold}, refute >= ${r.refuteThreshold}: cross-fitted train accuracy ${(100 * r.fittedOn.accuracy).toFixed(1)}% (default ${(100 * r.fittedOn.defaultAccuracy).toFixed(1)}%, majority ${(100 * r.fittedOn.majorityBaseline).toFixed(1)}%) over ${r.fittedOn.pairs} pairs, NLL ${r.fittedOn.nll.toFixed(3)}`);
    if (r.fittedOn.reliability) console.log(reliabilityTable(r.fittedOn.reliability));
  }
  console.log(`default rule: ${cal.bestRule}; saved ${values.out}`);
} finally {
  await store.close();
  await trainingEmbedder.dispose?.();
}
