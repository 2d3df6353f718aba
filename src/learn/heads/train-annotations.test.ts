/**
 * Blind-comparison annotations become training pairs of both heads (`veracite train --annotations`), in the
 * training sets only.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadAnnotationTrainingData } from '../annotation-pairs.js';
import { withExtraTraining, type PreparedData } from './train.js';

describe('annotations as training data', () => {
  it('adds the chosen source as evidence / entailment pairs to the training sets, not to validation or dev', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-ann-train-'));
    try {
      const side = (role: 'existing' | 'suggestion', text: string) => ({ role, title: role, text, evidence: [text] });
      const record = {
        id: 'a1',
        createdAt: new Date(0).toISOString(),
        kind: 'blind-pair',
        jobId: 'job',
        citationId: 'Bodmin#3',
        claim: 'Bodmin lies on the south-western edge of Bodmin Moor.',
        context: [],
        a: side('suggestion', 'The town of Bodmin is situated at the south-western edge of Bodmin Moor.'),
        b: side('existing', 'Cornwall has a mild climate.'),
        choice: 'A',
        preferred: 'suggestion',
      };
      const file = join(dir, 'annotations.jsonl');
      await writeFile(file, JSON.stringify(record) + '\n');
      const extra = await loadAnnotationTrainingData(file);
      assert.ok(extra.nli.length >= 1 && extra.evidence.length >= 1);
      assert.ok(extra.evidence.some((p) => p.claim === record.claim && p.evidence === true && p.sentence.includes('south-western edge')));

      const empty = { nli: { snli: [], snliHeld: [], rte: [], rteDev: [], sciTrain: [], sciDev: [] }, evidence: { train: [], dev: [] } } as unknown as PreparedData;
      const data = withExtraTraining(empty, extra);
      assert.equal(data.nli.sciTrain.length, extra.nli.length);
      assert.equal(data.evidence.train.length, extra.evidence.length);
      assert.equal(data.nli.sciDev.length, 0);
      assert.equal(data.evidence.dev.length, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
