/**
 * Fits the verdict calibration (relevance gate, thresholds, probability calibrator) on SciFact TRAIN
 * without the in-sample bias of the shipped NLI head, which was trained on those same claims: the claims
 * are split in two halves (by claim), an NLI head is trained on everything except one half's SciFact pairs
 * and contrast twins (same configuration, linear), and each half's verdict items are collected with the
 * head that did not see it (cross-fitting). The evidence head is the shipped one. The result is saved for
 * the shipped heads (their ids), as `veracite tune-verdict` does:
 *
 *   node --import tsx src/learn/fit-verdict-crossfit.ts --index tmp/scifact --data ../shared/data --seed 13
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadVerifierModels } from '../models/registry.js';
import { createUseEmbedder } from '../models/use/index.js';
import { embedAllCached } from '../models/trained/embed-cache.js';
import { TrainedEntailmentModel } from '../models/trained/entailment.js';
import { TrainedHead } from '../models/trained/head.js';
import { prepareData, textsOf } from '../models/trained/train.js';
import { DEFAULT_NLI_CONFIG, fit } from '../models/trained/train-nli.js';
import { Rng, subSeed } from '../models/trained/rng.js';
import { serialiseWeights, sha256, type HeadWeights } from '../models/trained/weights-io.js';
import { NLI_CLASS_NAMES } from '../models/trained/data.js';
import { PAIR_FEATURE_NAMES } from '../models/trained/features.js';
import { Retriever } from '../retrieve/retriever.js';
import { LanceStore } from '../store/lancedb-store.js';
import { CALIBRATION_PATH, fitVerdictCalibration, saveVerdictCalibration, type LabelledPairs } from '../verify/calibrate-verdict.js';
import { reliabilityTable } from '../verify/reliability.js';
import { collectVerdictItems, type GoldClaim } from '../verify/tune-verdict.js';
import { Verifier } from '../verify/verifier.js';

const { values } = parseArgs({
  options: {
    index: { type: 'string', default: 'tmp/scifact' },
    data: { type: 'string', default: '../shared/data' },
    seed: { type: 'string', default: '13' },
    cache: { type: 'string', default: 'tmp/train-cache' },
    out: { type: 'string', default: CALIBRATION_PATH },
  },
});
const seed = Number(values.seed);
const claimsPath = join(values.data!, 'scifact/claims_train.jsonl');
const claims = (await readFile(claimsPath, 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as GoldClaim & { id: number });
const data = prepareData(values.data!, seed);
const use = await createUseEmbedder({ threads: 1 });
const { vectors } = await embedAllCached(use, textsOf(data), values.cache, (l) => console.error(l));
const nli = { ...data.nli, vectors };
const shipped = await loadVerifierModels({});
const store = await LanceStore.open(values.index!, { create: false });

const ids = [...new Set(claims.map((c) => c.id))].sort((a, b) => a - b);
const half = new Set(new Rng(subSeed(seed, 'verdict-crossfit')).sample(ids, Math.round(ids.length / 2)));
const columbia: LabelledPairs[] = [];
const concat: LabelledPairs[] = [];
for (const fold of [0, 1]) {
  const held = (id: number) => half.has(id) === (fold === 0);
  const heldGroup = (g: string) => g.startsWith('scifact:') && held(Number(g.slice('scifact:'.length)));
  // The head for this fold never sees the held-out claims' SciFact pairs or their twins.
  const foldData = { ...nli, sciTrain: nli.sciTrain.filter((p) => !heldGroup(p.group)), contrast: nli.contrast.filter((p) => !heldGroup(p.group)) };
  const t0 = performance.now();
  const f = await fit(foldData, use.dimension, seed, DEFAULT_NLI_CONFIG, DEFAULT_NLI_CONFIG.sources.filter((s) => s !== 'sick'), 0, () => {});
  const weights: HeadWeights = { kind: 'nli', labels: NLI_CLASS_NAMES, embedder: { id: use.info.id, version: use.info.version, dimension: use.dimension }, lexicalFeatures: [...PAIR_FEATURE_NAMES], idf: f.idf, model: f.model, training: { crossfitFold: fold } };
  const head = new TrainedHead('nli', weights, shipped.embedder, sha256(Buffer.from(serialiseWeights(weights))));
  console.error(`fold ${fold}: NLI head without ${claims.filter((c) => held(c.id)).length} held-out claims fitted in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const verifier = new Verifier(store, new Retriever(store, undefined, { mode: 'bm25' }), { ...shipped, entailment: new TrainedEntailmentModel(head) }, { verdict: { rule: 'columbia' } });
  const foldClaims = claims.filter((c) => held(c.id));
  const items = await collectVerdictItems(verifier, foldClaims, {
    onProgress: (d, t) => {
      if (d % 100 === 0 || d === t) console.error(`fold ${fold}: ${d}/${t} pairs`);
    },
  });
  columbia.push(...items.columbia);
  concat.push(...items.concat);
}
const cal = fitVerdictCalibration({ columbia, concat }, `${claimsPath} (2-fold cross-fitted NLI head)`, [shipped.scorer.info, shipped.entailment.info]);
await saveVerdictCalibration(cal, values.out);
for (const [rule, r] of Object.entries(cal.rules)) {
  console.log(`${rule}: relevance >= ${r.relevanceThreshold}, support >= ${r.supportThreshold}, refute >= ${r.refuteThreshold}: cross-fitted train accuracy ${(100 * r.fittedOn.accuracy).toFixed(1)}% (default ${(100 * r.fittedOn.defaultAccuracy).toFixed(1)}%, majority ${(100 * r.fittedOn.majorityBaseline).toFixed(1)}%) over ${r.fittedOn.pairs} pairs, NLL ${r.fittedOn.nll.toFixed(3)}`);
  if (r.fittedOn.reliability) console.log(reliabilityTable(r.fittedOn.reliability));
}
console.log(`default rule: ${cal.bestRule}; saved ${values.out}`);
await store.close();
await use.dispose?.();
