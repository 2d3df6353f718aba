/**
 * The verdict calibration (relevance gate, thresholds, probability calibrator) fitted on SciFact TRAIN
 * without the in-sample bias of the shipped NLI head, which was trained on those same claims: the claims
 * are split in two halves (by claim id, seeded), an NLI head is trained on everything except one half's
 * SciFact pairs and contrast twins (the shipped configuration, linear), and each half's verdict items
 * (tune-verdict.ts: cited abstracts + one shuffled abstract per claim) are collected with the head that did
 * not see it. The evidence head is the shipped one. The result is tied to the SHIPPED heads' ids, which the
 * Verifier checks before applying it. Fitting on the shipped head's in-sample predictions instead gave
 * SciFact dev accuracy 55.3% and ECE 0.29 (cross-fitted: 61.2%, 0.16).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Embedder, EntailmentModel, PairScorer } from '../../models/types.js';
import { embedAllCached } from '../heads/embed-cache.js';
import { TrainedEntailmentModel } from '../../models/trained/entailment.js';
import { TrainedHead } from '../../models/trained/head.js';
import { prepareData, textsOf } from '../heads/train.js';
import { DEFAULT_NLI_CONFIG, fit } from '../heads/train-nli.js';
import { Rng, subSeed } from '../../util/rng.js';
import { serialiseWeights, sha256, type HeadWeights } from '../../models/trained/weights-io.js';
import { NLI_CLASS_NAMES } from '../heads/data.js';
import { PAIR_FEATURE_NAMES } from '../../models/trained/features.js';
import type { VerdictCalibration } from '../../verify/verdict-calibration.js';
import type { Verifier } from '../../verify/verifier.js';
import { collectVerdictItems, type GoldClaim } from './collect-pairs.js';
import { fitVerdictCalibration, type LabelledPairs } from './fit-verdict.js';

export interface CrossFitOptions {
  /**
   * A verifier over the index holding the SciFact corpus, with this entailment model in place of the
   * shipped one (the composition root builds it: columbia rule, per-sentence probabilities attached).
   */
  verifierWith: (entailment: EntailmentModel) => Promise<Verifier>;
  /** Shared data root (scifact/claims_train.jsonl and what `veracite train` reads). */
  data: string;
  seed: number;
  /** The shipped models as the verifier loads them (registry.loadVerifierModels): USE encoder, evidence head, NLI head. */
  models: { embedder: Embedder; scorer: PairScorer; entailment: EntailmentModel };
  /** The encoder of the training vectors: USE with one thread, as `veracite train` (embed-cache.ts keys on its exact output). */
  trainingEmbedder: Embedder;
  /** Training embedding cache (tmp/train-cache). */
  cacheDir?: string;
  log?: (line: string) => void;
}

export async function fitVerdictCrossFitted(o: CrossFitOptions): Promise<VerdictCalibration> {
  const log = o.log ?? (() => {});
  const claimsPath = join(o.data, 'scifact/claims_train.jsonl');
  const claims = (await readFile(claimsPath, 'utf8'))
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as GoldClaim & { id: number };
      } catch (e) {
        throw new Error(`${claimsPath}:${i + 1}: ${(e as Error).message}`);
      }
    });
  const data = prepareData(o.data, o.seed);
  const { vectors } = await embedAllCached(o.trainingEmbedder, textsOf(data), o.cacheDir, log);
  const nli = { ...data.nli, vectors };
  const ids = [...new Set(claims.map((c) => c.id))].sort((a, b) => a - b);
  const half = new Set(new Rng(subSeed(o.seed, 'verdict-crossfit')).sample(ids, Math.round(ids.length / 2)));
  const columbia: LabelledPairs[] = [];
  const concat: LabelledPairs[] = [];
  const dim = o.models.embedder.dimension;
  for (const fold of [0, 1]) {
    const held = (id: number) => half.has(id) === (fold === 0);
    const heldGroup = (g: string) => g.startsWith('scifact:') && held(Number(g.slice('scifact:'.length)));
    // This fold's head never sees the held-out claims' SciFact pairs or their contrast twins.
    const foldData = { ...nli, sciTrain: nli.sciTrain.filter((p) => !heldGroup(p.group)), contrast: nli.contrast.filter((p) => !heldGroup(p.group)) };
    const t0 = performance.now();
    const f = await fit(foldData, dim, o.seed, DEFAULT_NLI_CONFIG, DEFAULT_NLI_CONFIG.sources.filter((s) => s !== 'sick'), 0, () => {});
    const e = o.models.embedder.info;
    const weights: HeadWeights = { kind: 'nli', labels: NLI_CLASS_NAMES, embedder: { id: e.id, version: e.version, dimension: dim }, lexicalFeatures: [...PAIR_FEATURE_NAMES], idf: f.idf, model: f.model, training: { crossfitFold: fold } };
    const head = new TrainedHead('nli', weights, o.models.embedder, sha256(Buffer.from(serialiseWeights(weights))));
    const foldClaims = claims.filter((c) => held(c.id));
    log(`fold ${fold}: NLI head without ${foldClaims.length} held-out claims fitted in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    const verifier = await o.verifierWith(new TrainedEntailmentModel(head));
    const items = await collectVerdictItems(verifier, foldClaims, { onProgress: (d, t) => (d % 100 === 0 || d === t) && log(`fold ${fold}: ${d}/${t} pairs`) });
    columbia.push(...items.columbia);
    concat.push(...items.concat);
  }
  return fitVerdictCalibration({ columbia, concat }, `${claimsPath} (2-fold cross-fitted NLI head, seed ${o.seed})`, [o.models.scorer.info, o.models.entailment.info]);
}
