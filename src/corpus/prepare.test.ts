import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareDocument } from './prepare.js';
import { MAX_SENTENCE_WORDS } from './split-text.js';
import type { RawDocument } from './types.js';

test('a given sentence list is kept exactly: same strings, empty ones and odd whitespace included', () => {
  const sentences = ['First  sentence .', '', '  padded  ', 'Dr. Who. Two sentences in one given entry.'];
  const raw: RawDocument = { id: 'x', title: 'X', sentences: [...sentences], text: 'ignored when sentences are given' };
  const doc = prepareDocument(raw);
  assert.deepEqual(doc.sentences, sentences);
  assert.deepEqual(Object.keys(doc).sort(), ['id', 'sentences', 'title'], 'no undefined url/links keys');
});

test('text is split into paragraphs, then sentences; whitespace collapsed; empty pieces dropped', () => {
  const doc = prepareDocument({
    id: 'y',
    title: '  A   title\n',
    text: 'Heading\n\n  First sentence here.   Second\tone,\u00a0with  spaces.\n\n\n \nDr. Smith arrived. He left.\n',
    url: 'https://example.org/y',
    links: ['L'],
  });
  assert.deepEqual(doc, {
    id: 'y',
    title: 'A title',
    url: 'https://example.org/y',
    links: ['L'],
    sentences: ['Heading', 'First sentence here.', 'Second one, with spaces.', 'Dr. Smith arrived.', 'He left.'],
  });
});

test('a document without text gets no sentences', () => {
  assert.deepEqual(prepareDocument({ id: 'z', title: 'Z', text: '' }).sentences, []);
  assert.deepEqual(prepareDocument({ id: 'z', title: 'Z' }).sentences, []);
  assert.deepEqual(prepareDocument({ id: 'z', title: 'Z', sentences: [] }).sentences, []);
});

test('an over-long run of unsplit text (no sentence end) becomes balanced sentences of at most MAX_SENTENCE_WORDS words', () => {
  const words = Array.from({ length: 1001 }, (_, i) => `w${i}`);
  const doc = prepareDocument({ id: 'z', title: 'Z', text: `Short one. ${words.join('  ')}. Last one.` });
  const sizes = doc.sentences.map((s) => s.split(' ').length);
  assert.deepEqual(sizes, [2, 167, 167, 167, 167, 167, 166, 2]);
  assert.ok(sizes.every((n) => n <= MAX_SENTENCE_WORDS));
  assert.equal(doc.sentences.slice(1, 7).join(' '), `${words.join(' ')}.`, 'nothing lost, whitespace collapsed');
  // A given sentence list is never cut (its ids are external): the chunker splits it into passages instead.
  assert.deepEqual(prepareDocument({ id: 'g', title: '', sentences: [words.join(' ')] }).sentences, [words.join(' ')]);
});
