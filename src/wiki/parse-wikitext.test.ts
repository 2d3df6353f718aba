import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseWikitext } from './parse-wikitext.js';
import type { Article, Citation } from './types.js';

const fixture = readFileSync(new URL('../../test/fixtures/wiki/citations.wikitext', import.meta.url), 'utf8');
const sample = (name: string) => readFileSync(new URL(`../../data/samples/wikitext/${name}`, import.meta.url), 'utf8');

const article = parseWikitext(fixture, { title: 'Testbury' });
const byUrl = (a: Article, url: string) => a.citations.filter((c) => c.source.url === url);
const one = (a: Article, url: string): Citation => {
  const found = byUrl(a, url);
  assert.equal(found.length, 1, `one citation for ${url}, found ${found.length}`);
  return found[0]!;
};

function assertOffsets(a: Article): void {
  for (const c of a.citations) {
    assert.ok(c.claim.length > 0, `${c.id}: empty claim`);
    assert.equal(a.text.slice(c.charStart, c.charEnd), c.claim, `${c.id}: offsets`);
    assert.equal(a.text.slice(c.charStart, c.claimPrefixEnd), c.claimPrefix, `${c.id}: prefix offsets`);
    assert.ok(c.claimPrefix.length > 0 && c.claim.startsWith(c.claimPrefix), `${c.id}: prefix not a start of the claim`);
    assert.equal(c.claim, c.claim.trim(), `${c.id}: claim not trimmed`);
    assert.ok(!/[\uE000-\uE002]/.test(c.claim + c.context.join('')), `${c.id}: marker left in text`);
  }
  for (const u of a.uncitedClaims) {
    assert.equal(a.text.slice(u.charStart, u.charEnd), u.claim);
    assert.equal(a.text.slice(u.charStart, u.claimPrefixEnd), u.claimPrefix);
  }
  for (const s of a.sections) assert.ok(s.start <= s.end && s.end <= a.text.length);
}

test('every citation claim is non-empty and text.slice(charStart, charEnd) === claim', () => {
  assertOffsets(article);
  assert.ok(!/[\uE000-\uE002]/.test(article.text), 'no marker token left in the text');
});

test('ids and indexes follow reading order', () => {
  article.citations.forEach((c, i) => {
    assert.equal(c.index, i);
    assert.equal(c.id, `Testbury#${i}`);
    assert.equal(c.articleTitle, 'Testbury');
    if (i > 0) assert.ok(c.wikitextStart! > article.citations[i - 1]!.wikitextStart!);
  });
});

test('cite web fields: url, title, publisher, date, access date, archive url/date, dead url', () => {
  const c = one(article, 'http://names.example.org/kw');
  assert.deepEqual(
    { ...c.source, raw: undefined },
    {
      raw: undefined,
      url: 'http://names.example.org/kw',
      title: 'Cornish place names',
      publisher: 'Language Board',
      date: 'May 2014',
      accessDate: '11 January 2015',
      archiveUrl: 'https://web.archive.org/web/20140729/http://names.example.org/kw',
      archiveDate: '29 July 2014',
      deadUrl: true,
    },
  );
  assert.ok(c.source.raw.startsWith('<ref>{{cite web|url=http://names.example.org/kw'));
  assert.ok(c.source.raw.endsWith('</ref>'));
});

test('cite news: work from newspaper (link markup removed), old-style accessdate', () => {
  const c = byUrl(article, 'https://news.example.org/church')[0]!;
  assert.equal(c.source.work, 'The Daily Example');
  assert.equal(c.source.date, '3 March 2001');
  assert.equal(c.source.accessDate, '4 March 2001');
  assert.equal(c.source.name, 'church');
});

test('bare-URL refs: [http://x title] and a plain http://...', () => {
  const bracket = one(article, 'http://river.example.org/test');
  assert.equal(bracket.source.title, 'The River Test guide');
  assert.equal(bracket.claim, 'It lies on the River Test.');
  const plain = one(article, 'http://charters.example.org/1563');
  assert.equal(plain.source.title, undefined);
});

