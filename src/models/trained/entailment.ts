/**
 * The project's own 3-way NLI head on frozen sentence embeddings: the offline default EntailmentModel
 * when no ONNX cross-encoder is installed. Much weaker than a cross-encoder (see models/nli-head.report.md)
 * but needs nothing beyond the npm packages.
 */
import type { Embedder, EntailmentModel, EntailmentPair, EntailmentProbs, ModelInfo } from '../types.js';
import { TrainedHead, type LoadHeadOptions } from './head.js';
import { defaultWeightsPath } from './weights-io.js';

export const NLI_LABELS = ['entailment', 'neutral', 'contradiction'] as const;

export class TrainedEntailmentModel implements EntailmentModel {
  readonly info: ModelInfo;
  private readonly order: number[];

  constructor(private readonly head: TrainedHead) {
    this.info = head.info;
    // Map by name, never by position, so a weights file with another label order still reads correctly.
    this.order = NLI_LABELS.map((l) => head.weights.labels.indexOf(l));
    if (this.order.some((i) => i < 0)) throw new Error(`NLI weights labels ${head.weights.labels.join(',')} lack one of ${NLI_LABELS.join(',')}`);
  }

  async predict(pairs: EntailmentPair[]): Promise<EntailmentProbs[]> {
    const probs = await this.head.probabilities(pairs);
    const [e, n, c] = this.order;
    return probs.map((p) => ({ entailment: p[e], neutral: p[n], contradiction: p[c] }));
  }
}

/** Loads the committed NLI head (models/nli-head.json) or the weights file at `path`. */
export async function loadTrainedEntailment(embedder: Embedder, path?: string, opts?: LoadHeadOptions): Promise<TrainedEntailmentModel> {
  return new TrainedEntailmentModel(TrainedHead.load('nli', embedder, path ?? defaultWeightsPath('nli'), opts));
}
