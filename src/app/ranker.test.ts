import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LexicalPairScorer } from '../models/lexical-scorer.js';
import { LanceStore } from '../store/lancedb-store.js';
import { SettingsError } from '../util/settings-error.js';
import { loadRanker } from './ranker.js';

describe('loadRanker', () => {
  it('falls back to the engine score, saying why, when the ranker cannot be used; an asked-for ranker fails naming the setting', async () => {
    const lexical = { scorer: new LexicalPairScorer() };
    const dir = await mkdtemp(join(tmpdir(), 'vc-app-ranker-'));
    const store = await LanceStore.open(join(dir, 'idx'));
    try {
      const r = await loadRanker('default', lexical, store);
      assert.ok('reason' in r && /needs the trained engine/.test(r.reason));
      assert.ok('reason' in (await loadRanker('off', lexical, store)));
      assert.ok('reason' in (await loadRanker('default', lexical, undefined)));
      await assert.rejects(loadRanker('models/source-ranker.json', lexical, store), (e: unknown) => e instanceof SettingsError && e.setting === 'audit.ranker' && /needs the trained engine/.test(e.detail));
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
