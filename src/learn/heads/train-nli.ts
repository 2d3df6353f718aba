/**
 * Trains the 3-way NLI head. Sources: SNLI (dev + 80% of test; the other 20% of test, by premise, is the
 * held-out set), GLUE RTE train (entailment vs the label set {neutral, contradiction}) and SciFact train
 * rationales (SUPPORT -> entailment, CONTRADICT -> contradiction, sampled other sentences -> neutral).
 * Early stopping uses a seeded 10% split of the training pool, never the reported evaluation sets.
 */
import { buildFeatureMatrix, featureDim, PAIR_FEATURE_NAMES, type PairTextAnalysis } from '../../models/trained/features.js';
import { buildIdf, type IdfTable } from '../../models/trained/lexical.js';
import { argmax, classificationReport, type ClassificationReport } from './metrics.js';
import { predictProba, trainSoftmax, type Dataset, type SoftmaxModel } from './softmax-regression.js';
import { CON, ENT, NEU, NLI_CLASS_NAMES, splitByGroup, type LabelledPair } from './data.js';
import type { HeadWeights } from '../../models/trained/weights-io.js';

export type NliSource = 'snli' | 'rte' | 'scifact' | 'contrast' | 'sick';

export interface NliConfig {
  sources: NliSource[];
  /** Per-pair loss weight by source (SciFact is small but it is the target domain). */
  sourceWeights: Record<NliSource, number>;
  /** Hidden units; 0 = linear. 'auto' trains both and keeps the MLP only if it clearly wins on the validation split's SciFact pairs. */
  hidden: number | 'auto';
  /** Hidden size tried by 'auto'. */
  autoHidden: number;
  /** Margin of SciFact validation balanced accuracy the MLP must beat linear by under 'auto'. */
  autoMargin: number;
  l2: number;
  epochs: number;
  batchSize: number;
  learningRate?: number;
  patience: number;
  valFraction: number;
}

export const DEFAULT_NLI_CONFIG: NliConfig = {
  // 'sick' joins only when the data holds it (opt-in: its licence keeps it out of the shipped weights).
  sources: ['snli', 'rte', 'scifact', 'contrast', 'sick'],
  // Chosen on the training pool's validation splits (scripts/learn/sweep-nli.ts, models/nli-sweep.json: mean
  // SciFact balanced accuracy over five split seeds). Contrast x3: 56.2% against 53.9% for the previous x0.5,
  // better in 4 of 5 splits, twins' contradiction recall 49.7% -> 66.3%, and the pool's validation accuracy
  // unchanged (75.3%). x4 scored 0.6 more but cost 0.5 validation accuracy (SNLI is a target); x6 fell back.
  // Re-run with the thousands fix: x3 56.5%, x4 57.4% (+0.9: under the 1-point margin), x6 55.2%.
  // SciFact x3: the target domain, and small.
  sourceWeights: { snli: 1, rte: 1, scifact: 3, contrast: 3, sick: 1 },
  // Measured (seed 13): a 64- or 128-unit MLP reached the same validation accuracy as linear (78.4% vs
  // 78.1%) and was worse on RTE and SciFact dev, so 'auto' keeps linear unless that changes.
  hidden: 'auto',
  autoHidden: 64,
  autoMargin: 0.01,
  l2: 1e-3,
  epochs: 40,
  batchSize: 64,
  patience: 4,
  valFraction: 0.1,
};

export interface NliData {
  snli: LabelledPair[];
  snliHeld: LabelledPair[];
  rte: LabelledPair[];
  rteDev: LabelledPair[];
  sciTrain: LabelledPair[];
  sciDev: LabelledPair[];
  /** Rule-made contrast twins of training pairs (src/learn/contrast), and their counts for the report. */
  contrast: LabelledPair[];
  contrastCounts: Record<string, number>;
  /** SICK train pairs, only when asked for (CC BY-NC-SA). */
  sick: LabelledPair[];
  vectors: Map<string, Float32Array>;
}

