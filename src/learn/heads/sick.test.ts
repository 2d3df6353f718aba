import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CON, ENT, loadSick } from './data.js';
import { label } from './softmax-regression.js';

const HEAD = 'pair_ID\tsentence_A\tsentence_B\tentailment_label\trelatedness_score\tentailment_AB\tentailment_BA\tsentence_A_original\tsentence_B_original\tsentence_A_dataset\tsentence_B_dataset\tSemEval_set';
const row = (id: number, a: string, b: string, lab: string, set: string) => [id, a, b, lab, '4.5', '', '', a, b, 'FLICKR', 'FLICKR', set].join('\t');

describe('SICK loader (opt-in data)', () => {
  it('reads the TRAIN part of the CRLF-terminated file, labelled and marked as SICK', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-sick-'));
    const path = join(dir, 'SICK.txt');
    writeFileSync(path, [HEAD, row(1, 'A man plays.', 'A person plays.', 'ENTAILMENT', 'TRAIN'), row(2, 'A man plays.', 'Nobody plays.', 'CONTRADICTION', 'TRAIN'), row(3, 'x', 'y', 'NEUTRAL', 'TEST')].join('\r\n') + '\r\n');
    const pairs = loadSick(path);
    assert.deepEqual(pairs.map((p) => [p.hypothesis, p.y, p.source]), [['A person plays.', label(ENT), 'sick'], ['Nobody plays.', label(CON), 'sick']]);
  });
  it('names file and line of a bad label', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-sick-'));
    const path = join(dir, 'SICK.txt');
    writeFileSync(path, [HEAD, row(1, 'a', 'b', 'MAYBE', 'TRAIN')].join('\n'));
    assert.throws(() => loadSick(path), /SICK\.txt:2: entailment_label "MAYBE"/);
  });
});
