/**
 * Calibration refuses models that cannot read NLI (issue 39), with the figure and the reason, before it
 * fits or saves anything. The models are tiny ONNX graphs built here
 * (models/testing/lexical-nli-model.ts): a constant one, a label-swapped one (the good one's graph under a
 * swapped id2label), a random tiny BERT, and a "good" lexical model fitted on the very sample pairs it is
 * then read on (in-sample by construction: it stands in for a model that reads NLI). The good model's full
 * calibration, resumed after an interruption, is in models-hub.test.ts.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { calibrateProfile } from '../src/cli/models-calibrate.js';
import { CalibrationRefusedError } from '../src/learn/verdict/sanity-gates.js';
import { importFolder } from '../src/models/hub/home.js';
import { PROFILE_FILE, VERDICT_CALIBRATION_FILE } from '../src/models/hub/profile.js';
import { buildTinyBertModel } from '../src/models/onnx/tiny-model.js';
import { buildLexicalNliModel, lexicalNliWeights, samplePairs } from '../src/models/testing/lexical-nli-model.js';

const SAMPLES = 'data/samples/calibration';
const LIMIT = { snli: 150, train: 10, dev: 6, wice: 10 };

describe('calibration sanity gates (tiny ONNX models)', () => {
  let root: string;
  let home: string;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'veracite-gates-'));
    home = join(root, 'home');
    const weights = lexicalNliWeights(await samplePairs(SAMPLES, LIMIT));
    const build = async (name: string, make: (dir: string) => Promise<unknown>) => {
      const dir = join(root, 'export', name);
      await make(dir);
      await importFolder(dir, { name, role: 'nli', home });
    };
    await build('swapped', (d) => buildLexicalNliModel(d, { kind: 'weights', weights, id2label: { 0: 'contradiction', 1: 'neutral', 2: 'entailment' } }));
    // "contradiction 0.965" for every pair, the model issue 39 saw calibrated without complaint.
    await build('constant', (d) => buildLexicalNliModel(d, { kind: 'constant', bias: [0, -0.29, 3.6], words: [...weights.hypothesis.keys()] }));
    await build('random', (d) => buildTinyBertModel(d, { task: 'classification', id2label: { 0: 'contradiction', 1: 'entailment', 2: 'neutral' }, seed: 7 }));
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  for (const [name, why] of [
    ['constant', /accuracy 0\.3\d\d \(needs >= 0\.45\): 3-way accuracy near chance \(0\.333\) on 150 held-out NLI pairs; it answered 0 entailment, 0 neutral, 150 contradiction/],
    ['swapped', /entailment ranking 0\.0\d\d \(needs >= 0\.65\): P\(entailment\) ranks contradicted pairs above entailed ones: the labels look swapped/],
    ['random', /accuracy 0\.[0-4]\d\d \(needs >= 0\.45\): 3-way accuracy near chance/],
  ] as const) {
    it(`refuses the ${name} model with the figure and the reason, saving nothing`, async () => {
      const lines: string[] = [];
      await assert.rejects(calibrateProfile({ name, home, limit: LIMIT, command: 'test', log: (l) => lines.push(l) }), (e: unknown) => {
        assert.ok(e instanceof CalibrationRefusedError, String(e));
        assert.match(e.message, why);
        assert.match(e.message, /check its config\.json id2label/);
        return true;
      });
      assert.ok(lines.some((l) => /^sanity gates: accuracy [\d.]+ FAILED/.test(l)), lines.join('\n'));
      assert.equal(existsSync(join(home, name, PROFILE_FILE)), false);
      assert.equal(existsSync(join(home, name, VERDICT_CALIBRATION_FILE)), false, 'refused before anything is fitted');
    });
  }
});
