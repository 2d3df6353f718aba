/**
 * Two NLI models read as one: each pair's three probabilities are the weighted mean of both models' readings.
 * The shipped engine can be the cross-encoder mixed with the lite heads (a profile's `mix`, models/hub/profile.ts):
 * on the verifier's held-out domains the two err on different citations, and their mean ranks supported
 * against not-supported sources better than either alone (docs/RESULTS.md, "Issue 43 (stop 52)"). Everything
 * downstream (the verdict rule, its calibration, the one decision) reads the mixture as it reads any model,
 * and is calibrated on the mixture's own readings.
 */
import type { EntailmentModel, EntailmentPair, EntailmentProbs, ModelInfo } from '../types.js';

/** One pair's mixture: `weight` of the first reading, the rest of the second. */
export function mixProbs(a: EntailmentProbs, b: EntailmentProbs, weight: number): EntailmentProbs {
  return { entailment: weight * a.entailment + (1 - weight) * b.entailment, neutral: weight * a.neutral + (1 - weight) * b.neutral, contradiction: weight * a.contradiction + (1 - weight) * b.contradiction };
}

/** `<first id>+<second id>` and the members' versions joined with the first one's weight: a changed member or weight is another model. */
export function mixedInfo(first: ModelInfo, second: ModelInfo, weight: number): ModelInfo {
  return {
    id: `${first.id}+${second.id}`,
    // The first member's weights hash leads, so a printed result names the cross-encoder's file (provenance/model-label.ts).
    version: `${first.version}+${second.version}@${weight}`,
    backend: 'mix',
    ...(first.file ? { file: first.file } : {}),
    details: { members: [{ id: first.id, version: first.version, backend: first.backend, weight }, { id: second.id, version: second.version, backend: second.backend, weight: 1 - weight }] },
  };
}

export class MixedEntailment implements EntailmentModel {
  readonly info: ModelInfo;

  /** `weight`: the first model's share, in (0, 1); the second gets the rest. */
  constructor(
    private readonly first: EntailmentModel,
    private readonly second: EntailmentModel,
    readonly weight: number,
  ) {
    if (!(weight > 0 && weight < 1)) throw new RangeError(`mix weight ${weight}: must be between 0 and 1 (a weight of 0 or 1 is one model alone: name that model instead)`);
    this.info = mixedInfo(first.info, second.info, weight);
  }

  async predict(pairs: EntailmentPair[], signal?: AbortSignal): Promise<EntailmentProbs[]> {
    const [a, b] = await Promise.all([this.first.predict(pairs, signal), this.second.predict(pairs, signal)]);
    return a.map((x, i) => mixProbs(x, b[i]!, this.weight));
  }

  reviewOf(pair: EntailmentPair): string | undefined {
    return this.first.reviewOf?.(pair) ?? this.second.reviewOf?.(pair);
  }

  async dispose(): Promise<void> {
    await this.first.dispose?.();
    await this.second.dispose?.();
  }
}
