/**
 * `veracite models` as a user runs it (the real command in a child process, src/cli/entry.ts), against a
 * hub on loopback: pull a hub id with progress, verified and calibrated (on a few lines of the shipped
 * calibration samples), then list --json, info, use, remove. The hub runs in this process, so the command
 * runs asynchronously (a synchronous spawn would block the hub that serves it).
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MANIFEST_FILE } from '../src/models/hub/download.js';
import { PROFILE_FILE, repoFolder } from '../src/models/hub/profile.js';
import { LoopbackHub, type HubRepo } from '../src/models/hub/testing/loopback-hub.js';
import { buildLexicalNliModel, lexicalNliWeights, samplePairs } from '../src/models/testing/lexical-nli-model.js';
import { cliEntryArgs } from '../src/cli/testing/cli-entry.js';

const REPO = 'tiny-org/tiny-cli-nli';
const REVISION = 'fedcba9876543210fedcba9876543210fedcba98';

interface Run {
  code: number;
  out: string;
  err: string;
}

describe('veracite models (CLI, loopback hub)', () => {
  let root: string;
  let home: string;
  let samples: string;
  let hub: LoopbackHub;
  let served: HubRepo;

  const veracite = (args: string[]): Promise<Run> =>
    new Promise((done) => {
      const env: NodeJS.ProcessEnv = { ...process.env, VERACITE_MODELS_DIR: home };
      for (const k of ['HF_HUB_OFFLINE', 'TRANSFORMERS_OFFLINE', 'VERACITE_HUB_ENDPOINT', 'HF_ENDPOINT', 'HF_TOKEN']) delete env[k];
      execFile(process.execPath, [...cliEntryArgs(), ...args], { env, timeout: 300_000, maxBuffer: 32 << 20 }, (e, out, err) => {
        done({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, out, err });
      });
    });

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'veracite-models-cli-'));
    home = join(root, 'home');
    const model = join(root, 'export');
    // The shipped calibration samples' layout, a few lines of each (the figures of a random model mean nothing).
    samples = join(root, 'samples');
    const head = async (from: string, n: number) => {
      const lines = (await readFile(join('data/samples/calibration', from), 'utf8')).split('\n').filter(Boolean).slice(0, n);
      await mkdir(join(samples, from, '..'), { recursive: true });
      await writeFile(join(samples, from), lines.map((l) => l + '\n').join(''));
    };
    await head('scifact/claims_train.jsonl', 8);
    await head('scifact/claims_dev.jsonl', 5);
    await head('wice/claim_dev.jsonl', 12);
    await head('nli/snli_dev.jsonl', 60);
    const cited = new Set<string>();
    for (const f of ['claims_train.jsonl', 'claims_dev.jsonl']) {
      for (const l of (await readFile(join(samples, 'scifact', f), 'utf8')).split('\n').filter(Boolean)) for (const id of JSON.parse(l).cited_doc_ids) cited.add(String(id));
    }
    const corpus = (await readFile('data/samples/calibration/scifact/corpus.jsonl', 'utf8')).split('\n').filter((l) => l && cited.has(String(JSON.parse(l).doc_id)));
    assert.equal(corpus.length, cited.size, 'the calibration corpus holds every cited abstract');
    await writeFile(join(samples, 'scifact', 'corpus.jsonl'), corpus.map((l) => l + '\n').join(''));
    // A model that reads these samples well (fitted on them: the sanity gates refuse a random one).
    await buildLexicalNliModel(model, { kind: 'weights', weights: lexicalNliWeights(await samplePairs(samples, { snli: 60, train: 8, dev: 5 })) });
    hub = new LoopbackHub();
    served = await hub.addFolder(REPO, REVISION, model);
    await hub.start();
  });

  after(async () => {
    await hub.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('pull <hub id> --endpoint downloads with progress, says which files were verified and which only recorded, and calibrates', async () => {
    const r = await veracite(['models', 'pull', REPO, '--endpoint', hub.endpoint, '--role', 'nli', '--name', 'cli-nli', '--samples', samples, '--models-dir', home]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, new RegExp(`pulling ${REPO} from ${hub.endpoint.replace(/[.]/g, '\\.')}`));
    assert.match(r.err, /onnx\/model\.onnx: [\d.]+\/[\d.]+ MB 100% verified \(the hub's SHA-256\)/, 'progress per file');
    assert.match(r.err, /config\.json: [\d.]+\/[\d.]+ MB 100% recorded \(first seen\)/);
    assert.match(r.out, new RegExp(`cli-nli: ${REPO}@${REVISION}, 1 file verified \\(the hub's SHA-256\\), ${served.files.length - 1} files recorded \\(first seen\\)`));
    assert.match(r.err, /^estimate: about \d+ model readings/m);
    assert.match(r.err, /^sanity gates: accuracy [\d.]+ ok/m);
    assert.match(r.out, /sanity gates passed: accuracy [\d.]+ \(>= 0\.45\), entailment ranking [\d.]+ \(>= 0\.65\), contradiction ranking [\d.]+ \(>= 0\.65\), fit [\d.]+ \(min 0\.001\)/);
    assert.match(r.out, /samples read: \d+ \+ \d+ SciFact claims, 12 WiCE citations, 60 NLI pairs/);
    assert.match(r.out, /cli-nli: calibrated/);
    assert.match(r.out, /snli-sample accuracy: [\d.]+ \(n=\d+\)/);
    assert.ok(hub.requests.some((q) => q.url === `/api/models/${REPO}/revision/main?blobs=true`), 'the revision listing was read');
    assert.ok(hub.requests.some((q) => q.url.startsWith(`/${REPO}/resolve/${REVISION}/`)), 'files fetched at the pinned commit');
    const dir = join(home, 'cli-nli');
    assert.ok(existsSync(join(dir, repoFolder(REPO), MANIFEST_FILE)));
    assert.ok(existsSync(join(dir, PROFILE_FILE)));
  });

  it('models list --json names the installed, calibrated profile beside the recommended ones', async () => {
    const r = await veracite(['models', 'list', '--json']);
    assert.equal(r.code, 0, r.err);
    const list = JSON.parse(r.out) as { recommended: { name: string }[]; installed: { name: string; state: string; repo: string; revision: string; figures?: Record<string, { value: number }> }[]; active: string | null };
    assert.ok(list.recommended.some((p) => p.name === 'nli-small'));
    const p = list.installed.find((i) => i.name === 'cli-nli');
    assert.ok(p, r.out);
    assert.equal(p.state, 'calibrated');
    assert.equal(p.repo, REPO);
    assert.equal(p.revision, REVISION);
    assert.ok(Number.isFinite(p.figures?.['scifact-dev-sample verdict accuracy']?.value));
    assert.equal(list.active, null);
  });

  it('models info re-verifies the files and shows the figures; an unknown profile is an error', async () => {
    const r = await veracite(['models', 'info', 'cli-nli', '--models-dir', home]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /all files match their checksums/);
    assert.match(r.out, /onnx\/model\.onnx {2}\d+ bytes {2}sha256 [0-9a-f]{64} {2}\(hub: verified \(the hub's SHA-256\)\)/);
    assert.match(r.out, /config\.json {2}\d+ bytes {2}sha256 [0-9a-f]{64} {2}\(first-seen: recorded \(first seen\)\)/);
    const json = JSON.parse((await veracite(['models', 'info', 'cli-nli', '--json'])).out) as { problems: string[]; state: string };
    assert.deepEqual(json.problems, []);
    assert.equal(json.state, 'calibrated');
    const missing = await veracite(['models', 'info', 'no-such-profile']);
    assert.equal(missing.code, 66, 'a missing input (util/exit-codes.ts)');
    assert.match(missing.err, /veracite: profile "no-such-profile" is not installed/);
  });

  it('models use makes it the default engine; use lite (or offline) makes the lite heads the default', async () => {
    const r = await veracite(['models', 'use', 'cli-nli']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /cli-nli is the default engine/);
    assert.equal(JSON.parse((await veracite(['models', 'list', '--json'])).out).active, 'cli-nli');
    const off = await veracite(['models', 'use', 'offline']);
    assert.equal(off.code, 0, off.err);
    assert.match(off.out, /the lite engine \(Universal Sentence Encoder heads\) is the default engine/);
    assert.equal(JSON.parse((await veracite(['models', 'list', '--json'])).out).active, 'lite');
  });

  it('models remove deletes the profile and its weights', async () => {
    const r = await veracite(['models', 'remove', 'cli-nli']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /removed cli-nli/);
    assert.equal(existsSync(join(home, 'cli-nli')), false);
    const list = JSON.parse((await veracite(['models', 'list', '--json'])).out) as { installed: unknown[] };
    assert.deepEqual(list.installed, []);
    assert.match((await veracite(['models', 'remove', 'cli-nli'])).out, /cli-nli is not installed/);
  });
});
