/**
 * `veracite models` end to end without the internet: a hub on loopback (models/hub/testing/loopback-hub.ts)
 * serves a generated tiny NLI model in the hub's URL layout and headers; the tests pull it (checksums,
 * a corrupted file, an interrupted download resumed by Range, offline), calibrate it on the shipped
 * samples, and verify / check / audit with the profile. The figures a random model reaches mean nothing.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Veracite } from '../src/app/veracite.js';
import { calibrateProfile } from '../src/cli/models-calibrate.js';
import { pullProfile } from '../src/cli/command-models.js';
import type { CatalogProfile } from '../src/models/hub/catalog.js';
import { CATALOG } from '../src/models/hub/catalog.js';
import { HubChecksumError, HubError, MANIFEST_FILE } from '../src/models/hub/download.js';
import { importFolder, listInstalled, setActiveProfile } from '../src/models/hub/home.js';
import { ENGINE_PROFILE, loadBundledProfile } from '../src/models/hub/bundled.js';
import { PROFILE_FILE, READINGS_FILE, repoFolder, type ProfileFile } from '../src/models/hub/profile.js';
import { LoopbackHub, type HubRepo } from '../src/models/hub/testing/loopback-hub.js';
import { buildLexicalNliModel, lexicalNliWeights, samplePairs } from '../src/models/testing/lexical-nli-model.js';
import { SettingsError } from '../src/util/settings-error.js';

const REPO = 'tiny-org/tiny-nli';
const REVISION = '0123456789abcdef0123456789abcdef01234567';
const LIMIT = { train: 10, dev: 6, wice: 12, snli: 60 };

describe('veracite models: loopback hub', () => {
  let root: string;
  let home: string;
  let hub: LoopbackHub;
  let served: HubRepo;
  let catalog: CatalogProfile[];
  const savedEnv = { dir: process.env.VERACITE_MODELS_DIR, offline: process.env.HF_HUB_OFFLINE };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'veracite-models-'));
    home = join(root, 'home');
    process.env.VERACITE_MODELS_DIR = home;
    delete process.env.HF_HUB_OFFLINE;
    const model = join(root, 'export');
    // A model that reads the calibration samples well (fitted on them: the sanity gates refuse a random one).
    await buildLexicalNliModel(model, { kind: 'weights', weights: lexicalNliWeights(await samplePairs('data/samples/calibration', LIMIT)) });
    hub = new LoopbackHub();
    served = await hub.addFolder(REPO, REVISION, model);
    await hub.start();
    catalog = [
      {
        name: 'tiny-nli',
        role: 'nli',
        repo: REPO,
        revision: REVISION,
        dtype: 'fp32',
        files: served.files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.bytes.length })),
        licence: 'MIT',
        baseModel: 'random',
        sizeMB: 1,
        improves: 'nothing (a test model)',
        published: [],
        cost: { cpu: '-', cuda: '-' },
      },
    ];
  });

  after(async () => {
    await hub.stop();
    await rm(root, { recursive: true, force: true });
    if (savedEnv.dir === undefined) delete process.env.VERACITE_MODELS_DIR;
    else process.env.VERACITE_MODELS_DIR = savedEnv.dir;
    if (savedEnv.offline !== undefined) process.env.HF_HUB_OFFLINE = savedEnv.offline;
  });

  it('the shipped catalog pins at least three pullable profiles with revisions and checksums', () => {
    // Pinned: a commit (40 hex digits, not a branch) and every file's SHA-256.
    const pullable = CATALOG.filter((p) => !p.manual && p.files.length > 0 && /^[0-9a-f]{40}$/.test(p.revision) && p.files.every((f) => f.sha256));
    assert.ok(pullable.length >= 3, pullable.map((p) => p.name).join(','));
    assert.deepEqual(new Set(pullable.map((p) => p.role)), new Set(['nli', 'scorer', 'embedder']));
    for (const p of CATALOG) {
      assert.ok(['Apache-2.0', 'MIT'].includes(p.licence));
      for (const f of p.files) if (f.sha256) assert.match(f.sha256, /^[0-9a-f]{64}$/);
    }
  });

  it('offline never touches the network', async () => {
    const before = hub.requests.length;
    await assert.rejects(pullProfile('tiny-nli', { home, endpoint: hub.endpoint, catalog, offline: true }), (e: unknown) => e instanceof HubError && /offline/.test((e as Error).message) && /models import/.test((e as Error).message));
    process.env.HF_HUB_OFFLINE = '1';
    try {
      await assert.rejects(pullProfile('tiny-nli', { home, endpoint: hub.endpoint, catalog }), /offline/);
    } finally {
      delete process.env.HF_HUB_OFFLINE;
    }
    assert.equal(hub.requests.length, before);
  });

  it('a corrupted file is refused, deleted, and nothing is installed', async () => {
    hub.corrupt.add('onnx/model.onnx');
    try {
      await assert.rejects(pullProfile('tiny-nli', { home, endpoint: hub.endpoint, catalog }), (e: unknown) => {
        assert.ok(e instanceof HubChecksumError, String(e));
        assert.match((e as Error).message, /onnx\/model\.onnx: SHA-256 [0-9a-f]{64} does not match the pinned [0-9a-f]{64}/);
        return true;
      });
    } finally {
      hub.corrupt.clear();
    }
    const dir = join(home, 'tiny-nli', repoFolder(REPO));
    assert.equal(existsSync(join(dir, 'onnx', 'model.onnx')), false);
    assert.equal(existsSync(join(dir, 'onnx', 'model.onnx.part')), false);
    assert.equal(existsSync(join(dir, MANIFEST_FILE)), false);
    assert.equal((await listInstalled(home)).find((p) => p.name === 'tiny-nli')?.state, 'partial');
    // A half-downloaded model is never used.
    await assert.rejects(Veracite.open({ index: { dir: null }, models: { profile: 'tiny-nli' } }), (e: unknown) => e instanceof SettingsError && /no calibration|incomplete/.test(e.message));
  });

  it('an interrupted download resumes with a Range request and is verified', async () => {
    const onnx = served.files.find((f) => f.path === 'onnx/model.onnx')!;
    hub.cutOnce.set('onnx/model.onnx', Math.floor(onnx.bytes.length / 3));
    await assert.rejects(pullProfile('tiny-nli', { home, endpoint: hub.endpoint, catalog }), (e: unknown) => e instanceof HubError && /interrupted|resume/.test((e as Error).message));
    const dir = join(home, 'tiny-nli', repoFolder(REPO));
    assert.ok(existsSync(join(dir, 'onnx', 'model.onnx.part')), 'the partial file is kept');
    assert.equal(existsSync(join(dir, MANIFEST_FILE)), false);
    const progress: { resumedFrom?: number }[] = [];
    const r = await pullProfile('tiny-nli', { home, endpoint: hub.endpoint, catalog, onProgress: (p) => progress.push(p) });
    assert.equal(r.revision, REVISION);
    assert.ok(hub.requests.some((q) => q.host === 'cdn' && q.url.startsWith('/cdn/') && q.range), 'resumed with a Range header, at the CDN');
    assert.ok(progress.some((p) => p.resumedFrom && p.resumedFrom > 0));
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8'));
    assert.equal(manifest.files.find((f: { path: string }) => f.path === 'onnx/model.onnx').sha256, onnx.sha256);
    assert.ok(manifest.files.every((f: { verifiedBy: string }) => f.verifiedBy === 'pinned'));
    assert.equal((await listInstalled(home)).find((p) => p.name === 'tiny-nli')?.state, 'installed');
  });

  it('an uncalibrated model is refused for verdicts, with the command that calibrates it', async () => {
    await assert.rejects(Veracite.open({ index: { dir: null }, models: { profile: 'tiny-nli' } }), (e: unknown) => e instanceof SettingsError && /veracite models calibrate tiny-nli/.test(e.message));
    const folder = join(home, 'tiny-nli', repoFolder(REPO));
    const vc = await Veracite.open({ index: { dir: 'memory:' }, models: { nli: folder }, retrieval: { mode: 'bm25' } }, { create: true });
    try {
      await assert.rejects(vc.verify('Vitamin D prevents fractures.'), (e: unknown) => e instanceof SettingsError && e.setting === 'models.nli' && /no calibration/.test(e.message));
    } finally {
      await vc.close();
    }
  });

  it('a recommended profile pinned by checksums at a branch pulls the commit the branch is at, and records it', async () => {
    const atBranch = [{ ...catalog[0]!, name: 'tiny-nli-main', revision: 'main', files: catalog[0]!.files.map((f, i) => (i === 0 ? { ...f, sha256: null } : f)) }];
    const r = await pullProfile('tiny-nli-main', { home, endpoint: hub.endpoint, catalog: atBranch });
    assert.equal(r.revision, REVISION);
    assert.ok(hub.requests.some((q) => q.url === `/api/models/${REPO}/revision/main?blobs=true`), 'the branch was resolved through the revision listing');
    const manifest = JSON.parse(await readFile(join(home, 'tiny-nli-main', repoFolder(REPO), MANIFEST_FILE), 'utf8'));
    assert.equal(manifest.revision, REVISION);
    assert.equal(manifest.files[0].verifiedBy, 'first-seen', 'a small file without a pinned checksum is recorded, not verified');
    assert.ok(manifest.files.slice(1).every((f: { verifiedBy: string }) => f.verifiedBy === 'pinned'));
    assert.equal(r.checked.pinned, manifest.files.length - 1);
    assert.equal(r.checked['first-seen'], 1);
  });

  it('an LFS file with no pinned checksum is verified against the X-Linked-Etag of the redirect, not the CDN\'s ETag', async () => {
    const unpinned = [{ ...catalog[0]!, name: 'tiny-nli-etag', files: catalog[0]!.files.map((f) => ({ path: f.path, sha256: null })) }];
    const done: { file: string; verifiedBy?: string }[] = [];
    const r = await pullProfile('tiny-nli-etag', { home, endpoint: hub.endpoint, catalog: unpinned, onProgress: (p) => p.done && done.push(p) });
    assert.equal(done.find((p) => p.file === 'onnx/model.onnx')?.verifiedBy, 'etag');
    assert.equal(done.find((p) => p.file === 'config.json')?.verifiedBy, 'first-seen');
    assert.equal(r.checked.etag, 1);
    assert.equal(r.checked['first-seen'], served.files.length - 1);
    // The CDN serves it from another host, and its ETag is its own: a corrupted copy is caught by the
    // hash on the redirect.
    hub.corrupt.add('onnx/model.onnx');
    try {
      await rm(join(home, 'tiny-nli-etag'), { recursive: true, force: true });
      await assert.rejects(pullProfile('tiny-nli-etag', { home, endpoint: hub.endpoint, catalog: unpinned }), (e: unknown) => e instanceof HubChecksumError && /the hub's ETag/.test((e as Error).message));
    } finally {
      hub.corrupt.clear();
    }
  });

  it('a hub id is pulled from the listing (?blobs=true): LFS files verified by the hub\'s SHA-256, the others recorded (first seen); the token stays on the hub', async () => {
    const done: { file: string; verifiedBy?: string }[] = [];
    const r = await pullProfile(REPO, { home, endpoint: hub.endpoint, role: 'nli', name: 'by-id', token: 'hf_test', onProgress: (p) => p.done && done.push(p) });
    assert.equal(r.revision, REVISION);
    assert.ok(hub.requests.some((q) => q.url === `/api/models/${REPO}/revision/main?blobs=true`), 'the listing was asked with ?blobs=true');
    const manifest = JSON.parse(await readFile(join(r.dir, repoFolder(REPO), MANIFEST_FILE), 'utf8'));
    assert.equal(manifest.files.find((f: { path: string }) => f.path === 'onnx/model.onnx').verifiedBy, 'hub');
    assert.equal(manifest.files.find((f: { path: string }) => f.path === 'config.json').verifiedBy, 'first-seen');
    assert.deepEqual(r.checked, { pinned: 0, hub: 1, etag: 0, 'first-seen': served.files.length - 1 });
    assert.equal(done.find((p) => p.file === 'config.json')?.verifiedBy, 'first-seen');
    assert.ok(hub.requests.some((q) => q.host === 'hub' && q.authorization));
    assert.ok(!hub.requests.some((q) => q.host === 'cdn' && q.authorization), 'the hub token is not sent to the CDN host');
  });

  it('a complete file of the wrong size is a checksum error: deleted, with what to do; the next pull starts over', async () => {
    const sized = [{ ...catalog[0]!, name: 'tiny-nli-size' }];
    hub.wrongSize.set('onnx/model.onnx', 100);
    try {
      await assert.rejects(pullProfile('tiny-nli-size', { home, endpoint: hub.endpoint, catalog: sized }), (e: unknown) => {
        assert.ok(e instanceof HubChecksumError, String(e));
        assert.match((e as Error).message, /onnx\/model\.onnx: the server sent a complete file of \d+ bytes, the profile pins \d+; SHA-256 [0-9a-f]{64} does not match .* the file was deleted .* Pull again/);
        return true;
      });
      const part = join(home, 'tiny-nli-size', repoFolder(REPO), 'onnx', 'model.onnx.part');
      assert.equal(existsSync(part), false);
      // Pulled again against the same wrong file: the same error, never a Range request past its end.
      const before = hub.requests.length;
      await assert.rejects(pullProfile('tiny-nli-size', { home, endpoint: hub.endpoint, catalog: sized }), HubChecksumError);
      assert.ok(!hub.requests.slice(before).some((q) => q.range), 'no resume of a complete file');
    } finally {
      hub.wrongSize.clear();
    }
    const r = await pullProfile('tiny-nli-size', { home, endpoint: hub.endpoint, catalog: sized });
    assert.equal(r.checked.pinned, served.files.length);
  });

  it('an interrupted calibration keeps its readings; run again, it resumes, passes the sanity gates and records them', async () => {
    const stop = new Error('interrupted');
    await assert.rejects(
      calibrateProfile({ name: 'tiny-nli', home, limit: LIMIT, command: 'test', log: (l) => { if (l.startsWith('indexing the SciFact')) throw stop; } }),
      (e: unknown) => e === stop,
    );
    assert.equal(existsSync(join(home, 'tiny-nli', PROFILE_FILE)), false);
    const kept = (await readFile(join(home, 'tiny-nli', READINGS_FILE), 'utf8')).split('\n').filter(Boolean).length - 1;
    assert.ok(kept >= 60, `the NLI sample's readings are on file (${kept})`);
    const lines: string[] = [];
    const profile = await calibrateProfile({ name: 'tiny-nli', home, limit: LIMIT, command: 'test', log: (l) => lines.push(l) });
    assert.match(lines[0]!, new RegExp(`^estimate: about \\d+ model readings \\(60 NLI sample pairs, 10 \\+ 6 SciFact claims x ~\\d+, 12 WiCE citations x ~\\d+\\), ${kept} already read \\(resuming\\) x [\\d.]+ ms per pair = \\d+ s of model time`));
    const [, computed, hits] = /^model readings: (\d+) read by the model .*, (\d+) from /.exec(lines.find((l) => l.startsWith('model readings: '))!)!;
    assert.ok(Number(hits) >= kept && Number(computed) > 0, `readings on file are not read again (${computed} read, ${hits} from the file)`);
    assert.ok(lines.some((l) => /SciFact train sample: (\d+)\/\1 cases \| [\d.]+ cases\/s \| ETA 0s/.test(l)), lines.join('\n'));
    assert.equal(profile.gates?.passed, true, JSON.stringify(profile.gates));
    assert.deepEqual(profile.gates!.checks.map((c) => c.name), ['accuracy', 'entailment ranking', 'contradiction ranking', 'fit']);
    assert.deepEqual(profile.samples, { quick: false, snli: 60, train: 10, dev: 6, wice: 12 });
  });

  it('calibrates on the shipped samples, then verify, check and audit name the profile and its hash', async () => {
    // Calibrated by the test above.
    const profile = JSON.parse(await readFile(join(home, 'tiny-nli', PROFILE_FILE), 'utf8')) as ProfileFile;
    assert.equal(profile.role, 'nli');
    assert.ok(profile.calibration.verdict && profile.calibration.audit, JSON.stringify(profile.calibration));
    for (const k of ['scifact-dev-sample verdict accuracy', 'snli-sample accuracy', 'wice-dev-sample not_supported ROC AUC (in sample)']) {
      assert.ok(Number.isFinite(profile.figures[k]?.value), k);
    }
    assert.ok(existsSync(join(home, 'tiny-nli', PROFILE_FILE)));

    const vc = await Veracite.open({ index: { dir: 'memory:' }, models: { profile: 'tiny-nli' }, retrieval: { mode: 'bm25' } }, { create: true });
    try {
      assert.equal(vc.models.profile?.name, 'tiny-nli');
      // The profile's ONNX model runs in a worker thread, off the event loop (models/onnx/threaded.ts).
      assert.equal((await vc.models.entailment() as { inWorker?: boolean }).inWorker, true);
      await vc.ingest('data/samples/scifact/corpus.jsonl');
      const verdict = await vc.verify('Vitamin D deficiency increases the risk of fractures.');
      const p = verdict.provenance.config.profile as { name: string; hash: string };
      assert.equal(p.name, 'tiny-nli');
      assert.match(p.hash, /^[0-9a-f]{16}$/);
      assert.equal(verdict.provenance.config.calibrated, true, 'the profile\'s verdict calibration applies');
      assert.ok(verdict.provenance.models.some((m) => m.id === repoFolder(REPO)));

      const checked = await vc.check({ claim: 'Smoking causes lung cancer.', source: { text: 'Smoking is the main cause of lung cancer. Most cases are in smokers.' }, suggestions: 0 });
      assert.ok(checked.provenance.models.some((m) => m.id === 'profile:tiny-nli' && m.version === `sha256:${p.hash}`), JSON.stringify(checked.provenance.models));
      assert.ok(checked.audit.verification?.support !== undefined, 'the profile\'s probability of support');
      const flagging = checked.provenance.flagging as { source?: string };
      assert.match(String(flagging.source), /audit-calibration\.json/, JSON.stringify(flagging));
    } finally {
      await vc.close();
    }
  });

  it('models use makes the profile the default engine; offline goes back', async () => {
    await setActiveProfile('tiny-nli', { home });
    const vc = await Veracite.open({ index: { dir: null } });
    try {
      assert.equal(vc.models.profile?.name, 'tiny-nli');
      // The audit names the engine that judges: the profile and its hash are among its models.
      const pipeline = await vc.auditPipeline();
      assert.ok(pipeline.deps.models?.some((m) => m.id === 'profile:tiny-nli'));
      assert.equal(pipeline.deps.flag && 'source' in pipeline.deps.flag && /audit-calibration/.test(pipeline.deps.flag.source), true);
    } finally {
      await vc.close();
    }
    for (const lite of ['lite', 'offline']) {
      const off = await Veracite.open({ index: { dir: null }, models: { profile: lite } });
      assert.equal(off.models.profile, undefined, lite);
      await off.close();
    }
    // No active profile: the package's shipped engine when its profile makes it the default, else the lite heads.
    await setActiveProfile(null, { home });
    const none = await Veracite.open({ index: { dir: null } });
    const shipped = await loadBundledProfile();
    assert.equal(none.models.profile?.name, shipped?.file.default ? ENGINE_PROFILE : undefined);
    await none.close();
    // 'lite' made active stays the default.
    await setActiveProfile('lite', { home });
    const lite = await Veracite.open({ index: { dir: null } });
    assert.equal(lite.models.profile, undefined);
    await lite.close();
    await setActiveProfile(null, { home });
  });

  it('an air-gapped machine imports the pulled folder; a changed file is refused', async () => {
    const other = join(root, 'other-home');
    const copy = join(root, 'usb', 'tiny-nli');
    await cp(join(home, 'tiny-nli'), copy, { recursive: true });
    const p = await importFolder(copy, { home: other });
    assert.equal(p.state, 'calibrated');
    const bad = join(root, 'usb-bad', 'tiny-nli');
    await cp(copy, bad, { recursive: true });
    await writeFile(join(bad, repoFolder(REPO), 'config.json'), '{"model_type":"bert"}');
    await assert.rejects(importFolder(bad, { home: join(root, 'third-home') }), (e: unknown) => e instanceof HubChecksumError && /config\.json/.test((e as Error).message));
    assert.equal(existsSync(join(root, 'third-home', 'tiny-nli')), false);
  });
});
