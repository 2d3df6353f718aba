import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { TempModels } from './test-fixtures.js';

const models = new TempModels();
after(() => models.cleanup());

describe('buildTinyBertModel', () => {
  it('writes a complete model folder quickly', async () => {
    const t0 = performance.now();
    const dir = await models.build({ task: 'embedding', quantized: true });
    const ms = performance.now() - t0;
    assert.ok(ms < 1000, `built in ${ms.toFixed(0)} ms`);
    assert.deepEqual((await readdir(dir)).sort(), ['config.json', 'onnx', 'tokenizer.json', 'tokenizer_config.json']);
    assert.deepEqual((await readdir(path.join(dir, 'onnx'))).sort(), ['model.onnx', 'model_quantized.onnx']);
    const config = JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8'));
    assert.equal(config.model_type, 'bert');
    assert.equal(config.hidden_size, 64);
    assert.equal(config.num_hidden_layers, 2);
    const tok = JSON.parse(await readFile(path.join(dir, 'tokenizer.json'), 'utf8'));
    for (const t of ['[PAD]', '[UNK]', '[CLS]', '[SEP]']) assert.ok(t in tok.model.vocab, t);
  });

  it('is deterministic for a seed and differs across seeds', async () => {
    const a = await models.build({ task: 'classification', numLabels: 3, seed: 7 });
    const b = await models.build({ task: 'classification', numLabels: 3, seed: 7 });
    const c = await models.build({ task: 'classification', numLabels: 3, seed: 8 });
    const read = (d: string): Promise<Buffer> => readFile(path.join(d, 'onnx', 'model.onnx'));
    assert.ok((await read(a)).equals(await read(b)));
    assert.ok(!(await read(a)).equals(await read(c)));
  });

  it('writes id2label and label2id for classification', async () => {
    const dir = await models.build({ task: 'classification', id2label: { 0: 'neutral', 1: 'entailment', 2: 'contradiction' } });
    const config = JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8'));
    assert.deepEqual(config.id2label, { 0: 'neutral', 1: 'entailment', 2: 'contradiction' });
    assert.deepEqual(config.label2id, { neutral: 0, entailment: 1, contradiction: 2 });
    assert.deepEqual(config.architectures, ['BertForSequenceClassification']);
  });
});
