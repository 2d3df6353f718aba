import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { prepareDocument } from '../corpus/prepare.js';
import { readCorpus } from '../corpus/read-corpus.js';
import { packageRoot } from '../util/package-root.js';
import { pageToDocument } from '../sources/page-text.js';
import { exclusionReason, sameText, wikipediaTitleOf } from './exclusions.js';
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

  it('excludes the same page indexed under another id and no URL (saved copy vs. corpus record)', async () => {
    const samples = join(packageRoot(), 'data', 'samples');
    const url = 'https://api.semanticscholar.org/CorpusID:18340282';
    const saved = pageToDocument(await readFile(join(samples, 'audit', 'sources', 'scifact-18340282.txt'), 'utf8'), 'text', url, 'Million Women Study');
    const records = new Map<string, ReturnType<typeof prepareDocument>>();
    for await (const r of readCorpus(join(samples, 'scifact', 'corpus.jsonl'), 'scifact')) if (r.ok) records.set(r.doc.id, prepareDocument(r.doc));
    const same = records.get('18340282')!;
    const other = records.get('16322674')!;
    const withText = { ...ctx, existingUrls: [url], existingText: saved.sentences.join(' ') };
    assert.equal(exclusionReason(same, withText), 'existing source (same text)');
    assert.equal(exclusionReason(other, withText), undefined);
    // short texts never match by chance
    assert.equal(sameText('Home. Contact us.', 'Home. Contact us.'), false);
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