test('mid-sentence ref: the claim is the whole sentence, the clause before the ref its prefix', () => {
  const [first] = byUrl(article, 'https://news.example.org/church');
  assert.equal(first!.claim, 'The first church was built in 1120 and rebuilt after a fire in 1430.');
  assert.equal(first!.claimPrefix, 'The first church was built in 1120');
  assert.equal(first!.kind, 'ref');
  const lead = one(article, 'http://names.example.org/kw');
  assert.equal(lead.claim, 'Testbury (Trevtest) is a town in Cornwall, England.');
  assert.equal(lead.claimPrefix, 'Testbury (Trevtest');
  // a sentence-final ref: prefix and claim are the same sentence
  const market = one(article, 'http://market.example.org');
  assert.equal(market.claimPrefix, market.claim);
});

test('two refs in one sentence: two citations with the same claim, each with its own prefix', () => {
  const a = parseWikitext('Lead. The mill was built in 1801<ref>http://a.example.org</ref> and closed in 1901.<ref>http://b.example.org</ref> Next.');
  assert.deepEqual(a.citations.map((c) => [c.claim, c.claimPrefix]), [
    ['The mill was built in 1801 and closed in 1901.', 'The mill was built in 1801'],
    ['The mill was built in 1801 and closed in 1901.', 'The mill was built in 1801 and closed in 1901.'],
  ]);
  assert.equal(a.citations[0]!.charStart, a.citations[1]!.charStart);
  assert.deepEqual(a.citations[0]!.context, ['Lead.']);
});

test('consecutive refs after one sentence: one citation each, same claim and context', () => {
  const a = one(article, 'http://charters.example.org/1563');
  const b = article.citations[a.index + 1]!;
  assert.equal(b.source.title, 'A History of Testbury');
  assert.equal(b.source.url, undefined);
  assert.equal(a.claim, 'The town was granted a charter in 1563.');
  assert.equal(b.claim, a.claim);
  assert.deepEqual(b.context, a.context);
  assert.equal(b.charStart, a.charStart);
});

test('named refs: reuse before, after and from {{reflist|refs=}} resolves to the defining ref', () => {
  const census = byUrl(article, 'https://census.example.org/testbury');
  // the definition sits in the infobox (skipped); the reuse in the prose is a citation with its fields
  assert.equal(census.length, 1);
  assert.equal(census[0]!.kind, 'reuse');
  assert.equal(census[0]!.source.title, 'Testbury census 2011');
  assert.equal(census[0]!.claim, 'Testbury had a population of 12,345 in 2011.');
  assert.ok(census[0]!.source.raw.startsWith('<ref name="census">'));

  const church = byUrl(article, 'https://news.example.org/church');
  assert.deepEqual(church.map((c) => c.kind), ['ref', 'reuse']);
  assert.deepEqual(church[1]!.sectionPath, ['History', 'Early years']);
  assert.equal(church[1]!.claim, 'The church was enlarged in 1200.');

  const bridge = one(article, 'http://bridge.example.org/1350');
  assert.equal(bridge.kind, 'reuse');
  assert.equal(bridge.source.work, 'Bridges of England');
  assert.equal(bridge.claim, 'The old bridge, built in 1350');
});

test('list-defined refs are definitions, not citations', () => {
  const starts = article.citations.map((c) => c.wikitextStart!);
  const defined = fixture.indexOf('<ref name="bridge">');
  assert.ok(!starts.includes(defined));
});

test('maintenance tags: {{Failed verification}} after a ref, {{dead link}} inside and after a ref', () => {
  const market = one(article, 'http://market.example.org');
  assert.deepEqual(market.tags, { failedVerification: true, citationNeeded: false, deadLink: false });
  assert.equal(one(article, 'http://flood.example.org/1894').tags.deadLink, true);
  assert.equal(one(article, 'http://mill.example.org').tags.deadLink, true);
  const untagged = article.citations.filter((c) => !['http://market.example.org', 'http://flood.example.org/1894', 'http://mill.example.org'].includes(c.source.url ?? ''));
  for (const c of untagged) assert.deepEqual(c.tags, { failedVerification: false, citationNeeded: false, deadLink: false }, c.id);
});

