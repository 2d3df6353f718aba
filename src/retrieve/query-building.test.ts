import { strict as assert } from 'node:assert';
import { readFileSync, existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildDenseQuery, buildQueries, buildSparseQuery } from './query-building.js';

const WICE = 'data/samples/wice/retrieval_dev_queries.jsonl';

describe('SIDE query building', () => {
  const input = {
    claim: 'Arnold is currently the publisher of Media Play News.',
    context: ['In 1986 he formed a band with journalist Thomas K. Arnold.', 'They played several concerts around town.'],
    articleTitle: 'Roger Hedgecock',
    sectionPath: ['Other endeavors.'],
  };

  it('dense query = title + section + text before the citation, truncated from the left', () => {
    const full = buildDenseQuery(input, 1000);
    assert.equal(full, 'Roger Hedgecock Other endeavors In 1986 he formed a band with journalist Thomas K. Arnold. They played several concerts around town. Arnold is currently the publisher of Media Play News.');
    const short = buildDenseQuery(input, 12);
    const words = short.split(' ');
    assert.equal(words.length, 12);
    assert.deepEqual(words.slice(0, 4), ['Roger', 'Hedgecock', 'Other', 'endeavors']);
    // The words nearest the citation survive: the claim's end.
    assert.ok(short.endsWith('publisher of Media Play News.'));
  });

  it('sparse query = the claim + the article title + expansion terms', () => {
    assert.equal(buildSparseQuery({ ...input, expansion: ['home', 'entertainment'] }), 'Arnold is currently the publisher of Media Play News. Roger Hedgecock home entertainment');
  });

  it('a plain claim is used as is', () => {
    assert.deepEqual(buildQueries('Vitamin D prevents fractures.'), { sparse: 'Vitamin D prevents fractures.', dense: 'Vitamin D prevents fractures.' });
    assert.deepEqual(buildQueries({ claim: 'x y' }), { sparse: 'x y', dense: 'x y' });
  });

  it('builds queries for every shipped WiCE claim within the length limit', { skip: !existsSync(WICE) && 'WiCE sample missing' }, () => {
    for (const line of readFileSync(WICE, 'utf8').split('\n').filter(Boolean)) {
      const q = JSON.parse(line) as { claim: string; context: string; wiki_title: string; section: string };
      const built = buildQueries({ claim: q.claim, context: [q.context], articleTitle: q.wiki_title, sectionPath: [q.section] }, 128);
      assert.ok(built.dense.split(' ').length <= 128);
      assert.ok(built.sparse.startsWith(q.claim));
      assert.ok(built.dense.startsWith(q.wiki_title));
    }
  });
});
