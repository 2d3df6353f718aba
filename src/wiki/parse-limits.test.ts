/**
 * A long wikitext is read a piece at a time (issue 27: a 5 MB article with 8,691 refs ran the CLI out of
 * memory and stalled the server): rendering in pieces gives exactly the article the whole would give;
 * `maxCitations` stops the parse once it holds that many (the rest is never rendered); the async parse
 * yields to the event loop between slices and gives the same article.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { syntheticWikitext } from '../server/testing/large-article.js';
import { parseWikitext, parseWikitextAsync } from './parse-wikitext.js';

const sample = (name: string) => readFileSync(new URL(`../../data/samples/wikitext/${name}`, import.meta.url), 'utf8');
const fixture = readFileSync(new URL('../../test/fixtures/wiki/citations.wikitext', import.meta.url), 'utf8');
const large = syntheticWikitext({ refs: 600, perSection: 20 }).text;

test('rendering in pieces cut at top-level headings gives the same article as rendering it whole', () => {
  for (const [name, text] of [['Bodmin', sample('Bodmin.txt')], ['Elizabeth Gilbert', sample('Elizabeth-Gilbert.txt')], ['fixture', fixture], ['synthetic', large]] as const) {
    const whole = parseWikitext(text, { title: name, chunkChars: Number.MAX_SAFE_INTEGER });
    for (const chunkChars of [1, 4096]) assert.deepEqual(parseWikitext(text, { title: name, chunkChars }), whole, `${name}, pieces of ${chunkChars}`);
  }
});

test('maxCitations: the first n citations, as the full parse gives them; the parse stops in the piece that holds them', () => {
  const full = parseWikitext(large, { title: 'Big' });
  assert.ok(full.citations.length > 500);
  assert.equal(full.truncated, undefined);
  const first = parseWikitext(large, { title: 'Big', maxCitations: 20, chunkChars: 4096 });
  assert.equal(first.truncated, true);
  assert.deepEqual(first.citations, full.citations.slice(0, 20));
  // only the pieces up to the 20th citation were rendered: a small part of the text, no refs past it skipped
  assert.ok(first.text.length < full.text.length / 10, `${first.text.length} of ${full.text.length} characters rendered`);
  assert.ok(full.text.startsWith(first.text));
  const lastRead = first.citations.at(-1)!.wikitextEnd!;
  assert.ok(first.skipped.every((s) => s.wikitextStart! < lastRead + 10_000), 'no ref far past the stop is reported as skipped');
  // a limit at or above the article's citations changes nothing
  assert.deepEqual(parseWikitext(large, { title: 'Big', maxCitations: full.citations.length }), full);
  const over = parseWikitext(large, { title: 'Big', maxCitations: full.citations.length - 1 });
  assert.equal(over.citations.length, full.citations.length - 1);
  assert.equal(over.truncated, true);
});

test('parseWikitextAsync yields to the event loop between slices and gives the same article', async () => {
  const sync = parseWikitext(large, { title: 'Big' });
  let turns = 0;
  let parsing = true;
  const counter = (async () => {
    while (parsing) {
      turns++;
      await nextTurn();
    }
  })();
  const parsed = await parseWikitextAsync(large, { title: 'Big' });
  parsing = false;
  await counter;
  assert.deepEqual(parsed, sync);
  // ~330 KB in pieces of 32 KiB: the event loop turned between pieces at least
  assert.ok(turns >= 5, `${turns} event-loop turns during the parse`);
});

test('parseWikitextAsync stops between slices when its signal is aborted', async () => {
  const ac = new AbortController();
  ac.abort(new Error('job stopped'));
  await assert.rejects(parseWikitextAsync(large, { signal: ac.signal }), /job stopped/);
});

test('heading-less text: a 1 MB paragraph of cited sentences reads in pieces, every ref a citation; nesting over 100 deep is a clean error', async () => {
  const { headinglessWikitext, deeplyNestedWikitext } = await import('../server/testing/hostile-inputs.js');
  const text = headinglessWikitext(1024 * 1024);
  const refs = text.split('<ref>').length - 1;
  const article = parseWikitext(text, { title: 'One paragraph' });
  assert.equal(article.citations.length, refs);
  assert.equal(article.sections.length, 1, 'one section, however many pieces it was read in');
  const c = article.citations[1234]!;
  assert.match(c.claim, /^The river number 1234 flows 2 km through the .+ valley and was named in 1834\.$/);
  assert.equal(c.context.length, 5, 'context runs across the cuts');
  assert.equal(article.text.slice(c.charStart, c.charEnd), c.claim);
  assert.throws(() => parseWikitext(deeplyNestedWikitext(10_000)), { name: 'WikitextLimitError', message: /nested more than 100 deep \(line 1\)/ });
});

// Hostile shapes a tester sent to POST /v1/audits, each of which kept a parse worker busy for up to its
// 60 s budget through wtf_wikipedia's quadratic sentence split (figures in docs/RESULTS.md, stop 54). Read
// now in pieces cut at ref tokens (no sentence start to cut at) and with a ref's content read for its fields
// only up to MAX_REF_PARSE_CHARS; what they hold is still all read.
test('hostile shapes: 20,000 refs with no sentence end between them, and one ref of 20,000 unclosed links', () => {
  const refs = parseWikitext('a' + '<ref>b</ref>'.repeat(20_000), { title: 'Refs' });
  assert.equal(refs.citations.length, 20_000);
  const raw = '[http://a.b/ '.repeat(20_000);
  const links = parseWikitext(`a<ref>${raw}</ref>`, { title: 'Links' });
  assert.equal(links.citations.length, 1);
  assert.equal(links.citations[0]!.source.url, 'http://a.b/');
  assert.equal(links.citations[0]!.source.raw.length, `<ref>${raw}</ref>`.length, 'the raw ref is kept whole');
});
