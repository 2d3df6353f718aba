/**
 * Chooses the NLI head's source weights on TRAINING data: fits the linear head for each candidate weighting
 * on several validation splits and prints the means of the validation split's accuracy, its SciFact pairs'
 * balanced accuracy and per-class recall, and its contrast twins' contradiction recall (each validation
 * split is a seeded 10% of the training pool, by group; dev is never read for the choice).
 *
 * Why several splits: the validation split holds ~320 SciFact pairs (~40 contradictions), and one split
 * misleads. With split seed 13 alone the shipped weighting scored 61.3% balanced; over split seeds 13-17
 * its mean is 53.9%, and the ranking of weightings changed.
 *
 *   node --import tsx scripts/learn/sweep-nli.ts --data ../shared/data --seed 13 --splits 13,14,15,16,17 --out models/nli-sweep.json
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createUseEmbedder } from '../../src/models/use/index.js';
import { embedAllCached } from '../../src/learn/heads/embed-cache.js';
import { prepareData, textsOf } from '../../src/learn/heads/train.js';
import { DEFAULT_NLI_CONFIG, fit, type NliConfig, type NliSource } from '../../src/learn/heads/train-nli.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/data' },
    seed: { type: 'string', default: '13' },
    splits: { type: 'string', default: '13,14,15,16,17' },
    cache: { type: 'string', default: 'tmp/train-cache' },
    out: { type: 'string' },
  },
});
const seed = Number(values.seed);
const splits = values.splits!.split(',').map(Number);
if (splits.some((s) => !Number.isInteger(s))) throw new Error(`--splits: expected comma-separated integers, got "${values.splits}"`);
const forward = prepareData(values.data!, seed);
const reverse = prepareData(values.data!, seed, { contrastReverse: true });
console.error(`contrast twins: forward ${JSON.stringify(forward.nli.contrastCounts)}, with reverse ${JSON.stringify(reverse.nli.contrastCounts)}`);
const embedder = await createUseEmbedder({ threads: 1 });
const texts = [...new Set([...textsOf(forward), ...textsOf(reverse)])];
const { vectors } = await embedAllCached(embedder, texts, values.cache, (l) => console.error(l));

const all: NliSource[] = ['snli', 'rte', 'scifact', 'contrast'];
const variants: { name: string; sources: NliSource[]; weights: Partial<NliConfig['sourceWeights']>; reverse?: boolean; l2?: number }[] = [
  { name: 'no contrast, scifact x3', sources: ['snli', 'rte', 'scifact'], weights: { scifact: 3 } },
  { name: 'contrast x0.5, scifact x3', sources: all, weights: { scifact: 3, contrast: 0.5 } },
  { name: 'contrast x1, scifact x3', sources: all, weights: { scifact: 3, contrast: 1 } },
  { name: 'contrast x2, scifact x3', sources: all, weights: { scifact: 3, contrast: 2 } },
  { name: 'contrast x3, scifact x3', sources: all, weights: { scifact: 3, contrast: 3 } },
  { name: 'contrast x4, scifact x3', sources: all, weights: { scifact: 3, contrast: 4 } },
  { name: 'contrast x6, scifact x3', sources: all, weights: { scifact: 3, contrast: 6 } },
  { name: 'contrast x2, scifact x5', sources: all, weights: { scifact: 5, contrast: 2 } },
  { name: 'contrast x2, scifact x3, l2 1e-2', sources: all, weights: { scifact: 3, contrast: 2 }, l2: 1e-2 },
  { name: 'reverse twins, contrast x2', sources: all, weights: { scifact: 3, contrast: 2 }, reverse: true },
];
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const rows: Record<string, unknown>[] = [];
for (const v of variants) {
  const cfg: NliConfig = { ...DEFAULT_NLI_CONFIG, l2: v.l2 ?? DEFAULT_NLI_CONFIG.l2, sourceWeights: { ...DEFAULT_NLI_CONFIG.sourceWeights, ...v.weights } };
  const data = { ...(v.reverse ? reverse : forward).nli, vectors };
  const t0 = performance.now();
  const per: number[][] = [];
  for (const s of splits) {
    const f = await fit(data, embedder.dimension, s, cfg, v.sources, 0, () => {});
    const sci = f.validationSciFact;
    const twins = f.validationContrast;
    per.push([
      f.validation.accuracy,
      sci.balancedAccuracy,
      sci.perClass.entailment!.accuracy,
      sci.perClass.neutral!.accuracy,
      sci.perClass.contradiction!.accuracy,
      twins.perClass.contradiction?.accuracy ?? 0,
    ]);
  }
  const mean = per[0]!.map((_, j) => per.reduce((a, r) => a + r[j]!, 0) / per.length);
  const sd = (j: number) => Math.sqrt(per.reduce((a, r) => a + (r[j]! - mean[j]!) ** 2, 0) / Math.max(per.length - 1, 1));
  const [validation, balanced, ent, neu, con, twinCon] = mean as [number, number, number, number, number, number];
  rows.push({ name: v.name, sources: v.sources, weights: cfg.sourceWeights, l2: cfg.l2, reverse: !!v.reverse, splits, validation, sciFactBalanced: balanced, sciFactBalancedSd: sd(1), entailment: ent, neutral: neu, contradiction: con, twinContradiction: twinCon, perSplit: per });
  console.log(
    `${v.name.padEnd(34)} validation ${pct(validation)} | SciFact balanced ${pct(balanced)} ±${(100 * sd(1)).toFixed(1)} (ent ${pct(ent)} neu ${pct(neu)} con ${pct(con)}) | twins con ${pct(twinCon)} [${((performance.now() - t0) / 1000).toFixed(0)} s]`,
  );
}
if (values.out) await writeFile(values.out, JSON.stringify({ seed, splits, rows }, null, 2) + '\n');
await embedder.dispose?.();
