/**
 * The contrast / shuffled evaluation on the shipped SciFact sample with the offline models.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadEntailment, loadPairScorer } from '../models/registry.js';
import { Retriever } from '../retrieve/retriever.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { Verifier } from '../verify/verifier.js';
import { CONTRAST_EVAL_SEED, runContrastEval, type ContrastClaim } from './run-contrast.js';

describe('eval contrast on the SciFact sample', () => {
  let dir: string;
  let store: LanceStore;
  let claims: ContrastClaim[];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-contrast-'));
    store = await LanceStore.open(join(dir, 'index'));
    await ingestSource(store, 'data/samples/scifact/corpus.jsonl', { format: 'scifact' });
    claims = (await readFile('data/samples/scifact/claims_dev.jsonl', 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as ContrastClaim).slice(0, 25);
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('pairs each supported (claim, abstract) with a rule-made twin and scores consistency; shuffled pairs come out NOT ENOUGH INFO', async () => {
    const verifier = new Verifier(store, new Retriever(store, undefined), { scorer: await loadPairScorer('trained'), entailment: await loadEntailment('trained') });
    const docs = async (id: string) => (await store.getDocuments([id]))[0]?.sentences;
    const r = await runContrastEval(verifier, claims, docs);
    assert.equal(r.seed, CONTRAST_EVAL_SEED);
    assert.ok(r.pairs >= 5, `${r.pairs} pairs`);
    assert.equal(Object.values(r.byRule).reduce((s, x) => s + x.pairs, 0), r.pairs);
    for (const p of r.examples) {
      assert.notEqual(p.twin, p.original);
      assert.equal(p.consistent, p.originalLabel === 'SUPPORTS' && p.twinLabel !== 'SUPPORTS');
      assert.ok(claims.find((c) => c.id === p.claimId)?.evidence[p.docId]?.[0]?.label === 'SUPPORT', 'twins come from supported (claim, abstract) pairs');
    }
    assert.ok(r.consistency >= 0 && r.consistency <= r.originalSupported);
    assert.equal(r.shuffled.pairs, claims.length);
    assert.ok(r.shuffled.notEnoughInfo >= 0.8, `shuffled NOT ENOUGH INFO ${r.shuffled.notEnoughInfo}`);
    assert.match(r.note, /in-distribution/i);
    // Deterministic: the same claims and seed give the same twins.
    const again = await runContrastEval(verifier, claims, docs);
    assert.deepEqual(again.examples.map((e) => e.twin), r.examples.map((e) => e.twin));
  });
});
