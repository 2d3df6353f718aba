import type { ModelInfo, PairScorer, ScoredPair } from '../types.js';
import { classifyPairs } from './classify.js';
import { positiveIndex, readId2Label } from './labels.js';
import { loadOnnxModel, type LoadedOnnxModel, type OnnxLoadOptions } from './load.js';
import { sigmoid, softmax } from './math.js';

export interface OnnxPairScorerOptions extends OnnxLoadOptions {
  /**
   * What a score is. Default: 'logit' for single-logit heads (ms-marco cross-encoders rank by raw logit),
   * 'probability' for multi-logit heads (softmax probability of the positive label, in [0, 1]).
   * 'probability' on a single logit applies a sigmoid; 'logit' on a multi-logit head returns the positive
   * label's raw logit.
   */
  scoreAs?: 'logit' | 'probability';
  /** Multi-logit heads: the positive label's name or index, overriding the id2label rule. */
  positiveLabel?: string | number;
}

/**
 * Cross-encoder relevance: (query, passage) -> one score, higher = more relevant.
 * Rule for the score: 1 logit -> that logit (sigmoid if scoreAs 'probability'); 2+ logits -> the positive
 * label's softmax probability (or raw logit), the positive label being the first id2label name in
 * POSITIVE_LABELS order: relevant, entailment, positive, yes, true, match, LABEL_1 (see labels.ts).
 */
export class OnnxPairScorer implements PairScorer {
  readonly info: ModelInfo;

  private constructor(
    private readonly loaded: LoadedOnnxModel,
    private readonly labelCount: number,
    private readonly positive: number | undefined,
    private readonly scoreAs: 'logit' | 'probability' | undefined,
  ) {
    this.info = loaded.info;
  }

  static async load(spec: string, options: OnnxPairScorerOptions = {}): Promise<OnnxPairScorer> {
    const loaded = await loadOnnxModel(spec, 'sequence-classification', options);
    try {
      const id2label = readId2Label(loaded.config, `${loaded.where}/config.json`);
      // Label names are checked at load so a wrong model fails before the first query, not during one.
      const positive = id2label.size >= 2 ? positiveIndex(id2label, loaded.where, options.positiveLabel) : undefined;
      return new OnnxPairScorer(loaded, id2label.size, positive, options.scoreAs);
    } catch (e) {
      await loaded.model.dispose();
      throw e;
    }
  }

  async score(pairs: ScoredPair[]): Promise<number[]> {
    const rows = await classifyPairs(
      this.loaded,
      pairs.map((p) => [p.query, p.passage]),
    );
    return rows.map((logits) => this.toScore(logits));
  }

  private toScore(logits: Float32Array): number {
    if (logits.length === 1) return this.scoreAs === 'probability' ? sigmoid(logits[0]) : logits[0];
    if (this.positive === undefined || logits.length !== this.labelCount || this.positive >= logits.length) {
      throw new Error(
        `${this.loaded.where}: model returns ${logits.length} logits but config.json id2label has ` +
          `${this.labelCount} labels; fix id2label or pass positiveLabel`,
      );
    }
    return this.scoreAs === 'logit' ? logits[this.positive] : softmax(logits)[this.positive];
  }

  async dispose(): Promise<void> {
    await this.loaded.model.dispose();
  }
}
