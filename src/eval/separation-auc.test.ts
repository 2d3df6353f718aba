import assert from 'node:assert/strict';
import { test } from 'node:test';
import { separationAuc } from './separation-auc.js';

test('perfect, reversed and chance separation', () => {
  assert.equal(separationAuc([0.9, 0.8, 0.7], [0.1, 0.2]), 1);
  assert.equal(separationAuc([0.1, 0.2], [0.9, 0.8, 0.7]), 0);
  assert.equal(separationAuc([0.5, 0.5], [0.5]), 0.5);
});

test('counts every pair once, ties half, worked by hand', () => {
  // pairs (high, low): (0.9,0.4) win, (0.9,0.6) win, (0.9,0.3) win, (0.6,0.4) win, (0.6,0.6) tie, (0.6,0.3) win,
  // (0.2,0.4) loss, (0.2,0.6) loss, (0.2,0.3) loss -> (5 + 0.5) / 9
  assert.equal(separationAuc([0.9, 0.6, 0.2], [0.4, 0.6, 0.3]), 5.5 / 9);
  // order of the inputs does not matter
  assert.equal(separationAuc([0.2, 0.9, 0.6], [0.3, 0.6, 0.4]), 5.5 / 9);
});

test('no figure for an empty group; a non-number is an error, not a silent NaN', () => {
  assert.equal(separationAuc([], [0.1]), undefined);
  assert.equal(separationAuc([0.1], []), undefined);
  assert.throws(() => separationAuc([0.1, Number.NaN], [0.2]), /not a finite number/);
});