test('{{citation needed}} without a ref is an uncited claim', () => {
  assert.equal(article.uncitedClaims.length, 1);
  const u = article.uncitedClaims[0]!;
  assert.equal(u.claim, 'The town walls were demolished in 1750.');
  assert.deepEqual(u.sectionPath, ['History']);
  assert.equal(fixture.slice(u.wikitextStart, u.wikitextEnd), '{{citation needed|date=July 2016}}');
  assert.deepEqual(u.context, ['The first church was built in 1120 and rebuilt after a fire in 1430.', 'A market was held every Tuesday.']);
});

test('{{sfn}} and {{harvnb}} short citations are citations without URL', () => {
  const sfn = article.citations.find((c) => c.kind === 'short')!;
  assert.equal(sfn.source.raw, '{{sfn|Smith|1999|p=12}}');
  assert.equal(sfn.source.url, undefined);
  assert.equal(sfn.claim, 'The example of a literal stays text.');
  const harvnb = article.citations.find((c) => c.source.raw.includes('{{harvnb'))!;
  assert.equal(harvnb.kind, 'ref');
  assert.equal(harvnb.source.url, undefined);
  assert.equal(harvnb.claim, 'The guildhall.');
});

test('refs in comments and <nowiki> are not citations', () => {
  assert.equal(byUrl(article, 'http://hidden.example.org').length, 0);
  assert.ok(!article.citations.some((c) => c.source.raw.includes('not a ref')));
  assert.ok(!article.text.includes('hidden'));
});

test('refs in infoboxes and tables are reported as skipped, with where they were', () => {
  assert.deepEqual(
    article.skipped.map((s) => [s.reason, s.source.url]),
    [
      ['template:infobox settlement', 'https://census.example.org/testbury'],
      ['table', 'http://table.example.org'],
    ],
  );
});

test('section paths, and section ranges that contain their citations', () => {
  assert.deepEqual(article.sections.map((s) => s.path), [[], ['History'], ['History', 'Early years'], ['References']]);
  for (const c of article.citations) {
    const s = article.sections.find((x) => JSON.stringify(x.path) === JSON.stringify(c.sectionPath))!;
    assert.ok(s.start <= c.charStart && c.charEnd <= s.end, `${c.id} inside its section`);
  }
});

test('context: preceding sentences of the same section, oldest first, at most contextSentences', () => {
  const mill = one(article, 'http://mill.example.org');
  assert.deepEqual(mill.context, [
    'The first church was built in 1120 and rebuilt after a fire in 1430.',
    'A market was held every Tuesday.',
    'The town walls were demolished in 1750.',
    'The river flooded in 1894.',
  ]);
  const short = parseWikitext(fixture, { title: 'Testbury', contextSentences: 1 });
  assert.deepEqual(one(short, 'http://mill.example.org').context, ['The river flooded in 1894.']);
  const none = parseWikitext(fixture, { contextSentences: 0 });
  assert.ok(none.citations.every((c) => c.context.length === 0));
  assert.equal(none.citations[0]!.id, '#0');
});

test('a list item is its own unit: the claim never runs into the next item', () => {
  const text = 'Intro sentence.<ref>[http://a.example.org A]</ref>\n* First item<ref>[http://b.example.org B]</ref>\n* Second item.<ref>[http://c.example.org C]</ref>\nProse after the list.<ref>[http://d.example.org D]</ref>\n';
  const a = parseWikitext(text);
  assert.deepEqual(a.citations.map((c) => c.claim), ['Intro sentence.', 'First item', 'Second item.', 'Prose after the list.']);
  // reading order kept: the prose after the list is not moved before it
  assert.deepEqual(a.citations.at(-1)!.context, ['Intro sentence.', 'First item', 'Second item.']);
  assertOffsets(a);
});

