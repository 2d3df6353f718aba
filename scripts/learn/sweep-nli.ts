/**
 * Chooses the NLI head's source weights on TRAINING data: fits the linear head for each candidate weighting
 * and prints the validation split's accuracy and its SciFact pairs' balanced accuracy and per-class recall
 * (the validation split is a seeded 10% of the training pool, by group; dev is never read for the choice).
 *
 *   node --import tsx scripts/learn/sweep-nli.ts --data ../shared/data --seed 13 [--reverse-twins]
 */
import { parseArgs } from 'node:util';
import { createUseEmbedder } from '../../src/models/use/index.js';
import { embedAllCached } from '../../src/learn/heads/embed-cache.js';
import { prepareData, textsOf } from '../../src/learn/heads/train.js';
import { DEFAULT_NLI_CONFIG, fit, pct, type NliConfig, type NliSource } from '../../src/learn/heads/train-nli.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data' }, seed: { type: 'string', default: '13' }, cache: { type: 'string', default: 'tmp/train-cache' }, 'reverse-twins': { type: 'boolean', default: false } } });
const seed = Number(values.seed);
const data = prepareData(values.data!, seed, { contrastReverse: !!values['reverse-twins'] });
console.error(`contrast twins: ${JSON.stringify(data.nli.contrastCounts)}`);
const embedder = await createUseEmbedder({ threads: 1 });
const { vectors } = await embedAllCached(embedder, textsOf(data), values.cache, (l) => console.error(l));
const nli = { ...data.nli, vectors };

const variants: { name: string; sources: NliSource[]; weights: Partial<NliConfig['sourceWeights']> }[] = [
  { name: 'no contrast, scifact x1', sources: ['snli', 'rte', 'scifact'], weights: { scifact: 1 } },
  { name: 'no contrast, scifact x3', sources: ['snli', 'rte', 'scifact'], weights: { scifact: 3 } },
  { name: 'contrast x1, scifact x1', sources: ['snli', 'rte', 'scifact', 'contrast'], weights: { scifact: 1, contrast: 1 } },
  { name: 'contrast x1, scifact x3', sources: ['snli', 'rte', 'scifact', 'contrast'], weights: { scifact: 3, contrast: 1 } },
  { name: 'contrast x0.5, scifact x3', sources: ['snli', 'rte', 'scifact', 'contrast'], weights: { scifact: 3, contrast: 0.5 } },
  { name: 'contrast x1, scifact x5', sources: ['snli', 'rte', 'scifact', 'contrast'], weights: { scifact: 5, contrast: 1 } },
];
for (const v of variants) {
  const cfg: NliConfig = { ...DEFAULT_NLI_CONFIG, sourceWeights: { ...DEFAULT_NLI_CONFIG.sourceWeights, ...v.weights } };
  const t0 = performance.now();
  const f = await fit(nli, embedder.dimension, seed, cfg, v.sources, 0, () => {});
  const s = f.validationSciFact;
  const c = f.validationContrast;
  console.log(`${v.name.padEnd(28)} validation ${pct(f.validation.accuracy)} | SciFact validation n=${s.n ?? ''} acc ${pct(s.accuracy)} balanced ${pct(s.balancedAccuracy)} (${s.labels.map((l) => `${l.slice(0, 3)} ${pct(s.perClass[l]!.accuracy)}`).join(' ')}) | twins n=${c.n ?? ''} ${c.labels.filter((l) => c.perClass[l]!.n > 0).map((l) => `${l.slice(0, 3)} ${pct(c.perClass[l]!.accuracy)}`).join(' ')} [${((performance.now() - t0) / 1000).toFixed(0)} s]`);
}
await embedder.dispose?.();
