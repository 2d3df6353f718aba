/**
 * The shipped verification engine (issue 43): `veracite check`, started as its own process, judges with the
 * committed ONNX cross-encoder when it is named (and by default once its profile says "default": true), says so by the weights file and the first 12 hex digits of its
 * SHA-256, and carries the same in its JSON provenance; `--profile lite` judges with the lite heads and names
 * no cross-encoder. The profile points at the committed model folder and its weights are the ones it was
 * calibrated with (a changed file would be refused).
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { assertSettled, runCliProcess } from '../src/cli/testing/run-cli-process.js';
import { bundledProfileDir, hasBundledProfile, loadBundledProfile } from '../src/models/hub/bundled.js';
import { onnxFileFor } from '../src/models/onnx/resolve.js';
import { packageRoot } from '../src/util/package-root.js';

const CLAIM = 'Loss of Scribble cooperates with the c-myc oncogene to transform epithelial cells by blocking apoptosis.';
const SOURCE = 'data/samples/audit/sources/scifact-45638119.txt';

async function weights(): Promise<{ file: string; sha: string }> {
  const profile = await loadBundledProfile();
  assert.ok(profile, `no shipped engine in ${bundledProfileDir()}`);
  const file = onnxFileFor(profile.file.dtype);
  const sha = createHash('sha256').update(await readFile(join(profile.modelDir, file))).digest('hex');
  assert.equal(profile.file.modelInfo.version, `sha256:${sha.slice(0, 16)}`, 'the committed weights are the ones the profile was calibrated with');
  return { file, sha };
}

// A checkout without the shipped engine (models/engine) has only the lite heads: nothing to check here then.
describe('the shipped engine (veracite check in its own process)', { skip: !hasBundledProfile() && `no shipped engine in ${bundledProfileDir()}` }, () => {
  it('check names the cross-encoder by its weights file and the first 12 hex digits of its SHA-256', async () => {
    const { file, sha } = await weights();
    // The shipped engine named (it is also the default when its profile says so: "default": true).
    const r = await runCliProcess(['check', CLAIM, '--source', SOURCE, '--no-index', '--profile', 'verifier']);
    assertSettled(r);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`models [^\\n]*profile:verifier, verifier \\(${file.replace(/\./g, '\\.')} sha256 ${sha.slice(0, 12)}\\)`));
    const j = await runCliProcess(['check', CLAIM, '--source', SOURCE, '--no-index', '--json', '--profile', 'verifier']);
    assertSettled(j);
    const out = JSON.parse(j.stdout) as { audit: { decision?: { band: string } }; provenance: { models: { id: string; version: string; file?: string; backend: string }[]; flagging: { bands?: Record<string, number> } } };
    const engine = out.provenance.models.find((m) => m.id === 'verifier');
    assert.deepEqual(engine && { id: engine.id, version: engine.version, file: engine.file }, { id: 'verifier', version: `sha256:${sha.slice(0, 16)}`, file });
    assert.ok(out.provenance.models.some((m) => m.id === 'profile:verifier'));
    assert.ok(out.audit.decision, 'the one decision');
    // The thresholds the decision used are the engine's own (fitted on its probabilities), and say so.
    const profile = (await loadBundledProfile())!;
    if (profile.file.bands) assert.equal(out.provenance.flagging.bands?.supportedFrom, profile.file.bands.supportedFrom);
  });

  it('without --profile, check judges with the default engine: the shipped one when its profile says "default": true, else the lite heads', async () => {
    const profile = (await loadBundledProfile())!;
    const r = await runCliProcess(['check', CLAIM, '--source', SOURCE, '--no-index']);
    assertSettled(r);
    assert.equal(r.code, 0, r.stderr);
    if (profile.file.default) assert.match(r.stdout, /profile:verifier, verifier \(onnx/);
    else assert.doesNotMatch(r.stdout, /profile:verifier/);
  });

  it('models info verifier describes the shipped engine: its weights checked, its calibration files, and which figures are in sample for it', async () => {
    const { file, sha } = await weights();
    const r = await runCliProcess(['models', 'info', 'verifier']);
    assertSettled(r);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`${file.replace(/\./g, '\\.')} sha256 ${sha} \\(the weights it was calibrated with\\)`));
    assert.match(r.stdout, /verdict: verdict-calibration\.json sha256 [0-9a-f]{64} \(checked\)/);
    // A figure read on the model's own training data says so; SciFact dev was never trained on.
    assert.match(r.stdout, /scifact-train-sample [^\n]*trained on \d+ of these \d+ claims[^\n]*in sample/);
    assert.match(r.stdout, /scifact-dev-sample [^\n]*trained on none of these claims/);
  });

  it('--profile lite judges with the lite heads and names no cross-encoder', async () => {
    const r = await runCliProcess(['check', CLAIM, '--source', SOURCE, '--no-index', '--profile', 'lite']);
    assertSettled(r);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /profile:verifier|verifier \(onnx/);
    assert.match(r.stdout, /veracite-nli-use|veracite-evidence-use/);
  });
});

// The shipped engine's needs-review model (models/engine/verdict-review.json, calibration.review in its profile):
// fitted on its own decisions by `veracite tune-verdict --domains --profile verifier`, held out by domain
// (docs/RESULTS.md, "Issue 43 (stop 52)"). Two citations of the sample audit, checked on their own.
describe('the shipped engine marks what it is unsure of for review (its own needs-review model)', { skip: !hasBundledProfile() && `no shipped engine in ${bundledProfileDir()}` }, () => {
  const UNSURE = ['Depletion of the polarity protein Scribble in mammary epithelia induces dysplasia that progresses to tumours after a long latency.', 'data/samples/audit/sources/scifact-8774475.txt'] as const;
  const SURE = ['Women who weighed more at birth have a somewhat higher risk of breast cancer in adulthood.', 'data/samples/audit/sources/scifact-23557241.txt'] as const;
  type Checked = { audit: { verification: { review?: { reason: string; pRight: number; level: number } }; decision?: { band: string } } };
  const check = async ([claim, source]: readonly [string, string], env: NodeJS.ProcessEnv = {}): Promise<Checked> => {
    const r = await runCliProcess(['check', claim, '--source', source, '--no-index', '--json', '--profile', 'verifier'], { env });
    assertSettled(r);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Checked;
  };

  it('an uncertain reading carries its P(right) below the level; a sure one none; without the model, none', async () => {
    const profile = (await loadBundledProfile())!;
    assert.ok(profile.reviewModel, 'the shipped profile records its needs-review model');
    const unsure = await check(UNSURE);
    assert.equal(unsure.audit.verification.review?.reason, 'uncertain');
    assert.ok(unsure.audit.verification.review!.pRight < unsure.audit.verification.review!.level);
    // The review is a note beside the one decision, not another label.
    assert.equal(unsure.audit.decision?.band, 'supported');
    assert.equal((await check(SURE)).audit.verification.review, undefined);
    // The same profile without its needs-review model marks nothing: the mark comes from that file.
    const work = await mkdtemp(join(tmpdir(), 'veracite-noreview-'));
    try {
      const file = JSON.parse(await readFile(join(bundledProfileDir(), 'veracite-profile.json'), 'utf8')) as { calibration: Record<string, unknown> };
      for (const f of ['verdict-calibration.json', 'audit-calibration.json']) await writeFile(join(work, f), await readFile(join(bundledProfileDir(), f)));
      const { review: _dropped, ...calibration } = file.calibration;
      await writeFile(join(work, 'veracite-profile.json'), JSON.stringify({ ...file, calibration, model: relative(work, join(packageRoot(), 'models', 'verifier')) }, null, 2));
      assert.equal((await check(UNSURE, { VERACITE_ENGINE_DIR: work })).audit.verification.review, undefined);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

// A mixed engine (models/mix/mixed-entailment.ts): the cross-encoder read with the lite heads, calibrated on the
// mixture's own readings by scripts/learn/calibrate-engine.ts --mix (here on the first few items of each calibration
// sample, a dry run of the flow: seconds, not the 7 minutes of the full one), then used through the one decision.
describe('a mixed engine (calibrate-engine.ts --mix, then veracite check in its own process)', { skip: !hasBundledProfile() && `no shipped engine in ${bundledProfileDir()}` }, () => {
  it('is calibrated on the mixture, named with both members and the cross-encoder\'s file, and refused when its weight changes', async () => {
    const { sha } = await weights();
    const work = await mkdtemp(join(tmpdir(), 'veracite-mix-'));
    try {
      const out = join(work, 'engine');
      const env = { ...process.env, HOME: work };
      await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/learn/calibrate-engine.ts', '--model', 'models/verifier', '--dtype', 'q8', '--mix', 'trained:0.5', '--limit', '10,6,12,60', '--work', join(work, 'cal'), '--out', out], { cwd: packageRoot(), env, maxBuffer: 32 << 20 });
      const profile = JSON.parse(await readFile(join(out, 'veracite-profile.json'), 'utf8')) as { mix?: { nli: string; weight: number }; modelInfo: { id: string; version: string } };
      assert.deepEqual(profile.mix, { nli: 'trained', weight: 0.5 });
      assert.match(profile.modelInfo.version, new RegExp(`^sha256:${sha.slice(0, 16)}\\+sha256:[0-9a-f]{16}@0\\.5$`));
      const run = (extra: NodeJS.ProcessEnv) => runCliProcess(['check', CLAIM, '--source', SOURCE, '--no-index', '--json', '--profile', 'verifier'], { env: { HOME: work, VERACITE_ENGINE_DIR: out, ...extra } });
      const r = await run({});
      assertSettled(r);
      assert.equal(r.code, 0, r.stderr);
      const j = JSON.parse(r.stdout) as { audit: { decision?: { band: string } }; provenance: { models: { id: string; version: string; file?: string; backend: string }[] } };
      const engine = j.provenance.models.find((m) => m.backend === 'mix');
      assert.ok(engine, JSON.stringify(j.provenance.models));
      assert.deepEqual({ id: engine.id, version: engine.version, file: engine.file }, { id: profile.modelInfo.id, version: profile.modelInfo.version, file: 'onnx/model_quantized.onnx' });
      assert.ok(j.audit.decision, 'the one decision');
      const text = await runCliProcess(['check', CLAIM, '--source', SOURCE, '--no-index', '--profile', 'verifier'], { env: { HOME: work, VERACITE_ENGINE_DIR: out } });
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, new RegExp(`verifier\\+veracite-nli-use@[0-9a-f]{12} \\(onnx/model_quantized\\.onnx sha256 ${sha.slice(0, 12)}\\)`));
      // Another weight is another model: the calibration does not hold for it.
      await writeFile(join(out, 'veracite-profile.json'), JSON.stringify({ ...profile, mix: { nli: 'trained', weight: 0.4 } }, null, 2));
      const refused = await run({});
      assertSettled(refused);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /not the ones it was calibrated with/);
      // What to do: the command that made this profile, again (not `veracite models`, which does not install it).
      assert.match(refused.stderr, /calibrate-engine\.ts --model models\/verifier --dtype q8 --mix trained:0\.5 --limit 10,6,12,60 --out /);
      assert.doesNotMatch(refused.stderr, /veracite models calibrate/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

// An engine's own evidence size (ProfileFile.scoring): calibrate-engine.ts --evidence-k fits the audit calibration
// with it and records it in the profile; check, in its own process, then reads that many sentences, and its
// provenance and flag rule say so. A profile whose evidence size was changed after calibration keeps no flags.
describe('an engine with its own evidence size (calibrate-engine.ts --evidence-k, then veracite check)', { skip: !hasBundledProfile() && `no shipped engine in ${bundledProfileDir()}` }, () => {
  it('reads that many evidence sentences, flags with the calibration fitted for it, and none once it is edited', async () => {
    const work = await mkdtemp(join(tmpdir(), 'veracite-evk-'));
    try {
      const out = join(work, 'engine');
      const env = { ...process.env, HOME: work };
      await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/learn/calibrate-engine.ts', '--model', 'models/verifier', '--dtype', 'q8', '--evidence-k', '5', '--evidence-k-chosen-by', 'a test', '--limit', '10,6,12,60', '--work', join(work, 'cal'), '--out', out], { cwd: packageRoot(), env, maxBuffer: 32 << 20 });
      const profile = JSON.parse(await readFile(join(out, 'veracite-profile.json'), 'utf8')) as { scoring?: { evidenceK: number; chosenBy?: string }; calibratedOn: { command: string; data: string[] } };
      assert.deepEqual(profile.scoring, { evidenceK: 5, chosenBy: 'a test' });
      assert.match(profile.calibratedOn.command, / --evidence-k 5\b/);
      // The shipped profile names the package's samples, not this machine's folders.
      assert.ok(profile.calibratedOn.data.every((d) => d.startsWith('data/samples/calibration/')), profile.calibratedOn.data.join(', '));
      const audit = JSON.parse(await readFile(join(out, 'audit-calibration.json'), 'utf8')) as { scoring: { evidenceK: number }; data: { path: string } };
      assert.equal(audit.scoring.evidenceK, 5);
      assert.equal(audit.data.path, 'data/samples/calibration/wice/claim_dev.jsonl');
      type Check = { audit: { verification: { evidence: unknown[] } }; provenance: { config: { scoring: { evidenceK: number } }; flagging: { threshold?: number; disabledReason?: string } } };
      const run = async () => {
        const r = await runCliProcess(['check', CLAIM, '--source', SOURCE, '--no-index', '--json', '--profile', 'verifier'], { env: { HOME: work, VERACITE_ENGINE_DIR: out } });
        assertSettled(r);
        assert.equal(r.code, 0, r.stderr);
        return JSON.parse(r.stdout) as Check;
      };
      const j = await run();
      assert.equal(j.audit.verification.evidence.length, 5, 'five best sentences read (the source has more)');
      assert.equal(j.provenance.config.scoring.evidenceK, 5);
      assert.equal(typeof j.provenance.flagging.threshold, 'number', JSON.stringify(j.provenance.flagging));
      // Edited afterwards: the audit calibration was not fitted for 4 sentences, so no flags, and it says why.
      await writeFile(join(out, 'veracite-profile.json'), JSON.stringify({ ...profile, scoring: { evidenceK: 4 } }, null, 2));
      const edited = await run();
      assert.equal(edited.audit.verification.evidence.length, 4);
      assert.equal(edited.provenance.flagging.threshold, undefined);
      assert.match(String(edited.provenance.flagging.disabledReason), /other settings/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
