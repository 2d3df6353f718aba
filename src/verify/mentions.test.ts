import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { extractMentions } from './mentions.js';

const texts = (claim: string) => extractMentions(claim).map((m) => m.text);

describe('entity mentions (ColumbiaNLP document retrieval)', () => {
  it('takes the claim prefix before the first lower-case verb', () => {
    assert.ok(texts('Fox 2000 Pictures released the film Soul Food.').includes('Fox 2000 Pictures'));
    assert.ok(texts('Tilda Swinton is a vegan.').includes('Tilda Swinton'));
  });
  it('finds capitalised runs and named entities inside the claim', () => {
    const m = texts('Colin Kaepernick became a starting quarterback during the 49ers 63rd season in the National Football League.');
    assert.ok(m.includes('Colin Kaepernick'));
    assert.ok(m.includes('National Football League'));
    assert.ok(texts('Fox 2000 Pictures released the film Soul Food.').includes('Soul Food'));
  });
  it('drops possessives and tries titles without a leading "The"', () => {
    assert.ok(texts("Damon Albarn's debut album was released in 2011.").includes('Damon Albarn'));
    assert.ok(texts('The Boston Celtics play their home games at TD Garden.').includes('Boston Celtics'));
  });
  it('returns longer mentions first and no duplicates', () => {
    const m = texts('Nikolaj Coster-Waldau worked with the Fox Broadcasting Company.');
    assert.equal(new Set(m.map((x) => x.toLowerCase())).size, m.length);
    for (let i = 1; i < m.length; i++) assert.ok(m[i - 1]!.length >= m[i]!.length);
  });
});
