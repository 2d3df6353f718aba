/**
 * The verdict calibration (relevance gate, thresholds, probability calibrator) fitted on SciFact TRAIN
 * without the in-sample bias of the shipped heads, which were trained on those same claims: the claims
 * are split in two halves (by claim id, seeded), and for each half an NLI head (everything except that
 * half's SciFact pairs and contrast twins; the shipped configuration, linear) and an evidence head (the
 * `veracite train` recipe without that half's claims) are trained; each half's verdict items
 * (tune-verdict.ts: cited abstracts + one shuffled abstract per claim) are collected with the heads that
 * did not see it. The result is tied to the SHIPPED heads' ids, which the Verifier checks before applying it.
 *
 * Why both heads: fitting on the shipped NLI head's in-sample predictions gave SciFact dev accuracy 55.3%
 * and ECE 0.29 (cross-fitting the NLI head: 61.2%, 0.16). The evidence head is the relevance the gate
 * reads, and in-sample it is far more confident: the best evidence score of a cited SUPPORT/CONTRADICT
 * abstract had a median of 0.88-0.91 on train (10th percentile 0.50-0.56) against 0.59-0.67 on dev
 * (10th percentile 0.06-0.09), so a gate fitted on in-sample scores sent 63 of dev's 209 evidence
 * pairs to NOT ENOUGH INFO (train: 19 of 419).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Embedder, EntailmentModel, PairScorer } from '../../models/types.js';
import { embedAllCached } from '../heads/embed-cache.js';
import { TrainedEntailmentModel } from '../../models/trained/entailment.js';
import { TrainedHead } from '../../models/trained/head.js';
import { prepareData, textsOf } from '../heads/train.js';
import { DEFAULT_NLI_CONFIG, fit } from '../heads/train-nli.js';
import { DEFAULT_EVIDENCE_CONFIG, trainEvidence } from '../heads/train-evidence.js';
import { TrainedEvidenceScorer } from '../../models/trained/evidence-scorer.js';
import { Rng, subSeed } from '../../util/rng.js';
import { serialiseWeights, sha256, type HeadWeights } from '../../models/trained/weights-io.js';
import { NLI_CLASS_NAMES } from '../heads/data.js';
import { PAIR_FEATURE_NAMES } from '../../models/trained/features.js';
import type { VerdictCalibration } from '../../verify/verdict-calibration.js';
import type { Verifier } from '../../verify/verifier.js';
import { collectVerdictItems, type GoldClaim } from './collect-pairs.js';
import { fitVerdictCalibration, type LabelledPairs } from './fit-verdict.js';
import { DEFAULT_HELD_OUT } from './held-out.js';

export interface CrossFitOptions {
  /**
   * A verifier over the index holding the SciFact corpus, with these heads in place of the shipped ones
   * (the composition root builds it: columbia rule, per-sentence probabilities attached).
   */
  verifierWith: (heads: { entailment: EntailmentModel; scorer: PairScorer }) => Promise<Verifier>;
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
  /** Also save the cross-fitted items (per-sentence probabilities and evidence scores, gold) here, for analysis. */
  itemsOut?: string;
  /** Retrieved-but-uncited abstracts per claim as NOT ENOUGH INFO (collect-pairs.ts); 0 = none. */
  retrieved?: number;
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
  const evidencePairs = data.evidence.train;
  const evidenceHidden = o.models.scorer instanceof TrainedEvidenceScorer ? o.models.scorer.hidden : DEFAULT_EVIDENCE_CONFIG.hidden;
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
    // The evidence head by `veracite train`'s own recipe (its validation split and early stopping) on the
    // other half's claims, with the shipped head's architecture: the gate fitted on its scores is applied
    // to the shipped head's (a linear fold head's scores sit lower than an MLP's). The held-out half is
    // its "dev", reported in the log only.
    const ev = await trainEvidence(
      { train: evidencePairs.filter((p) => !heldGroup(p.group)), dev: evidencePairs.filter((p) => heldGroup(p.group)), vectors },
      { id: e.id, version: e.version, dimension: dim },
      o.seed,
      { hidden: evidenceHidden },
      () => {},
    );
    const evWeights: HeadWeights = { ...ev.weights, training: { ...ev.weights.training, crossfitFold: fold } };
    const scorer = new TrainedEvidenceScorer(new TrainedHead('evidence', evWeights, o.models.embedder, sha256(Buffer.from(serialiseWeights(evWeights)))));
    log(`fold ${fold}: evidence head (${ev.hiddenChoice.chosen ? 'MLP' : 'linear'}) without them fitted in ${ev.trainSeconds.toFixed(0)} s; held-out rationale AP ${ev.dev.ranking.meanAveragePrecision.toFixed(3)}`);
    const verifier = await o.verifierWith({ entailment: new TrainedEntailmentModel(head), scorer });
    const items = await collectVerdictItems(verifier, foldClaims, { retrieved: o.retrieved ?? 0, onProgress: (d, t) => (d % 100 === 0 || d === t) && log(`fold ${fold}: ${d}/${t} pairs`) });
    log(`fold ${fold}: ${items.counts.oracle} claims, ${items.counts.shuffled} shuffled and ${items.counts.retrieved} retrieved uncited abstracts`);
    columbia.push(...items.columbia);
    concat.push(...items.concat);
  }
  if (o.itemsOut) {
    await mkdir(dirname(o.itemsOut), { recursive: true });
    await writeFile(o.itemsOut, JSON.stringify({ source: claimsPath, seed: o.seed, columbia, concat }) + '\n');
    log(`saved the cross-fitted items to ${o.itemsOut}`);
  }
  return fitVerdictCalibration({ columbia, concat }, `${claimsPath} (2-fold cross-fitted NLI and evidence heads, seed ${o.seed})`, [o.models.scorer.info, o.models.entailment.info], {
    heldOut: { ...DEFAULT_HELD_OUT, seed: o.seed },
  });
}
