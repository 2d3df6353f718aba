import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AutoTokenizer, type PreTrainedTokenizer } from '@huggingface/transformers';
import { InputEncoder, runBatched } from './encode.js';
import { TempModels, words } from './test-fixtures.js';

const models = new TempModels();
let tokenizer: PreTrainedTokenizer;
let CLS: number;
let SEP: number;

before(async () => {
  const dir = await models.build({ task: 'embedding' });
  tokenizer = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
  CLS = tokenizer._tokenizer.token_to_id('[CLS]') ?? -1;
  SEP = tokenizer._tokenizer.token_to_id('[SEP]') ?? -1;
});
after(() => models.cleanup());

describe('InputEncoder', () => {
  it('matches the tokenizer on inputs that fit', () => {
    const enc = new InputEncoder(tokenizer, 64);
    const ours = enc.encode('the claim is true', 'evidence supports it');
    const theirs = tokenizer._tokenizer.encode('the claim is true', { text_pair: 'evidence supports it', return_token_type_ids: true });
    assert.deepEqual(ours.ids, theirs.ids);
    assert.deepEqual(ours.typeIds, theirs.token_type_ids);
  });

  it('truncation keeps the special tokens (unlike plain max_length truncation)', () => {
    const enc = new InputEncoder(tokenizer, 10);
    const single = enc.encode(words(50));
    assert.equal(single.ids.length, 10);
    assert.equal(single.ids[0], CLS);
    assert.equal(single.ids[9], SEP);
  });

  it('pairs are truncated longest-first', () => {
    const enc = new InputEncoder(tokenizer, 13); // 10 content tokens + [CLS] [SEP] [SEP]
    const longB = enc.encode(words(2), words(50));
    assert.equal(longB.ids.length, 13);
    assert.deepEqual(longB.typeIds, [0, 0, 0, 0, ...Array(9).fill(1)]); // A keeps its 2 tokens
    const both = enc.encode(words(50), words(50));
    assert.deepEqual(both.typeIds, [...Array(7).fill(0), ...Array(6).fill(1)]); // 5 + 5 content
    assert.equal(both.ids.filter((x) => x === SEP).length, 2);
  });

  it('pads right with [PAD] and a zero mask', () => {
    const enc = new InputEncoder(tokenizer, 32);
    const t = enc.batch([enc.encode('a b c'), enc.encode('a')]);
    assert.deepEqual(t.input_ids.dims, [2, 5]);
    assert.deepEqual(Array.from(t.attention_mask.data as BigInt64Array, Number), [1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
    assert.equal((t.input_ids.data as BigInt64Array)[9], BigInt(tokenizer.pad_token_id ?? 0));
  });

  it('runBatched returns results in input order', async () => {
    const items = [5, 1, 3, 2, 4].map((n) => ({ ids: Array(n).fill(7), typeIds: Array(n).fill(0) }));
    const sizes: number[] = [];
    const out = await runBatched(items, 2, async (batch) => {
      sizes.push(batch.length);
      return batch.map((b) => b.ids.length);
    });
    assert.deepEqual(out, [5, 1, 3, 2, 4]);
    assert.deepEqual(sizes, [2, 2, 1]);
  });
});
