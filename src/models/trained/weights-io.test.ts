import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../types.js';
import { featureDim, PAIR_FEATURE_NAMES } from './features.js';
import { label, trainSoftmax } from '../../learn/heads/softmax-regression.js';
import { Rng } from '../../util/rng.js';
import { packageRoot } from '../../util/package-root.js';
import { defaultWeightsPath, readWeights, serialiseWeights, TrainedModelError, writeWeights, type HeadWeights } from './weights-io.js';
import { loadTrainedEntailment } from './entailment.js';
import { loadTrainedEvidenceScorer } from './evidence-scorer.js';

const DIM = 8;

/** Deterministic fake embedder that records what it was asked to embed. */
function fakeEmbedder(dimension = DIM): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    info: { id: 'fake-embedder', version: '1', backend: 'test' },
    dimension,
    calls,
    async embed(texts: string[]) {
      calls.push(texts);
      return texts.map((t) => {
        const rng = new Rng([...t].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261));
        const v = Float32Array.from({ length: dimension }, () => rng.normal());
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      });
    },
  };
}

function tinyHead(kind: 'nli' | 'evidence', hidden = 0): HeadWeights {
  const classes = kind === 'nli' ? 3 : 2;
  const dim = featureDim(DIM);
  const rng = new Rng(1);
  const rows = 60;
  const x = Float32Array.from({ length: rows * dim }, () => rng.normal());
  const y = Uint8Array.from({ length: rows }, (_, i) => label(i % classes));
  const { model } = trainSoftmax({ x, y, rows, dim }, classes, { seed: 1, epochs: 2, hidden });
  return {
    kind,
    labels: kind === 'nli' ? ['entailment', 'neutral', 'contradiction'] : ['other', 'evidence'],
    embedder: { id: 'fake-embedder', version: '1', dimension: DIM },
    lexicalFeatures: [...PAIR_FEATURE_NAMES],
    idf: { documents: 1, idf: { cat: 0.5 }, unseen: 1.2 },
    model,
    threshold: kind === 'evidence' ? 0.4 : undefined,
    training: { seed: 1 },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'veracite-trained-'));

test('weights round-trip byte for byte', () => {
  const w = tinyHead('nli', 4);
  const path = join(dir, 'rt.json');
  writeWeights(path, w);
  const back = readWeights(path, 'nli').weights;
  assert.equal(serialiseWeights(back), readFileSync(path, 'utf8'));
  assert.deepEqual(back.model.w1, w.model.w1);
});

test('a missing weights file is a clear error naming the path', async () => {
  const path = join(dir, 'nope', 'nli-head.json');
  await assert.rejects(loadTrainedEntailment(fakeEmbedder(), path), (e: unknown) => {
    assert.ok(e instanceof TrainedModelError);
    assert.equal(e.code, 'weights-missing');
    assert.equal(e.path, path);
    assert.match(e.message, new RegExp(path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.match(e.message, /veracite train/);
    return true;
  });
});

test('corrupt, truncated or wrong-kind weights are clear errors naming the path', async () => {
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"format": "veracite-trained-head", "formatVers');
  await assert.rejects(loadTrainedEntailment(fakeEmbedder(), bad), (e: unknown) => e instanceof TrainedModelError && e.code === 'weights-invalid' && e.message.includes(bad));

  const truncated = join(dir, 'truncated.json');
  const doc = JSON.parse(serialiseWeights(tinyHead('nli')));
  doc.model.w2 = doc.model.w2.slice(0, 40);
  writeFileSync(truncated, JSON.stringify(doc));
  await assert.rejects(loadTrainedEntailment(fakeEmbedder(), truncated), /truncated\.json are invalid: model\.w2 has/);

  const evidence = join(dir, 'evidence.json');
  writeWeights(evidence, tinyHead('evidence'));
  await assert.rejects(loadTrainedEntailment(fakeEmbedder(), evidence), /holds a "evidence" head, expected "nli"/);
});

test('an embedder of the wrong size or id is refused', async () => {
  const path = join(dir, 'nli.json');
  writeWeights(path, tinyHead('nli'));
  await assert.rejects(loadTrainedEntailment(fakeEmbedder(16), path), (e: unknown) => e instanceof TrainedModelError && e.code === 'embedder-mismatch');
  const other = { ...fakeEmbedder(), info: { id: 'other', version: '1', backend: 'test' } };
  await assert.rejects(loadTrainedEntailment(other, path), /trained on embedder fake-embedder, got other/);
  await loadTrainedEntailment(other, path, { allowEmbedderMismatch: true });
});

test('each distinct text is embedded once per call; probabilities are well formed', async () => {
  const path = join(dir, 'nli2.json');
  const sha = writeWeights(path, tinyHead('nli', 3));
  const emb = fakeEmbedder();
  const nli = await loadTrainedEntailment(emb, path);
  assert.equal(nli.info.id, `veracite-nli-use@${sha.slice(0, 12)}`);
  assert.equal(nli.info.version, `sha256:${sha.slice(0, 16)}`);
  assert.equal(nli.info.backend, 'trained');
  const claim = 'Claim repeated across sentences.';
  const pairs = Array.from({ length: 600 }, (_, i) => ({ premise: `sentence ${i % 200}`, hypothesis: claim }));
  const probs = await nli.predict(pairs);
  assert.equal(probs.length, 600);
  assert.equal(emb.calls.length, 1);
  assert.equal(emb.calls[0].length, 201);
  for (const p of probs) assert.ok(Math.abs(p.entailment + p.neutral + p.contradiction - 1) < 1e-5);
  assert.deepEqual(probs[0], probs[200]); // same pair, same answer, across the 512-pair chunk boundary
  assert.deepEqual(await nli.predict([]), []);
});

test('evidence scorer: probabilities and the stored threshold', async () => {
  const path = join(dir, 'ev.json');
  writeWeights(path, tinyHead('evidence'));
  const scorer = await loadTrainedEvidenceScorer(fakeEmbedder(), path);
  assert.equal(scorer.threshold, 0.4);
  assert.match(scorer.info.id, /^veracite-evidence-use@[0-9a-f]{12}$/);
  const s = await scorer.score([{ query: 'q', passage: 'p' }, { query: 'q', passage: 'r' }]);
  assert.equal(s.length, 2);
  assert.ok(s.every((x) => x >= 0 && x <= 1));
});

test('default weights paths resolve under the package root', () => {
  assert.equal(defaultWeightsPath('nli'), join(packageRoot(), 'models', 'nli-head.json'));
  assert.equal(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).name, 'veracite');
});
