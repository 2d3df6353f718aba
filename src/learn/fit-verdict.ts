/**
 * Fits the verdict calibration (relevance gate, thresholds, probability calibrator) on SciFact TRAIN with
 * the shuffled-abstract NEI pairs, and saves models/verdict-calibration.json. This is what
 * `veracite tune-verdict` should run once it calls collectVerdictItems (src/verify/tune-verdict.ts):
 *
 *   node --import tsx src/learn/fit-verdict.ts --index tmp/scifact --claims ../shared/data/scifact/claims_train.jsonl
 */
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { loadVerifierModels } from '../models/registry.js';
import { Retriever } from '../retrieve/retriever.js';
import { LanceStore } from '../store/lancedb-store.js';
import { CALIBRATION_PATH, fitVerdictCalibration, saveVerdictCalibration } from '../verify/calibrate-verdict.js';
import { reliabilityTable } from '../verify/reliability.js';
import { collectVerdictItems, type GoldClaim } from '../verify/tune-verdict.js';
import { Verifier } from '../verify/verifier.js';

const { values } = parseArgs({ options: { index: { type: 'string', default: 'tmp/scifact' }, claims: { type: 'string', default: '../shared/data/scifact/claims_train.jsonl' }, out: { type: 'string', default: CALIBRATION_PATH } } });
const claims = (await readFile(values.claims!, 'utf8'))
  .split('\n')
  .filter((l) => l.trim())
  .map((l, i) => {
    try {
      return JSON.parse(l) as GoldClaim;
    } catch (e) {
      throw new Error(`${values.claims}:${i + 1}: ${(e as Error).message}`);
    }
  });
const store = await LanceStore.open(values.index!, { create: false });
const models = await loadVerifierModels({});
const verifier = new Verifier(store, new Retriever(store, undefined, { mode: 'bm25' }), models, { verdict: { rule: 'columbia' } });
const t0 = performance.now();
const items = await collectVerdictItems(verifier, claims, {
  onProgress: (d, t) => {
    if (d % 100 === 0 || d === t) {
      const s = (performance.now() - t0) / 1000;
      process.stderr.write(`fit-verdict: ${d}/${t} pairs (${(d / s).toFixed(1)}/s, ETA ${(((t - d) * s) / d).toFixed(0)} s)\n`);
    }
  },
});
const cal = fitVerdictCalibration({ columbia: items.columbia, concat: items.concat }, values.claims!, [models.scorer.info, models.entailment.info]);
await saveVerdictCalibration(cal, values.out);
console.log(`fitted on ${items.counts.oracle} SciFact train claims' cited abstracts + ${items.counts.shuffled} shuffled (claim, another claim's abstract) pairs`);
for (const [rule, r] of Object.entries(cal.rules)) {
  console.log(`${rule}: relevance >= ${r.relevanceThreshold}, support >= ${r.supportThreshold}, refute >= ${r.refuteThreshold}: train accuracy ${(100 * r.fittedOn.accuracy).toFixed(1)}% (default ${(100 * r.fittedOn.defaultAccuracy).toFixed(1)}%, majority ${(100 * r.fittedOn.majorityBaseline).toFixed(1)}%) over ${r.fittedOn.pairs} pairs, NLL ${r.fittedOn.nll.toFixed(3)}`);
  if (r.fittedOn.reliability) console.log(reliabilityTable(r.fittedOn.reliability));
}
console.log(`default rule: ${cal.bestRule}; saved ${values.out}`);
await store.close();
