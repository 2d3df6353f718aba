/**
 * The COMMITTED heads (models/*.json) with the real USE embedder, on small fixtures shipped in the repo.
 * Assertions are about clear behaviour, not exact figures (the reports in models/ hold those):
 *  - fixtures/snli-heldout.jsonl is from the held-out SNLI split (never trained on);
 *  - data/samples/nli/snli_sample.jsonl is SNLI dev, which IS training data for the head, so it only
 *    checks that the shipped weights load and behave, not how well they generalise;
 *  - fixtures/scifact-evidence.json holds SciFact DEV claims (never trained on).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createUseEmbedder } from '../use/index.js';
import type { Embedder, EntailmentProbs } from '../types.js';
import { loadTrainedEntailment, loadTrainedEvidenceScorer } from './index.js';
import { packageRoot } from '../../util/package-root.js';
import type { EvidenceFixture } from '../../learn/heads/make-fixtures.js';

const here = dirname(fileURLToPath(import.meta.url));
let embedder: Embedder | undefined;
const getEmbedder = async () => (embedder ??= await createUseEmbedder());
after(async () => embedder?.dispose?.());

type Labelled = { premise: string; hypothesis: string; label: keyof EntailmentProbs };

function readJsonl(path: string): Labelled[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Labelled);
}

async function accuracy(pairs: Labelled[]): Promise<number> {
  const nli = await loadTrainedEntailment(await getEmbedder());
  const probs = await nli.predict(pairs);
  const best = (p: EntailmentProbs) => (Object.keys(p) as (keyof EntailmentProbs)[]).reduce((a, b) => (p[b] > p[a] ? b : a));
  return pairs.filter((q, i) => best(probs[i]) === q.label).length / pairs.length;
}

test('NLI head: well above chance (1/3) on 60 held-out SNLI pairs', async () => {
  const acc = await accuracy(readJsonl(join(here, 'fixtures', 'snli-heldout.jsonl')));
  assert.ok(acc >= 0.6, `held-out accuracy ${acc}`);
});

test('NLI head: clear behaviour on 50 SNLI sample pairs (training pairs)', async (t) => {
  const path = join(packageRoot(), 'data', 'samples', 'nli', 'snli_sample.jsonl');
  if (!existsSync(path)) return t.skip('data/samples/nli/snli_sample.jsonl not present');
  const pairs = readJsonl(path).filter((p) => ['entailment', 'neutral', 'contradiction'].includes(p.label)).slice(0, 50);
  const acc = await accuracy(pairs);
  assert.ok(acc >= 0.65, `sample accuracy ${acc}`);
});

test('NLI head: obvious cases and provenance', async () => {
  const nli = await loadTrainedEntailment(await getEmbedder());
  assert.match(nli.info.id, /^veracite-nli-use@[0-9a-f]{12}$/);
  assert.equal(nli.info.backend, 'trained');
  const [neg, same] = await nli.predict([
    { premise: 'A man is playing a guitar on stage.', hypothesis: 'A man is not playing a guitar.' },
    { premise: 'A man is playing a guitar on stage.', hypothesis: 'A man is playing a guitar.' },
  ]);
  assert.ok(neg.contradiction > neg.entailment, JSON.stringify(neg));
  assert.ok(same.entailment > same.contradiction && same.entailment > same.neutral, JSON.stringify(same));
});

test('evidence scorer: the gold rationale outranks unrelated abstracts\' sentences (SciFact dev claims)', async () => {
  const fixture = JSON.parse(readFileSync(join(here, 'fixtures', 'scifact-evidence.json'), 'utf8')) as { claims: EvidenceFixture[] };
  const scorer = await loadTrainedEvidenceScorer(await getEmbedder());
  let aboveAllUnrelated = 0;
  let aboveMostInAbstract = 0;
  for (const c of fixture.claims) {
    const passages = [c.rationale, ...c.unrelated, ...c.otherSentences];
    const s = await scorer.score(passages.map((passage) => ({ query: c.claim, passage })));
    const unrelated = s.slice(1, 1 + c.unrelated.length);
    const others = s.slice(1 + c.unrelated.length);
    if (unrelated.every((u) => s[0] > u)) aboveAllUnrelated++;
    if (others.filter((o) => s[0] > o).length >= others.length / 2) aboveMostInAbstract++;
  }
  const n = fixture.claims.length;
  assert.ok(aboveAllUnrelated >= n - 1, `rationale above all unrelated sentences for ${aboveAllUnrelated}/${n} claims`);
  // Within its own abstract the task is much harder (same topic); still clearly better than a coin.
  assert.ok(aboveMostInAbstract >= n / 2, `rationale above half its abstract for ${aboveMostInAbstract}/${n} claims`);
});
