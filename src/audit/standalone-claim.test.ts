import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastNamedEntity, standaloneClaim } from './standalone-claim.js';

describe('claims that stand alone', () => {
  it('a leading pronoun is read with the article subject; a possessive keeps its form', () => {
    assert.deepEqual(standaloneClaim('She won the Nobel Prize in Physics in 1903.', [], 'Marie Curie'), { text: 'Marie Curie won the Nobel Prize in Physics in 1903.', replaced: { from: 'She', to: 'Marie Curie' } });
    assert.equal(standaloneClaim('His first opera was performed in 1871.', [], 'W. S. Gilbert').text, "W. S. Gilbert's first opera was performed in 1871.");
  });
  it('"The company" and friends read as the subject, a disambiguation qualifier dropped', () => {
    assert.equal(standaloneClaim('The company was founded in 1901 in Leeds.', [], 'Marks & Spencer (retailer)').text, 'Marks & Spencer was founded in 1901 in Leeds.');
  });
  it('a bare surname becomes the full name (from the title or from the context)', () => {
    assert.equal(standaloneClaim('Gilbert wrote the libretto.', [], 'W. S. Gilbert').text, 'W. S. Gilbert wrote the libretto.');
    assert.equal(standaloneClaim('Sullivan composed the music.', ['Arthur Sullivan was born in London.'], 'Gilbert and Sullivan').text, 'Arthur Sullivan composed the music.');
  });
  it('without a title, the last named entity of the context', () => {
    assert.equal(lastNamedEntity(['The prize went to Ada Lovelace and later to Grace Hopper.']), 'Grace Hopper');
    assert.equal(standaloneClaim('He retired in 1990.', ['The post was held by John Smith.']).text, 'John Smith retired in 1990.');
  });
  it('leaves alone: a named subject, "It", a claim that already names the subject', () => {
    for (const c of ['Curie won the prize.', 'It is thought that the tower is older.', 'The tower is 26 metres tall.']) assert.equal(standaloneClaim(c, [], 'Eiffel Tower').text, c);
    assert.equal(standaloneClaim('She said Marie Curie was right.', [], 'Marie Curie').text, 'She said Marie Curie was right.');
  });
});
