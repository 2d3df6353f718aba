/**
 * Cold start (issue 27): with an empty model cache the server loads every model, the word vectors
 * included, before it listens, building the word-vector cache in a worker thread; once it listens, health
 * and the first verify answer without any conversion on the event loop. A tiny word-vector JSON
 * (VERACITE_WORD_VECTORS) keeps the conversion short; the full one is measured by bench/bench-cold-start.ts.
 * This file runs in its own process (node --test runs each file apart), so the process-wide vectors are its own.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import { wordVectorCachePath, wordVectorsLoaded, WordVectors } from '../models/align/word-vectors.js';
import type { RunningServer } from './start.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from './testing/harness.js';

const saved = { cache: process.env['VERACITE_CACHE_DIR'], source: process.env['VERACITE_WORD_VECTORS'] };
let dir: string;
let ix: TestIndex;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'veracite-cold-'));
  const vectors = { aldh1: [1, 0, 0], expression: [0, 1, 0], prognosis: [0, 0.9, 0.1], poorer: [0.2, 0.1, 1] };
  writeFileSync(join(dir, 'vectors.json'), JSON.stringify({ dimensions: 3, words: Object.keys(vectors), vectors }));
  process.env['VERACITE_CACHE_DIR'] = join(dir, 'empty-cache');
  process.env['VERACITE_WORD_VECTORS'] = join(dir, 'vectors.json');
  ix = await makeTestIndex();
});
after(async () => {
  await ix.cleanup();
  for (const [k, v] of [['VERACITE_CACHE_DIR', saved.cache], ['VERACITE_WORD_VECTORS', saved.source]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('cold start with an empty model cache', () => {
  let server: RunningServer;
  const sync = mock.method(WordVectors, 'convertPackage', () => {
    throw new Error('word vectors converted on the server thread');
  });
  after(async () => {
    sync.mock.restore();
    await server?.close();
  });

  it('loads the word vectors before listening, converting them off the event loop', async () => {
    assert.equal(existsSync(wordVectorCachePath()), false);
    assert.equal(wordVectorsLoaded(), false);
    server = await startTestServer(ix.index, fakeModels(), { dataDir: join(dir, 'server') });
    // startServer's last step is listen(): everything before it has run.
    assert.equal(wordVectorsLoaded(), true, 'the word vectors were loaded before the server listened');
    assert.ok(existsSync(wordVectorCachePath()), 'the cache was built');
    assert.equal(sync.mock.callCount(), 0, 'never converted on the server thread');
  });

  it('answers health and the first verify at once, with no conversion on the event loop', async () => {
    const health = await fetch(`${server.url}/v1/health`);
    assert.equal(health.status, 200);
    const res = await postJson(`${server.url}/v1/verify`, { claim: 'ALDH1 expression is associated with poorer prognosis in breast cancer.' });
    assert.equal(res.status, 200, await res.text());
    assert.equal(sync.mock.callCount(), 0);
  });
});
