import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitParagraphs } from './paragraphs.js';

test('blank lines separate paragraphs, whatever their whitespace and line endings', () => {
  assert.deepEqual(splitParagraphs('One.\n\nTwo.\r\n \r\nThree.\n\t\n\n'), ['One.', 'Two.', 'Three.']);
});

test('a heading or a short line followed by a capitalised line is its own paragraph', () => {
  assert.deepEqual(splitParagraphs('Introduction\nThe study began in 1990.'), ['Introduction', 'The study began in 1990.']);
});

test('list items stay apart', () => {
  assert.deepEqual(splitParagraphs('Ingredients:\n- flour\n- water\n1. Mix them.\n2. Bake.'), ['Ingredients:', '- flour', '- water', '1. Mix them.', '2. Bake.']);
});

test('hard-wrapped prose is joined back into one paragraph', () => {
  const wrapped = 'The lighthouse was built on the northern cape and\nLater it was moved inland, after the storm of\n1953 had damaged the tower beyond repair.';
  assert.deepEqual(splitParagraphs(wrapped), [
    'The lighthouse was built on the northern cape and Later it was moved inland, after the storm of 1953 had damaged the tower beyond repair.',
  ]);
  assert.deepEqual(splitParagraphs('short\nline continues here'), ['short line continues here'], 'a lowercase start continues');
});

test('no text, no paragraphs', () => {
  assert.deepEqual(splitParagraphs(''), []);
  assert.deepEqual(splitParagraphs(' \n\n \n'), []);
});
