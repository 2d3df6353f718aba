/**
 * scripts/sample-wiki-page.ts renders the shipped audit sample as a wiki page for the gadget's screenshot:
 * the server's reader of rendered Wikipedia HTML must find in it the same citations as the wikitext
 * reader finds in the sample (claims, cited URLs and titles, one footnote per reused named ref).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { renderWikiPage } from '../scripts/sample-wiki-page.js';
import { parseWikipediaHtml, parseWikitext } from '../src/wiki/index.js';

const SAMPLE = join(import.meta.dirname, '..', 'data', 'samples', 'audit', 'Breast_cancer_risk_factors.txt');

describe('the audit sample rendered as a wiki page', () => {
  it('reads back with the same citations, claims and sources', async () => {
    const title = 'Breast cancer risk factors';
    const fromWikitext = parseWikitext(await readFile(SAMPLE, 'utf8'), { title });
    const html = renderWikiPage(fromWikitext, { banner: 'veracite sample article' });
    const fromHtml = parseWikipediaHtml(html);
    assert.equal(fromHtml.title, title);
    assert.equal(fromHtml.citations.length, 24);
    assert.deepEqual(fromHtml.citations.map((c) => c.claim), fromWikitext.citations.map((c) => c.claim));
    assert.deepEqual(fromHtml.citations.map((c) => c.source.url), fromWikitext.citations.map((c) => c.source.url));
    assert.deepEqual(fromHtml.citations.map((c) => c.source.title), fromWikitext.citations.map((c) => c.source.title));
    assert.deepEqual(fromHtml.citations.map((c) => c.sectionPath), fromWikitext.citations.map((c) => c.sectionPath));
    // A reused named ref points at its first use's note: 14 notes for 24 markers (12 named works, 2 unnamed refs), numbered by first use.
    const notes = [...html.matchAll(/<li id="(cite_note-[^"]+)"/g)].map((m) => m[1]);
    assert.equal(notes.length, 14);
    assert.equal(notes[0], 'cite_note-mws-1');
    assert.equal(fromHtml.skipped.length, 0);
    assert.match(html, /<p class="banner">veracite sample article<\/p>/);
  });
});