export interface BinaryAccuracy {
  n: number;
  accuracy: number;
  perClass: Record<string, { n: number; accuracy: number }>;
}

export interface NliEvaluation {
  snliHeld: ClassificationReport;
  rteDev: BinaryAccuracy;
  sciDev: ClassificationReport;
}

export interface AblationRow extends NliEvaluation {
  sources: NliSource[];
  validationAccuracy: number;
  validationSciFactBalanced: number;
}

export interface NliOutcome extends NliEvaluation {
  validationSciFact: ClassificationReport;
  validationContrast: ClassificationReport;
  contrastCounts: Record<string, number>;
  weights: HeadWeights;
  config: NliConfig;
  sizes: Record<string, number>;
  validation: ClassificationReport;
  hiddenChoice: { linear: number; mlp?: number; chosen: number };
  bestEpoch: number;
  epochsRun: number;
  trainSeconds: number;
  ablation?: AblationRow[];
}

type Log = (line: string) => void;

/** Text analyses (lexical + alignment) shared by every feature matrix of the process: fits repeat the same texts. */
const analyses = new Map<string, PairTextAnalysis>();

async function featurise(pairs: LabelledPair[], vectors: Map<string, Float32Array>, dim: number, idf: IdfTable, weight?: (p: LabelledPair) => number): Promise<Dataset> {
  const x = await buildFeatureMatrix(pairs, async (texts) => texts.map((t) => vectors.get(t)!), dim, idf, analyses);
  const w = weight ? Float32Array.from(pairs, weight) : undefined;
  return { x, y: Uint8Array.from(pairs, (p) => p.y), rows: pairs.length, dim: featureDim(dim), weight: w };
}

/** Index of the single class in a one-bit mask. */
const classOf = (mask: number): number => Math.log2(mask);

export async function evaluate(model: SoftmaxModel, data: NliData, dim: number, idf: IdfTable): Promise<NliEvaluation> {
  const probs = async (pairs: LabelledPair[]) => {
    const d = await featurise(pairs, data.vectors, dim, idf);
    return predictProba(model, d.x, d.rows);
  };
  const threeWay = async (pairs: LabelledPair[]) => {
    const p = await probs(pairs);
    const pred = pairs.map((_, i) => argmax(p.subarray(i * 3, i * 3 + 3)));
    return classificationReport(pairs.map((q) => classOf(q.y)), pred, NLI_CLASS_NAMES);
  };
  // RTE is 2-way: entailed iff P(entailment) >= P(neutral) + P(contradiction), the same split it trains on.
  const pr = await probs(data.rteDev);
  const gold = data.rteDev.map((q) => q.y === 1 << ENT);
  const pred = data.rteDev.map((_, i) => pr[i * 3 + ENT] >= 0.5);
  const cls = (want: boolean) => {
    const idx = gold.map((g, i) => (g === want ? i : -1)).filter((i) => i >= 0);
    return { n: idx.length, accuracy: idx.filter((i) => pred[i] === gold[i]).length / Math.max(idx.length, 1) };
  };
  const rteDev = {
    n: gold.length,
    accuracy: gold.filter((g, i) => g === pred[i]).length / Math.max(gold.length, 1),
    perClass: { entailment: cls(true), not_entailment: cls(false) },
  };
  return { snliHeld: await threeWay(data.snliHeld), rteDev, sciDev: await threeWay(data.sciDev) };
}

function poolOf(data: NliData, sources: NliSource[]): LabelledPair[] {
  const bySource: Record<NliSource, LabelledPair[]> = { snli: data.snli, rte: data.rte, scifact: data.sciTrain, contrast: data.contrast, sick: data.sick };
  return sources.flatMap((s) => bySource[s]);
}

const sourceOf = (p: LabelledPair): NliSource => p.source ?? (p.group.startsWith('rte:') ? 'rte' : p.group.startsWith('scifact:') ? 'scifact' : 'snli');

