import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../../util/package-root.js';
import { loadProfile, PROFILE_FILE, ProfileError, recalibrateAdvice, REVIEW_FILE, writeProfileCalibration, type ProfileFile } from './profile.js';

// A copy of the shipped engine's profile folder (models/engine), its model folder pointing back at models/verifier.
let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'veracite-profile-'));
  await cp(join(packageRoot(), 'models', 'engine'), dir, { recursive: true });
  const file = JSON.parse(await readFile(join(dir, PROFILE_FILE), 'utf8')) as ProfileFile;
  await writeFile(join(dir, PROFILE_FILE), JSON.stringify({ ...file, model: relative(dir, join(packageRoot(), 'models', 'verifier')) }, null, 2));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a profile\'s needs-review model (calibration.review)', () => {
  it('is written beside the calibration, recorded by SHA-256 and loaded with the profile', async () => {
    const before = await loadProfile(dir, 'verifier', { bundled: true });
    const text = JSON.stringify({ features: ['confidence', 'agreement', 'sideMax', 'nei'], weights: [2, -0.2, 3.5, 0.2], bias: -3, level: 0.6, fittedOn: { source: 'test', decisions: 1 } }) + '\n';
    const path = await writeProfileCalibration(dir, 'review', text);
    assert.equal(path, join(dir, REVIEW_FILE));
    const loaded = await loadProfile(dir, 'verifier', { bundled: true });
    assert.equal(loaded.reviewModel, path);
    assert.equal(loaded.file.calibration.review?.file, REVIEW_FILE);
    // The verdict and audit calibrations are kept as they were; the profile is another one (its hash names it).
    assert.deepEqual({ verdict: loaded.file.calibration.verdict, audit: loaded.file.calibration.audit }, { verdict: before.file.calibration.verdict, audit: before.file.calibration.audit });
    assert.notEqual(loaded.hash, before.hash);
  });

  it('a changed review file is refused, saying what to do for the shipped engine', async () => {
    await writeFile(join(dir, REVIEW_FILE), '{"changed": true}\n');
    await assert.rejects(loadProfile(dir, 'verifier', { bundled: true }), (e: unknown) => e instanceof ProfileError && /verdict-review\.json is changed since calibration/.test((e as Error).message) && /calibrate-engine\.ts/.test((e as Error).message));
    // A pulled profile is calibrated again by veracite models.
    assert.equal(recalibrateAdvice({ name: 'tiny', dir }), 'run veracite models calibrate tiny');
  });
});
