import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { cudaAvailability } from './cuda.js';
import { OnnxEmbedder } from './embedder.js';
import { ModelLoadError, type ModelLoadErrorCode } from './errors.js';
import { OnnxEntailmentModel } from './entailment.js';
import { TempModels } from './test-fixtures.js';

const models = new TempModels();
after(() => models.cleanup());

/** Asserts a ModelLoadError with this code whose message names `where`. */
function loadError(code: ModelLoadErrorCode, where: string): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof ModelLoadError, `expected ModelLoadError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    assert.ok(e.message.includes(where), `message should name ${where}: ${e.message}`);
    return true;
  };
}

describe('ONNX load errors', () => {
  it('missing folder', async () => {
    const dir = path.join(await models.build({ task: 'embedding' }), '..', 'does-not-exist');
    await assert.rejects(OnnxEmbedder.load(dir), loadError('folder-missing', path.resolve(dir)));
    await assert.rejects(OnnxEmbedder.load('./no/such/model'), loadError('folder-missing', path.resolve('./no/such/model')));
  });

  it('missing and invalid config.json', async () => {
    const dir = await models.build({ task: 'embedding' });
    const config = path.join(dir, 'config.json');
    await writeFile(config, '{ "model_type": "bert", ');
    await assert.rejects(OnnxEmbedder.load(dir), loadError('config-invalid', config));
    await rm(config);
    await assert.rejects(OnnxEmbedder.load(dir), loadError('config-missing', config));
  });

  it('missing tokenizer', async () => {
    const dir = await models.build({ task: 'embedding' });
    await rm(path.join(dir, 'tokenizer.json'));
    await assert.rejects(OnnxEmbedder.load(dir), loadError('tokenizer-missing', path.join(dir, 'tokenizer.json')));
  });

  it('missing onnx file for the requested dtype, with a hint', async () => {
    const dir = await models.build({ task: 'embedding' }); // fp32 only
    const q8 = path.join(dir, 'onnx', 'model_quantized.onnx');
    await assert.rejects(OnnxEmbedder.load(dir, { dtype: 'q8' }), (e: unknown) => {
      loadError('onnx-missing', q8)(e);
      assert.match((e as Error).message, /use dtype 'fp32'/);
      return true;
    });
    const fp32 = path.join(dir, 'onnx', 'model.onnx');
    await rm(fp32);
    await assert.rejects(OnnxEmbedder.load(dir), loadError('onnx-missing', fp32));
  });

  it('corrupted onnx file (garbage bytes)', async () => {
    const dir = await models.build({ task: 'classification', id2label: { 0: 'entailment', 1: 'neutral', 2: 'contradiction' } });
    const onnxPath = path.join(dir, 'onnx', 'model.onnx');
    await writeFile(onnxPath, randomBytes(4096));
    await assert.rejects(OnnxEntailmentModel.load(dir), loadError('onnx-invalid', onnxPath));
  });

  it('an embedder pointed at a classifier export says what output is missing', async () => {
    const dir = await models.build({ task: 'classification', numLabels: 2 });
    await assert.rejects(OnnxEmbedder.load(dir), loadError('onnx-invalid', 'last_hidden_state'));
  });

  it(
    "device 'cuda' without the CUDA provider is a clear error, never a CPU fallback",
    { skip: cudaAvailability().available ? 'CUDA provider installed here' : false },
    async () => {
      const dir = await models.build({ task: 'embedding' });
      await assert.rejects(OnnxEmbedder.load(dir, { device: 'cuda' }), (e: unknown) => {
        loadError('cuda-unavailable', 'libonnxruntime_providers')(e);
        assert.match((e as Error).message, /ONNXRUNTIME_NODE_INSTALL=skip/);
        return true;
      });
      const status = cudaAvailability();
      assert.equal(status.available, false);
      assert.ok(status.reason);
    },
  );

  it('cudaAvailability: provider libraries next to the binding decide, on linux/x64 only', async () => {
    const dir = await models.build({ task: 'embedding' }, 'fake-binding');
    const missing = cudaAvailability({ platform: 'linux', arch: 'x64', bindingDir: dir });
    assert.equal(missing.available, false);
    assert.deepEqual(missing.missing, ['libonnxruntime_providers_shared.so', 'libonnxruntime_providers_cuda.so']);
    await writeFile(path.join(dir, 'libonnxruntime_providers_shared.so'), '');
    await writeFile(path.join(dir, 'libonnxruntime_providers_cuda.so'), '');
    const present = cudaAvailability({ platform: 'linux', arch: 'x64', bindingDir: dir });
    if (process.platform === 'linux' && process.arch === 'x64') assert.equal(present.available, true);
    const mac = cudaAvailability({ platform: 'darwin', arch: 'arm64', bindingDir: dir });
    assert.equal(mac.available, false);
    assert.match(mac.reason ?? '', /darwin\/arm64/);
  });

  it('a hub id with offline: true never goes to the network', async () => {
    await assert.rejects(
      OnnxEmbedder.load('Xenova/all-MiniLM-L6-v2', { offline: true }),
      loadError('remote-disabled', 'Xenova/all-MiniLM-L6-v2'),
    );
  });

  it('rejects invalid options', async () => {
    const dir = await models.build({ task: 'embedding' });
    await assert.rejects(OnnxEmbedder.load(dir, { batchSize: 0 }), RangeError);
    await assert.rejects(OnnxEmbedder.load(dir, { threads: 1.5 }), RangeError);
    await assert.rejects(OnnxEmbedder.load(dir, { maxLength: 3 }), RangeError);
    await assert.rejects(OnnxEmbedder.load(dir, { dtype: 'fp16' as 'fp32' }), RangeError);
  });
});
