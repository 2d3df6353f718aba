import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../../models/types.js';
import { embedAllCached } from './embed-cache.js';

function embedder(offset: number): Embedder & { embedded: number } {
  const e = {
    info: { id: 'fake', version: '1', backend: 'test' },
    dimension: 4,
    embedded: 0,
    async embed(texts: string[]) {
      e.embedded += texts.length;
      return texts.map((t) => Float32Array.from([t.length, t.charCodeAt(0), 1, offset]));
    },
  };
  return e;
}

test('a warm cache returns the cold run\'s vectors without embedding again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'veracite-cache-'));
  const texts = ['b text', 'a', 'a', 'ccc'];
  const cold = embedder(0);
  const first = await embedAllCached(cold, texts, dir);
  assert.equal(first.embeddedNow, 3);
  const warm = embedder(0);
  const second = await embedAllCached(warm, texts, dir);
  assert.equal(second.embeddedNow, 0);
  assert.equal(warm.embedded, 3); // only the fingerprint probe
  assert.deepEqual([...second.vectors.entries()], [...first.vectors.entries()]);
});

test('an embedder that computes differently gets its own cache file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'veracite-cache-'));
  await embedAllCached(embedder(0), ['x', 'y'], dir);
  const changed = await embedAllCached(embedder(1e-7), ['x', 'y'], dir);
  assert.equal(changed.embeddedNow, 2);
  assert.equal(readdirSync(dir).filter((f) => f.endsWith('.bin')).length, 2);
});
