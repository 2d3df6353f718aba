/**
 * `veracite train`: builds both heads from the shared data, deterministically for a seed, and writes the
 * weights + reports under models/. The pieces (data, features, trainer, metrics) live in their own files;
 * this module only wires them and records what was done.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '../../models/types.js';
import { contrastNliPairs, rteSupported, sciFactContradicted, sciFactSupported, snliSupported } from '../contrast/index.js';
import { dataPaths, loadRte, loadSciFactClaims, loadSciFactCorpus, loadSick, loadSnli, sciFactConcatPairs, sciFactNliPairs, splitByGroup, evidencePairs, type LabelledPair, type EvidencePair } from './data.js';
import { embedAllCached } from './embed-cache.js';
import { trainNli, type NliConfig, type NliData, type NliOutcome } from './train-nli.js';
import { trainEvidence, type EvidenceConfig, type EvidenceData, type EvidenceOutcome } from './train-evidence.js';
import { writeNliReport, writeEvidenceReport } from './report.js';
import { writeWeights } from '../../models/trained/weights-io.js';

export interface TrainOptions {
  /** Shared data root (holds nli/ and scifact/). */
  data: string;
  /** Output folder for weights and reports. */
  out: string;
  seed: number;
  only?: 'nli' | 'evidence';
  /** Embedding cache folder; undefined = no cache. */
  cacheDir?: string;
  /** Run the NLI source ablation (which sources help SciFact dev) and include it in the report. */
  ablation?: boolean;
  nli?: Partial<NliConfig>;
  evidence?: Partial<EvidenceConfig>;
  /** Blind-comparison annotations (`veracite annotations export`), added to the training pairs. */
  annotations?: string;
  /** Data options: rule-made contrast twins (default on), SICK train (CC BY-NC-SA: opt-in, never shipped). */
  dataOptions?: DataOptions;
  log?: (line: string) => void;
}

/**
 * Annotation pairs join the training sets only (SciFact-style NLI pairs and evidence pairs), never the
 * validation or evaluation sets, so reported figures stay comparable with and without them.
 */
export function withExtraTraining(data: PreparedData, extra: { nli: LabelledPair[]; evidence: EvidencePair[] }): PreparedData {
  return {
    nli: { ...data.nli, sciTrain: [...data.nli.sciTrain, ...extra.nli] },
    evidence: { ...data.evidence, train: [...data.evidence.train, ...extra.evidence] },
  };
}

export interface PreparedData {
  nli: Omit<NliData, 'vectors'>;
  evidence: Omit<EvidenceData, 'vectors'>;
}

export interface DataOptions {
  /** Rule-made contrast twins of supported TRAINING pairs (src/learn/contrast). Default true. */
  contrast?: boolean;
  /** SNLI entailment pairs of the training pool given twins (seeded sample). */
  contrastSnli?: number;
  /** RTE train entailment pairs given twins. */
  contrastRte?: number;
  /**
   * Reverse twins: contradicted SciFact train claims with negation toggled, as entailment (training-pairs.ts).
   * Opt-in (default false). Measured (seed 13, scripts/learn/sweep-nli.ts): SciFact validation balanced
   * accuracy 61.3% -> 64.4%, but the validation claims' forward twins lose contradiction recall (54.1% ->
   * 49.7%), and on dev the oracle CONTRADICT recall fell 16.9% -> 11.3% and contrast consistency 34.3% ->
   * 26.3%. The two training-side figures disagree, so the incumbent (without) stays. Over five split seeds
   * (models/nli-sweep.json, contrast x2) they lose on both: balanced 56.1% -> 54.3%, twins 63.4% -> 54.9%.
   */
  contrastReverse?: boolean;
  /** SICK train pairs (nli/sick/SICK.txt). CC BY-NC-SA 3.0: the shipped weights must never use it. */
  sick?: boolean;
}

export const DEFAULT_DATA_OPTIONS: Required<DataOptions> = { contrast: true, contrastSnli: 1500, contrastRte: 600, contrastReverse: false, sick: false };