test('a ref glued to the next sentence still splits the sentences', () => {
  const a = parseWikitext('One claim here.<ref>http://a.example.org</ref>Next claim there.<ref>http://b.example.org</ref>');
  assert.deepEqual(a.citations.map((c) => c.claim), ['One claim here.', 'Next claim there.']);
  assertOffsets(a);
});

test('reuse of a name defined nowhere keeps the tag as its source', () => {
  const a = parseWikitext('A claim.<ref name="ghost" />');
  assert.equal(a.citations.length, 1);
  assert.deepEqual(a.citations[0]!.source, { raw: '<ref name="ghost" />', name: 'ghost' });
  assert.equal(a.citations[0]!.kind, 'reuse');
});

test('ref attribute spellings: unquoted, single-quoted, spaced, self-closing without space', () => {
  const a = parseWikitext(
    "First claim.<ref name=alpha>[http://a.example.org A]</ref> Second claim.<ref name='beta gamma'>[http://b.example.org B]</ref> Third claim.<ref name = alpha/> Fourth claim.<ref name=\"beta gamma\"></ref>",
  );
  assert.deepEqual(a.citations.map((c) => [c.claim, c.kind, c.source.url]), [
    ['First claim.', 'ref', 'http://a.example.org'],
    ['Second claim.', 'ref', 'http://b.example.org'],
    ['Third claim.', 'reuse', 'http://a.example.org'],
    ['Fourth claim.', 'reuse', 'http://b.example.org'],
  ]);
});

test('Bodmin sample: every ref accounted for, claims and offsets consistent', () => {
  const raw = sample('Bodmin.txt');
  const a = parseWikitext(raw, { title: 'Bodmin' });
  assertOffsets(a);
  const refCount = [...raw.matchAll(/<ref\b[^>]*\/>|<ref\b[^>]*>[\s\S]*?<\/ref\s*>/gi)].length;
  assert.equal(a.citations.length + a.skipped.length, refCount);
  assert.equal(a.citations.length, 49);
  const first = a.citations[0]!;
  assert.equal(first.claim, 'Bodmin (Bosvena) is a civil parish and historic town in Cornwall, England, United Kingdom.');
  assert.equal(first.claimPrefix, 'Bodmin (Bosvena');
  assert.equal(first.source.url, 'http://www.magakernow.org.uk/pdf/placename_masterlist.pdf');
  assert.equal(first.source.deadUrl, true);
  assert.equal(first.source.archiveDate, '29 July 2014');
  assert.deepEqual(a.citations[1]!.sectionPath, []);
  assert.equal(a.citations[1]!.claim, 'It is situated south-west of Bodmin Moor.');
  // "History of Bodmin" is defined once and reused: the reuse gets the definition's fields
  const history = a.citations.filter((c) => c.source.url === 'http://www.bodmin.gov.uk/Tourist_Information/Heritage/History.html');
  assert.ok(history.length >= 2);
  assert.equal(history[0]!.kind, 'ref');
  assert.ok(history.slice(1).every((c) => c.kind === 'reuse' && c.source.title === 'History of Bodmin'));
  // the two {{citation needed}} tags of the History section
  assert.equal(a.uncitedClaims.length, 2);
  assert.ok(a.uncitedClaims.every((u) => u.sectionPath[0] === 'History'));
  assert.ok(a.sections.some((s) => s.path.join('/') === 'History/Rebellions'));
});

test('all data/samples/wikitext articles parse with consistent offsets', () => {
  for (const name of ['Arts_Club_of_Chicago.txt', 'Bodmin.txt', 'Elizabeth-Gilbert.txt', 'julia_kristeva.txt', 'raith_rovers.txt']) {
    const a = parseWikitext(sample(name), { title: name });
    assert.ok(a.citations.length > 0, name);
    assertOffsets(a);
  }
});
