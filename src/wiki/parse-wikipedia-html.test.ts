import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseWikipediaHtml } from './parse-wikipedia-html.js';

const html = readFileSync(new URL('../../test/fixtures/wiki/bodmin-rendered.html', import.meta.url), 'utf8');
const article = parseWikipediaHtml(html);
const claims = () => article.citations.map((c) => c.claim);
const prefixes = () => article.citations.map((c) => c.claimPrefix);

test('title from #firstHeading; sections from old and 2024 heading markup', () => {
  assert.equal(article.title, 'Bodmin');
  assert.deepEqual(article.sections.map((s) => s.path), [[], ['History'], ['History', 'Rebellions'], ['Notable people'], ['References']]);
  assert.equal(parseWikipediaHtml(html, { title: 'Other' }).title, 'Other');
});

test('prose only: no infobox, hatnote, caption, navbox, reference list or [edit] text', () => {
  for (const junk of ['Bodmin Public Rooms', 'For the hamlet', 'Bodmin Gaol', 'Retrieved', '[edit', '[1]', 'citation needed', 'Categories']) {
    assert.ok(!article.text.includes(junk), `text contains ${junk}`);
  }
  assert.ok(article.text.startsWith('Bodmin (Cornish: Bosvena) is a civil parish'));
});

test('claims: whole sentences for mid-sentence, sentence-final, consecutive footnotes; list items', () => {
  assert.deepEqual(claims(), [
    'Bodmin (Cornish: Bosvena) is a civil parish and historic town in Cornwall, England, United Kingdom.',
    'It is situated south-west of Bodmin Moor.',
    'Bodmin had a population of 14,736 as of the 2011 Census.',
    'The town is part of the North Cornwall parliamentary constituency.',
    'The town is part of the North Cornwall parliamentary constituency.',
    'St. Petroc founded a monastery in Bodmin in the 6th century and gave the town its alternative name of Petrockstow.',
    "The Black Death killed half of Bodmin's population in the mid 14th century (1,500 people).",
    'The first was the Cornish Rebellion of 1497.',
    'Rory Simmons, musician',
    'Walter Raleigh Gilbert, soldier, was born in Bodmin.',
  ]);
  // SIDE's text before the citation: only the mid-sentence footnotes differ from the claim.
  assert.deepEqual(
    prefixes().filter((p, i) => p !== claims()[i]),
    ['Bodmin (Cornish: Bosvena', 'St. Petroc founded a monastery in Bodmin in the 6th century'],
  );
  for (const c of article.citations) {
    assert.equal(article.text.slice(c.charStart, c.charEnd), c.claim);
    assert.equal(article.text.slice(c.charStart, c.claimPrefixEnd), c.claimPrefix);
    assert.equal(c.articleTitle, 'Bodmin');
    assert.equal(c.id, `Bodmin#${c.index}`);
  }
  assert.deepEqual(article.citations[7]!.sectionPath, ['History', 'Rebellions']);
  assert.deepEqual(article.citations[7]!.context, ['Bodmin was the centre of three Cornish uprisings.']);
});

test('source fields from cite.citation, COinS and the archive links', () => {
  const census = article.citations[2]!;
  assert.equal(census.kind, 'ref');
  assert.equal(census.source.name, 'census');
  assert.equal(census.source.url, 'http://www.cornwall.gov.uk/council-and-democracy/data-and-research/data-by-topic/population/town-populations');
  assert.equal(
    census.source.archiveUrl,
    'https://web.archive.org/web/20150205171836/http://www.cornwall.gov.uk/council-and-democracy/data-and-research/data-by-topic/population/town-populations',
  );
  assert.equal(census.source.deadUrl, true);
  assert.equal(census.source.title, 'Bodmin Population 2011');
  assert.equal(census.source.publisher, 'Cornwall Council');
  assert.equal(census.source.date, '2014');
  assert.equal(census.source.accessDate, '5 February 2015');
  assert.equal(census.source.archiveDate, '5 February 2015');
  assert.ok(census.source.raw.startsWith('<li id="cite_note-census-1">'));

  const guardian = article.citations[3]!.source;
  assert.equal(guardian.url, 'https://www.theguardian.com/politics/constituency/1055/north-cornwall');
  assert.equal(guardian.title, 'North Cornwall: constituency profile');
  assert.equal(guardian.work, 'The Guardian');
  assert.equal(guardian.date, '2010-05-06');
  assert.equal(guardian.deadUrl, false);
  assert.equal(guardian.archiveDate, '10 May 2010');

  assert.deepEqual({ ...article.citations[4]!.source, raw: '' }, { raw: '', url: 'http://www.bodmin.gov.uk/', title: 'Bodmin Town Council website' });
  // a bare URL: the link text is the URL, not a title
  assert.equal(article.citations[5]!.source.title, undefined);
  // a note without any link
  assert.equal(article.citations[1]!.source.url, undefined);
});

test('a second footnote to the same note is a reuse with the same source', () => {
  const rebellion = article.citations.filter((c) => c.source.name === 'rebellion');
  assert.deepEqual(rebellion.map((c) => c.kind), ['ref', 'reuse']);
  assert.equal(rebellion[1]!.source.url, 'http://www.cornwall-calling.co.uk/rebellions.htm');
});

test('[failed verification], [dead link] and a lone [citation needed]', () => {
  const blackDeath = article.citations[6]!;
  assert.deepEqual(blackDeath.tags, { failedVerification: true, citationNeeded: false, deadLink: false });
  assert.equal(article.citations[7]!.tags.deadLink, true);
  assert.equal(article.citations[0]!.tags.failedVerification, false);
  assert.deepEqual(article.uncitedClaims.map((u) => u.claim), ['It is unclear whether the Bodman spelling signifies any monastic connection.']);
});

test('footnotes in the infobox and in a figure caption are skipped, with where they were', () => {
  assert.deepEqual(
    article.skipped.map((s) => [s.reason, s.source.url]),
    [
      ['infobox', 'http://www.cornwall.gov.uk/council-and-democracy/data-and-research/data-by-topic/population/town-populations'],
      ['file', 'http://www.bodminjail.org/'],
    ],
  );
});

test('plain HTML without Wikipedia chrome still parses', () => {
  const a = parseWikipediaHtml(
    '<html><head><title>Tiny - Wikipedia</title></head><body><p>A claim.<sup class="reference"><a href="#cite_note-1">[1]</a></sup></p>' +
      '<ol class="references"><li id="cite_note-1"><a class="external text" href="https://x.example.org">X</a></li></ol></body></html>',
  );
  assert.equal(a.title, 'Tiny');
  assert.deepEqual(a.citations.map((c) => [c.claim, c.source.url, c.source.title]), [['A claim.', 'https://x.example.org', 'X']]);
});
