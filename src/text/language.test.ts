import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { languageProblem, readLanguage } from './language.js';

const SAMPLES = join(import.meta.dirname, '..', '..', 'data', 'samples');

describe('language of claims and sources (franc with a short-text guard)', () => {
  it('the shipped English claims and abstracts read as English', async () => {
    const lines = async (f: string) => (await readFile(join(SAMPLES, f), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const claims = [...(await lines('scifact/claims_dev.jsonl')), ...(await lines('scifact/claims_train.jsonl'))].map((r) => String(r.claim));
    assert.ok(claims.length >= 200);
    const misread = claims.filter((c) => !readLanguage(c).english);
    assert.deepEqual(misread, [], 'no English sample claim is read as another language');
    const abstracts = (await lines('scifact/corpus.jsonl')).slice(0, 200).map((r) => (Array.isArray(r.abstract) ? r.abstract.join(' ') : String(r.abstract ?? '')));
    assert.deepEqual(abstracts.filter((a) => !readLanguage(a).english).length, 0);
  });

  it('claims in other languages are named', () => {
    const cases: [string, string][] = [
      ['La carence en vitamine D augmente le risque de fractures.', 'fra'],
      ["L'aspirine réduit le risque de crise cardiaque.", 'fra'],
      ['Vitamin-D-Mangel erhöht das Risiko von Knochenbrüchen.', 'deu'],
      ['La deficiencia de vitamina D aumenta el riesgo de fracturas.', 'spa'],
      ['La vitamina D riduce il rischio di fratture.', 'ita'],
      ['Витамин D снижает риск переломов у пожилых людей.', 'rus'],
    ];
    for (const [text, code] of cases) {
      const r = readLanguage(text);
      assert.equal(r.english, false, text);
      if (code !== 'rus') assert.equal(r.language, code, text);
    }
    assert.equal(readLanguage('La carence en vitamine D augmente le risque de fractures.').name, 'French');
  });

  it('short English with names, symbols or nothing to read stays English', () => {
    for (const t of ['Activation of PPM1D suppresses p53 function.', 'BLM gene encodes RecQ-class DNA helicase.', 'α β', '', '42']) assert.equal(readLanguage(t).english, true, t);
  });

  it('says which side of the pair is not English', () => {
    const fr = readLanguage('La carence en vitamine D augmente le risque de fractures.');
    const en = readLanguage('Vitamin D deficiency increases the risk of fractures in older adults.');
    assert.equal(languageProblem(fr, en), 'the claim reads as French; the models and the index read English only');
    assert.equal(languageProblem(en, en), undefined);
  });
});