interface Fitted {
  model: SoftmaxModel;
  idf: IdfTable;
  validation: ClassificationReport;
  /** The validation split's SciFact pairs alone (the target domain): what source weights are chosen on. */
  validationSciFact: ClassificationReport;
  /**
   * The validation split's SciFact contrast twins alone (twins of the validation claims): how the head
   * reads minimal edits of claims it did not train on. Train-side counterpart of `veracite eval contrast`.
   */
  validationContrast: ClassificationReport;
  bestEpoch: number;
  epochsRun: number;
  sizes: Record<string, number>;
}

export async function fit(data: NliData, dim: number, seed: number, cfg: NliConfig, sources: NliSource[], hidden: number, log: Log): Promise<Fitted> {
  const pool = poolOf(data, sources);
  const [trainPairs, valPairs] = splitByGroup(pool, cfg.valFraction, seed, 'nli-validation');
  // IDF from the training premises only: the table ships with the weights and must not see evaluation text.
  const idf = buildIdf(new Set(trainPairs.map((p) => p.premise)));
  const weight = (p: LabelledPair) => cfg.sourceWeights[sourceOf(p)];
  const train = await featurise(trainPairs, data.vectors, dim, idf, weight);
  const val = await featurise(valPairs, data.vectors, dim, idf);
  const result = trainSoftmax(train, 3, {
    seed,
    hidden,
    epochs: cfg.epochs,
    batchSize: cfg.batchSize,
    learningRate: cfg.learningRate,
    l2: cfg.l2,
    patience: cfg.patience,
    validation: val,
    log: (l) => log(`  [${sources.join('+')}${hidden ? `, hidden ${hidden}` : ''}] ${l}`),
  });
  const p = predictProba(result.model, val.x, val.rows);
  // Validation accuracy over single-label pairs; RTE's not_entailment counts as right for neutral or contradiction.
  const single = valPairs.map((q, i) => i).filter((i) => [1 << ENT, 1 << NEU, 1 << CON].includes(valPairs[i].y));
  const validation = classificationReport(
    single.map((i) => classOf(valPairs[i].y)),
    single.map((i) => argmax(p.subarray(i * 3, i * 3 + 3))),
    NLI_CLASS_NAMES,
  );
  const sci = single.filter((i) => sourceOf(valPairs[i]!) === 'scifact');
  const validationSciFact = classificationReport(
    sci.map((i) => classOf(valPairs[i]!.y)),
    sci.map((i) => argmax(p.subarray(i * 3, i * 3 + 3))),
    NLI_CLASS_NAMES,
  );
  const twins = single.filter((i) => sourceOf(valPairs[i]!) === 'contrast' && valPairs[i]!.group.startsWith('scifact:'));
  const validationContrast = classificationReport(
    twins.map((i) => classOf(valPairs[i]!.y)),
    twins.map((i) => argmax(p.subarray(i * 3, i * 3 + 3))),
    NLI_CLASS_NAMES,
  );
  const sizes: Record<string, number> = { train: trainPairs.length, validation: valPairs.length };
  for (const s of sources) sizes[`train_${s}`] = trainPairs.filter((q) => sourceOf(q) === s).length;
  return { model: result.model, idf, validation, validationSciFact, validationContrast, bestEpoch: result.bestEpoch, epochsRun: result.epochsRun, sizes };
}

