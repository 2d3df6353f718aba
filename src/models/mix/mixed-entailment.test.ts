import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadEntailment } from '../registry.js';
import { OnnxEntailmentModel } from '../onnx/entailment.js';
import { modelLabel } from '../../provenance/model-label.js';
import { packageRoot } from '../../util/package-root.js';
import type { EntailmentModel } from '../types.js';
import { MixedEntailment } from './mixed-entailment.js';

// Real pairs from the shipped sample (data/samples/audit/sources/scifact-45638119.txt) and SNLI-like ones.
const PAIRS = [
  { premise: 'Here we show that loss of Scribble cooperates with c-myc to transform mammary epithelial cells by blocking activation of apoptosis.', hypothesis: 'Loss of Scribble cooperates with the c-myc oncogene to transform epithelial cells by blocking apoptosis.' },
  { premise: 'Here we show that loss of Scribble cooperates with c-myc to transform mammary epithelial cells by blocking activation of apoptosis.', hypothesis: 'Loss of Scribble prevents c-myc from transforming epithelial cells.' },
  { premise: 'A man is playing a guitar on stage.', hypothesis: 'Nobody is playing an instrument.' },
];

let cross: EntailmentModel;
let lite: EntailmentModel;
before(async () => {
  // The committed cross-encoder (models/verifier, MODEL_CARD.md) and the lite heads, as a mixed profile loads them.
  cross = await OnnxEntailmentModel.load(join(packageRoot(), 'models', 'verifier'), { dtype: 'q8', pairOrder: 'claim-first' });
  lite = await loadEntailment('trained');
});
after(async () => {
  await cross.dispose?.();
});

describe('MixedEntailment', () => {
  it("reads each pair as the weighted mean of both models' probabilities", async () => {
    const mix = new MixedEntailment(cross, lite, 0.5);
    const [a, b, m] = await Promise.all([cross.predict(PAIRS), lite.predict(PAIRS), mix.predict(PAIRS)]);
    assert.equal(m.length, PAIRS.length);
    m.forEach((p, i) => {
      for (const k of ['entailment', 'neutral', 'contradiction'] as const) assert.ok(Math.abs(p[k] - (0.5 * a[i]![k] + 0.5 * b[i]![k])) < 1e-9, `${i} ${k}`);
      assert.ok(Math.abs(p.entailment + p.neutral + p.contradiction - 1) < 1e-6);
    });
    // The two models differ on these pairs, so the mean is neither one alone.
    assert.ok(m.some((p, i) => Math.abs(p.entailment - a[i]!.entailment) > 0.01));
    const skewed = await new MixedEntailment(cross, lite, 0.9).predict(PAIRS);
    skewed.forEach((p, i) => assert.ok(Math.abs(p.entailment - (0.9 * a[i]!.entailment + 0.1 * b[i]!.entailment)) < 1e-9));
  });

  it("is another model to the calibration: its id and version name both members and the weight, the cross-encoder's file first", () => {
    const mix = new MixedEntailment(cross, lite, 0.5);
    assert.equal(mix.info.id, `${cross.info.id}+${lite.info.id}`);
    assert.equal(mix.info.version, `${cross.info.version}+${lite.info.version}@0.5`);
    assert.notEqual(new MixedEntailment(cross, lite, 0.4).info.version, mix.info.version);
    assert.match(modelLabel(mix.info), new RegExp(`onnx/model_quantized\\.onnx sha256 ${cross.info.version.slice(7, 19)}`));
  });

  it('refuses a weight that is one model alone', () => {
    for (const w of [0, 1, -0.2, Number.NaN]) assert.throws(() => new MixedEntailment(cross, lite, w), /between 0 and 1/);
  });
});
