import type { EntailmentModel, EntailmentPair, EntailmentProbs, ModelInfo } from '../types.js';
import { classifyPairs } from './classify.js';
import { entailmentIndices, readId2Label, type EntailmentIndices } from './labels.js';
import { loadOnnxModel, type LoadedOnnxModel, type OnnxLoadOptions } from './load.js';
import { softmax } from './math.js';

export interface OnnxEntailmentOptions extends OnnxLoadOptions {
  /** Logit index of each class, overriding config.json's id2label (for exports with LABEL_0.. names). */
  labelIndices?: EntailmentIndices;
  /**
   * The order the model was trained to read a pair in: 'premise-first' ([CLS] evidence [SEP] claim, the NLI
   * convention, default) or 'claim-first' ([CLS] claim [SEP] evidence, as models/verifier was trained:
   * MODEL_CARD.md). config.json's `veracite_pair_order` gives it when the option does not.
   */
  pairOrder?: 'premise-first' | 'claim-first';
}

/**
 * NLI: (premise, hypothesis) -> P(entailment), P(neutral), P(contradiction), a softmax over the model's
 * logits. Which logit is which comes from config.json's id2label, never from a fixed order.
 */
export class OnnxEntailmentModel implements EntailmentModel {
  readonly info: ModelInfo;
  readonly labels: EntailmentIndices;

  private constructor(
    private readonly loaded: LoadedOnnxModel,
    labels: EntailmentIndices,
    private readonly labelCount: number,
    /** Reads (claim, evidence) rather than (evidence, claim): OnnxEntailmentOptions.pairOrder. */
    private readonly claimFirst = false,
  ) {
    this.info = loaded.info;
    this.labels = labels;
  }

  static async load(spec: string, options: OnnxEntailmentOptions = {}): Promise<OnnxEntailmentModel> {
    const loaded = await loadOnnxModel(spec, 'sequence-classification', options);
    try {
      const where = `${loaded.where}/config.json`;
      const id2label = readId2Label(loaded.config, where);
      const order = options.pairOrder ?? (loaded.config['veracite_pair_order'] === 'claim-first' ? 'claim-first' : 'premise-first');
      return new OnnxEntailmentModel(loaded, entailmentIndices(id2label, where, options.labelIndices), id2label.size, order === 'claim-first');
    } catch (e) {
      await loaded.model.dispose();
      throw e;
    }
  }

  async predict(pairs: EntailmentPair[]): Promise<EntailmentProbs[]> {
    const rows = await classifyPairs(
      this.loaded,
      pairs.map((p) => (this.claimFirst ? [p.hypothesis, p.premise] : [p.premise, p.hypothesis])),
    );
    const { entailment, neutral, contradiction } = this.labels;
    return rows.map((logits) => {
      if ((this.labelCount > 0 && logits.length !== this.labelCount) || Math.max(entailment, neutral, contradiction) >= logits.length) {
        throw new Error(`${this.loaded.where}: model returns ${logits.length} logits, config.json id2label has ${this.labelCount} labels`);
      }
      // Softmax over all logits: with extra classes (rare), the three probabilities sum to less than 1.
      const p = softmax(logits);
      return { entailment: p[entailment], neutral: p[neutral], contradiction: p[contradiction] };
    });
  }

  async dispose(): Promise<void> {
    await this.loaded.model.dispose();
  }
}
