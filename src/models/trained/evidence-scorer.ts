/**
 * (claim, sentence) -> P(the sentence is rationale evidence for the claim), trained on SciFact. Used to
 * pick evidence sentences inside retrieved abstracts; scores are probabilities, so they are comparable
 * across calls and `threshold` (stored with the weights) turns them into a yes/no.
 */
import type { Embedder, ModelInfo, PairScorer, ScoredPair } from '../types.js';
import { TrainedHead, type LoadHeadOptions } from './head.js';
import { defaultWeightsPath } from './weights-io.js';

export class TrainedEvidenceScorer implements PairScorer {
  readonly info: ModelInfo;
  /** Decision threshold on the score, chosen at training time (see models/evidence-head.report.md). */
  readonly threshold: number;
  /** Hidden units of the head (0 = linear): what a re-fit of the same recipe must use (learn/verdict/crossfit.ts). */
  readonly hidden: number;
  private readonly positive: number;

  constructor(private readonly head: TrainedHead) {
    this.info = head.info;
    this.threshold = head.weights.threshold ?? 0.5;
    this.hidden = head.weights.model.hidden;
    this.positive = head.weights.labels.indexOf('evidence');
    if (this.positive < 0) throw new Error(`evidence weights labels ${head.weights.labels.join(',')} lack "evidence"`);
  }

  /** query = claim, passage = candidate sentence; the sentence is the "premise" of the pair features. */
  async score(pairs: ScoredPair[]): Promise<number[]> {
    const probs = await this.head.probabilities(pairs.map((p) => ({ premise: p.passage, hypothesis: p.query })));
    return probs.map((p) => p[this.positive]);
  }
}

/** Loads the committed evidence head (models/evidence-head.json) or the weights file at `path`. */
export async function loadTrainedEvidenceScorer(embedder: Embedder, path?: string, opts?: LoadHeadOptions): Promise<TrainedEvidenceScorer> {
  return new TrainedEvidenceScorer(TrainedHead.load('evidence', embedder, path ?? defaultWeightsPath('evidence'), opts));
}
