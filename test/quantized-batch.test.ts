/**
 * The shipped int8 files (models/verifier, models/embedder) quantize activations with one scale per batch tensor
 * (src/models/onnx/load.ts, DEFAULT_BATCH_Q8): read in a batch, a text's reading would depend on its neighbours
 * (P(entailment) moved by up to 0.35 at batch 4). Loaded with the defaults, a pair or a text reads the same alone
 * and among others, in any order: a citation's verdict does not change with the article it is audited in.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OnnxEntailmentModel } from '../src/models/onnx/entailment.js';
import { loadEmbedder } from '../src/models/registry.js';
import type { Embedder, EntailmentModel, EntailmentPair } from '../src/models/types.js';
import { packageRoot } from '../src/util/package-root.js';

// Real sentences of varied length: the sample audit's cited abstracts.
const abstract = (id: string) => readFileSync(join(packageRoot(), 'data/samples/audit/sources', `scifact-${id}.txt`), 'utf8').split(/(?<=\.) /);
const sentences = [...abstract('16322674'), ...abstract('23557241')].filter((s) => s.length > 20).slice(0, 12);
const claim = 'Birth length was the strongest independent predictor of breast cancer risk.';
const pairs: EntailmentPair[] = sentences.map((s, i) => ({ premise: i % 3 ? s : sentences.slice(i, i + 3).join(' '), hypothesis: claim }));

describe('int8 models read each input on its own (the default batch for q8)', () => {
  let nli: EntailmentModel;
  let embedder: Embedder;
  before(async () => {
    nli = await OnnxEntailmentModel.load(join(packageRoot(), 'models/verifier'), { dtype: 'q8', pairOrder: 'claim-first' });
    embedder = await loadEmbedder('minilm');
  });
  after(async () => {
    await nli?.dispose?.();
    await embedder?.dispose?.();
  });

  it('the verifier: a pair alone, among the others and in reverse order reads exactly the same', async () => {
    const together = await nli.predict(pairs);
    const reversed = (await nli.predict([...pairs].reverse())).reverse();
    for (const [i, p] of pairs.entries()) {
      const [alone] = await nli.predict([p]);
      assert.deepEqual(together[i], alone, `pair ${i}`);
      assert.deepEqual(reversed[i], alone, `pair ${i}, other neighbours`);
    }
  });

  it('the embedder: a text alone and among the others gets the same vector', async () => {
    const together = await embedder.embed(sentences);
    for (const [i, s] of sentences.entries()) {
      const [alone] = await embedder.embed([s]);
      assert.deepEqual(Array.from(together[i]!), Array.from(alone!), `text ${i}`);
    }
  });
});
