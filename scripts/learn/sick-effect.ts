/**
 * What SICK (CC BY-NC-SA 3.0, opt-in only) would add to the NLI head: the shipped sources with and without
 * SICK's TRAIN part, linear head, same seed; figures on the held-out/dev sets the report uses. The shipped
 * weights never include SICK; this only measures it.
 *
 *   node --import tsx scripts/learn/sick-effect.ts --data ../shared/data --seed 13
 */
import { parseArgs } from 'node:util';
import { createUseEmbedder } from '../../src/models/use/index.js';
import { embedAllCached } from '../../src/learn/heads/embed-cache.js';
import { prepareData, textsOf } from '../../src/learn/heads/train.js';
import { DEFAULT_NLI_CONFIG, evaluate, fit, pct, type NliSource } from '../../src/learn/heads/train-nli.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data' }, seed: { type: 'string', default: '13' }, cache: { type: 'string', default: 'tmp/train-cache' } } });
const seed = Number(values.seed);
const data = prepareData(values.data!, seed, { sick: true });
const embedder = await createUseEmbedder({ threads: 1 });
const { vectors } = await embedAllCached(embedder, textsOf(data), values.cache, (l) => console.error(l));
const nli = { ...data.nli, vectors };
console.log(`SICK train pairs: ${data.nli.sick.length}`);
const base: NliSource[] = ['snli', 'rte', 'scifact', 'contrast'];
for (const sources of [base, [...base, 'sick'] as NliSource[]]) {
  const f = await fit(nli, embedder.dimension, seed, DEFAULT_NLI_CONFIG, sources, 0, () => {});
  const ev = await evaluate(f.model, nli, embedder.dimension, f.idf);
  console.log(`${sources.join('+').padEnd(36)} SNLI held-out ${pct(ev.snliHeld.accuracy)}, RTE dev ${pct(ev.rteDev.accuracy)}, SciFact dev pairs ${pct(ev.sciDev.accuracy)} (balanced ${pct(ev.sciDev.balancedAccuracy)}, contradiction ${pct(ev.sciDev.perClass['contradiction']!.accuracy)}); SciFact validation balanced ${pct(f.validationSciFact.balancedAccuracy)}`);
}
await embedder.dispose?.();