/** Every pair set both heads use; seeded samples and splits only. */
export function prepareData(root: string, seed: number, options: DataOptions = {}): PreparedData {
  const o = { ...DEFAULT_DATA_OPTIONS, ...options };
  const p = dataPaths(root);
  const snliTest = loadSnli(p.snliTest);
  // Held out by premise: SNLI has ~3 hypotheses per premise and a shared premise would leak its vector.
  const [snliTestTrain, snliHeld] = splitByGroup(snliTest, 0.2, seed, 'snli-heldout');
  const corpus = loadSciFactCorpus(p.sciCorpus);
  const sciTrainClaims = loadSciFactClaims(p.sciTrain);
  const sciDevClaims = loadSciFactClaims(p.sciDev);
  const snli = [...loadSnli(p.snliDev), ...snliTestTrain];
  const rte = loadRte(p.rteTrain);
  // Twins only from training sets: SciFact train, the SNLI training pool (never its held-out part), RTE train.
  const contrast = o.contrast
    ? contrastNliPairs({ scifact: sciFactSupported(sciTrainClaims, corpus), snli: snliSupported(snli, o.contrastSnli, seed), rte: rteSupported(rte, o.contrastRte, seed), ...(o.contrastReverse ? { scifactReverse: sciFactContradicted(sciTrainClaims, corpus) } : {}) }, seed)
    : { pairs: [], counts: {} };
  const nli = {
    snli,
    snliHeld,
    rte,
    rteDev: loadRte(p.rteDev),
    // Rationale sentences one by one (the per-sentence rule) and joined per abstract (the concat rule).
    sciTrain: [...sciFactNliPairs(sciTrainClaims, corpus, seed), ...sciFactConcatPairs(sciTrainClaims, corpus)],
    sciDev: sciFactNliPairs(sciDevClaims, corpus, seed),
    contrast: contrast.pairs,
    contrastCounts: contrast.counts,
    sick: o.sick ? loadSick(p.sick) : [],
  };
  const evidence = {
    train: evidencePairs(sciTrainClaims, corpus, seed, { randomDocs: 3, randomSentences: 10 }),
    dev: evidencePairs(sciDevClaims, corpus, seed),
  };
  return { nli, evidence };
}

export function textsOf(d: PreparedData): string[] {
  const out: string[] = [];
  const nliSets: LabelledPair[][] = [d.nli.snli, d.nli.snliHeld, d.nli.rte, d.nli.rteDev, d.nli.sciTrain, d.nli.sciDev, d.nli.contrast, d.nli.sick];
  for (const set of nliSets) for (const p of set) out.push(p.premise, p.hypothesis);
  const evSets: EvidencePair[][] = [d.evidence.train, d.evidence.dev];
  for (const set of evSets) for (const p of set) out.push(p.sentence, p.claim);
  return out;
}

export interface TrainRunResult {
  nli?: NliOutcome & { path: string; sha256: string };
  evidence?: EvidenceOutcome & { path: string; sha256: string };
}

export async function runTraining(embedder: Embedder, opts: TrainOptions): Promise<TrainRunResult> {
  const log = opts.log ?? (() => {});
  let data = prepareData(opts.data, opts.seed, opts.dataOptions ?? {});
  if (opts.annotations) {
    const { loadAnnotationTrainingData } = await import('../annotation-pairs.js');
    const extra = await loadAnnotationTrainingData(opts.annotations);
    data = withExtraTraining(data, extra);
    log(`annotations: ${extra.pairs.length} pairs from ${opts.annotations} (${extra.nli.length} NLI, ${extra.evidence.length} evidence)`);
  }
  // All texts of both heads, every run (even with --only): the embedding batches, and so the vectors'
  // last bits, then never depend on which head was trained first (see embed-cache.ts).
  const t0 = performance.now();
  const { vectors, embeddedNow } = await embedAllCached(embedder, textsOf(data), opts.cacheDir, log);
  const embedSeconds = (performance.now() - t0) / 1000;
  const ctx = { seed: opts.seed, embedSeconds, texts: vectors.size, embeddedNow, dataRoot: opts.data };
  mkdirSync(opts.out, { recursive: true });
  const result: TrainRunResult = {};
  const embedderInfo = { id: embedder.info.id, version: embedder.info.version, dimension: embedder.dimension };

  if (opts.only !== 'evidence') {
    const outcome = await trainNli({ ...data.nli, vectors }, embedderInfo, opts.seed, { ...opts.nli }, { ablation: opts.ablation ?? true, log });
    const path = join(opts.out, 'nli-head.json');
    const sha256 = writeWeights(path, outcome.weights);
    result.nli = { ...outcome, path, sha256 };
    writeNliReport(opts.out, result.nli, { ...ctx, embedder: embedderInfo });
    log(`wrote ${path} (sha256 ${sha256.slice(0, 16)})`);
  }
  if (opts.only !== 'nli') {
    const outcome = await trainEvidence({ ...data.evidence, vectors }, embedderInfo, opts.seed, { ...opts.evidence }, log);
    const path = join(opts.out, 'evidence-head.json');
    const sha256 = writeWeights(path, outcome.weights);
    result.evidence = { ...outcome, path, sha256 };
    writeEvidenceReport(opts.out, result.evidence, { ...ctx, embedder: embedderInfo });
    log(`wrote ${path} (sha256 ${sha256.slice(0, 16)})`);
  }
  return result;
}