export async function trainNli(
  data: NliData,
  embedder: HeadWeights['embedder'],
  seed: number,
  overrides: Partial<NliConfig>,
  opts: { ablation: boolean; log: Log },
): Promise<NliOutcome> {
  const merged: NliConfig = { ...DEFAULT_NLI_CONFIG, ...overrides };
  // Only the sources this run has data for (SICK is opt-in), so the weights file never lists one it did not use.
  const cfg: NliConfig = { ...merged, sources: merged.sources.filter((s) => poolOf(data, [s]).length > 0) };
  const dim = embedder.dimension;
  const log = opts.log;
  const t0 = performance.now();

  let ablation: AblationRow[] | undefined;
  if (opts.ablation) {
    // Does each source help on SciFact dev? Linear models, same seed and settings, one row per source set.
    ablation = [];
    const sets: NliSource[][] = [['snli'], ['snli', 'rte', 'scifact'], ['snli', 'rte', 'scifact', 'contrast'], ['scifact', 'contrast']];
    if (data.sick.length) sets.push(['snli', 'rte', 'scifact', 'contrast', 'sick']);
    for (const sources of sets) {
      const f = await fit(data, dim, seed, cfg, sources, 0, () => {});
      const ev = await evaluate(f.model, data, dim, f.idf);
      ablation.push({ sources, validationAccuracy: f.validation.accuracy, validationSciFactBalanced: f.validationSciFact.balancedAccuracy, ...ev });
      log(`ablation ${sources.join('+')}: SNLI held-out ${pct(ev.snliHeld.accuracy)}, RTE dev ${pct(ev.rteDev.accuracy)}, SciFact dev ${pct(ev.sciDev.accuracy)} (balanced ${pct(ev.sciDev.balancedAccuracy)}: ${perClass(ev.sciDev)})`);
    }
  }

  const linear = await fit(data, dim, seed, cfg, cfg.sources, 0, log);
  let chosen = linear;
  // Chosen on the validation split's SciFact pairs (balanced accuracy), the criterion the source weights
  // were chosen on: overall validation accuracy is mostly SNLI and preferred an MLP that was 6 points worse
  // on SciFact validation (56.6% vs 62.5%, seed 13).
  const hiddenChoice: NliOutcome['hiddenChoice'] = { linear: linear.validationSciFact.balancedAccuracy, chosen: 0 };
  const hidden = cfg.hidden === 'auto' ? cfg.autoHidden : cfg.hidden;
  if (hidden > 0) {
    const mlp = await fit(data, dim, seed, cfg, cfg.sources, hidden, log);
    hiddenChoice.mlp = mlp.validationSciFact.balancedAccuracy;
    if (cfg.hidden !== 'auto' || hiddenChoice.mlp >= hiddenChoice.linear + cfg.autoMargin) {
      chosen = mlp;
      hiddenChoice.chosen = hidden;
    }
    log(`SciFact validation balanced accuracy: linear ${pct(hiddenChoice.linear)} vs hidden ${hidden} ${pct(hiddenChoice.mlp)}: using ${hiddenChoice.chosen ? 'MLP' : 'linear'}`);
  }
  const ev = await evaluate(chosen.model, data, dim, chosen.idf);
  const trainSeconds = (performance.now() - t0) / 1000;
  const sizes = {
    ...chosen.sizes,
    snli_pool: data.snli.length,
    snli_heldout: data.snliHeld.length,
    rte_train: data.rte.length,
    rte_dev: data.rteDev.length,
    scifact_train_pairs: data.sciTrain.length,
    scifact_dev_pairs: data.sciDev.length,
  };
  const weights: HeadWeights = {
    kind: 'nli',
    labels: NLI_CLASS_NAMES,
    embedder,
    lexicalFeatures: [...PAIR_FEATURE_NAMES],
    idf: chosen.idf,
    model: chosen.model,
    training: { seed, config: cfg, sizes, bestEpoch: chosen.bestEpoch },
  };
  return { ...ev, weights, config: cfg, sizes, validation: chosen.validation, validationSciFact: chosen.validationSciFact, validationContrast: chosen.validationContrast, contrastCounts: data.contrastCounts, hiddenChoice, bestEpoch: chosen.bestEpoch, epochsRun: chosen.epochsRun, trainSeconds, ablation };
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const perClass = (r: ClassificationReport): string => r.labels.map((l) => `${l.slice(0, 3)} ${pct(r.perClass[l].accuracy)}`).join(' ');
