import type { Tensor } from '@huggingface/transformers';
import type { EncodedItem } from './encode.js';
import { runBatched } from './encode.js';
import type { LoadedOnnxModel } from './load.js';

/** Runs a sequence-classification model over (text, pair) items; one logits row per item, in input order. */
export async function classifyPairs(loaded: LoadedOnnxModel, pairs: Array<[string, string]>): Promise<Float32Array[]> {
  const items = pairs.map(([a, b]) => loaded.encoder.encode(a, b));
  return runBatched(items, loaded.batchSize, async (batch: EncodedItem[]) => {
    const out = (await loaded.model(loaded.encoder.batch(batch))) as Record<string, Tensor>;
    const logits = out.logits;
    if (logits === undefined || logits.dims.length !== 2 || logits.dims[0] !== batch.length) {
      const got = logits === undefined ? 'none' : `[${logits.dims.join(', ')}]`;
      throw new Error(`${loaded.where}: expected a 'logits' output of shape [batch, labels], got ${got}`);
    }
    const width = logits.dims[1];
    const data = logits.data as Float32Array;
    return batch.map((_, r) => data.slice(r * width, (r + 1) * width));
  });
}
