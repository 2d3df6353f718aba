import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropMarkers, marker, markerIds, stripMarkers } from './markers.js';

test('stripMarkers: positions are where the tokens stood, after the text they follow', () => {
  const line = `One claim.${marker('c', 0)}${marker('c', 1)} Two${marker('c', 2)} more.`;
  const { text, marks } = stripMarkers(line);
  assert.equal(text, 'One claim. Two more.');
  assert.deepEqual(marks, [
    { kind: 'c', id: 0, pos: 10 },
    { kind: 'c', id: 1, pos: 10 },
    { kind: 'c', id: 2, pos: 14 },
  ]);
});

test('stripMarkers: parentheses left empty by a removed ref go, with no double space', () => {
  const { text, marks } = stripMarkers(`Bodmin (${marker('c', 3)}) is a town ${marker('u', 0)} here.`);
  assert.equal(text, 'Bodmin is a town here.');
  assert.deepEqual(marks, [
    { kind: 'c', id: 3, pos: 6 },
    { kind: 'u', id: 0, pos: 16 },
  ]);
});

test('stripMarkers: a ref glued between two sentences leaves a space for the splitter', () => {
  assert.equal(stripMarkers(`End.${marker('c', 0)}Next one.`).text, 'End. Next one.');
  assert.equal(stripMarkers(`word${marker('c', 0)}word`).text, 'wordword');
});

test('dropMarkers and markerIds', () => {
  const s = `Head${marker('c', 7)}ing${marker('u', 1)}`;
  assert.equal(dropMarkers(s), 'Heading');
  assert.deepEqual(markerIds(s, 'c'), [7]);
  assert.deepEqual(markerIds(s, 'u'), [1]);
});
