import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { normalizeUrl } from './url.js';
import { titleKey, baseTitle, decodeFeverTitle } from './title-key.js';
import { configHash } from '../provenance/config-hash.js';

describe('normalizeUrl', () => {
  it('ignores scheme, www, trailing slash, fragment, tracking parameters and parameter order', () => {
    const a = normalizeUrl('https://www.Example.com/News/Story/?b=2&a=1&utm_source=tw#top');
    assert.equal(a, 'example.com/News/Story?a=1&b=2');
    assert.equal(normalizeUrl('http://example.com/News/Story?a=1&b=2'), a);
    assert.notEqual(normalizeUrl('http://example.com/news/story?a=1&b=2'), a, 'paths are case-sensitive');
  });
  it('keeps non-default ports and drops index pages', () => {
    assert.equal(normalizeUrl('http://example.com:8080/x/index.html'), 'example.com:8080/x');
  });
});

describe('title keys', () => {
  it('FEVER and Wikipedia spellings of a disambiguated title share one key', () => {
    assert.equal(decodeFeverTitle('Soul_Food_-LRB-film-RRB-'), 'Soul Food (film)');
    assert.equal(baseTitle('Soul_Food_-LRB-film-RRB-'), 'Soul Food');
    assert.equal(titleKey('Soul Food (film)'), 'soul food');
    assert.equal(titleKey('Beyoncé'), 'beyonce');
  });
});

describe('configHash', () => {
  it('is independent of key order and sensitive to values', () => {
    assert.equal(configHash({ a: 1, b: { c: 2, d: [1, 2] } }), configHash({ b: { d: [1, 2], c: 2 }, a: 1 }));
    assert.notEqual(configHash({ a: 1 }), configHash({ a: 2 }));
  });
});
