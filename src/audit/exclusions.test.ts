import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { exclusionReason, wikipediaTitleOf } from './exclusions.js';
import { urlDepth } from './url-depth.js';

describe('exclusions', () => {
  const ctx = { articleTitle: 'Pendrick Lighthouse', existingUrls: ['https://www.example.com/page?utm_source=x'], existingDocId: 'd1' };

  it('excludes the article itself by title and by Wikipedia URL', () => {
    assert.equal(exclusionReason({ id: 'a', title: 'Pendrick Lighthouse' }, ctx), 'the article itself');
    assert.equal(exclusionReason({ id: 'a', title: 'pendrick_lighthouse - Wikipedia' }, ctx), 'the article itself');
    assert.equal(exclusionReason({ id: 'b', title: 'Mirror', url: 'https://en.m.wikipedia.org/wiki/Pendrick_Lighthouse#History' }, ctx), 'the article itself');
    assert.equal(exclusionReason({ id: 'b', title: 'Mirror', url: 'https://en.wikipedia.org/w/index.php?title=Pendrick%20Lighthouse&oldid=1' }, ctx), 'the article itself');
    assert.equal(wikipediaTitleOf('https://en.wikipedia.org/wiki/Caf%C3%A9'), 'café');
  });

  it('excludes the existing source by normalised URL or index id', () => {
    assert.equal(exclusionReason({ id: 'x', title: 'Page', url: 'http://example.com/page/' }, ctx), 'existing source');
    assert.equal(exclusionReason({ id: 'd1', title: 'Other' }, ctx), 'existing source');
  });

  it('keeps other pages, including other Wikipedia articles', () => {
    assert.equal(exclusionReason({ id: 'y', title: 'Pendrick Point', url: 'https://en.wikipedia.org/wiki/Pendrick_Point' }, ctx), undefined);
    assert.equal(exclusionReason({ id: 'z', title: 'Lighthouses', url: 'https://example.com/other' }, ctx), undefined);
  });
});

describe('urlDepth (SIDE baseline)', () => {
  it('counts path elements', () => {
    assert.equal(urlDepth('https://www.example.com/'), 0);
    assert.equal(urlDepth('https://www.example.com'), 0);
    assert.equal(urlDepth('http://news.example.org/2019/05/story.html?x=1#top'), 3);
    assert.equal(urlDepth('//example.org/a/b/'), 2);
    assert.equal(urlDepth(undefined), undefined);
  });
});
