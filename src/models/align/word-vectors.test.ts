/**
 * The word-vector cache is built off the caller's thread: `loadWordVectors` with no cache converts the JSON
 * in a worker thread (the synchronous converter is never called on this thread) and writes the cache whole;
 * the package's format is read with its quirks (own keys only, non-array vectors dropped). Runs on a tiny JSON in the package's format
 * (VERACITE_WORD_VECTORS) and an empty cache folder (VERACITE_CACHE_DIR), in its own process (node --test
 * runs each file apart), so the process-wide vectors are this file's.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import { loadWordVectors, wordVectorCachePath, wordVectors, wordVectorsLoaded, WordVectors } from './word-vectors.js';

/** A small file in the package's layout: dimensions, words, vectors (each with norm and index appended). */
function tinyJson(): string {
  const vectors: Record<string, unknown> = {
    increase: [0.5, 1.25, -2.0e-1, 1.3, 0],
    rise: [0.45, 1.2, -0.1, 1.3, 1],
    'caf\u00e9': [-1, 0.000123456789, 3, 3.2, 2],
    'say "hi"': [1e-3, 2.5e2, -0, 250, 3],
    decrease: [-0.5, -1.25, 0.2, 1.3, 4],
    notAnArray: 'x',
    twice: [1, 0, 0, 1, 5],
    'line\nbreak': [1, 1, 1, 1.7, 6],
    ['__proto__']: [0.1, 0.2, 0.3, 0.4, 7],
  };
  // A repeated key: JSON.parse keeps the last; the parser must too.
  const body = JSON.stringify(vectors).slice(0, -1) + ',"twice":[0,1,0,1,5]}';
  const words = ['increase', 'rise', 'caf\u00e9', 'say "hi"', 'decrease', 'notAnArray', 'toString', 'twice', 'line\nbreak', '__proto__', 'missing'];
  return `{"precision":8,"size":${words.length},"dimensions":3,"words":${JSON.stringify(words)},"vectors":${body},"unkVector":[0,0,0,-1]}`;
}

let dir: string;
let source: string;
const saved = { cache: process.env['VERACITE_CACHE_DIR'], source: process.env['VERACITE_WORD_VECTORS'] };
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'veracite-wv-'));
  source = join(dir, 'tiny-vectors.json');
  writeFileSync(source, tinyJson());
  process.env['VERACITE_CACHE_DIR'] = join(dir, 'cache');
  process.env['VERACITE_WORD_VECTORS'] = source;
});
after(() => {
  for (const [k, v] of [['VERACITE_CACHE_DIR', saved.cache], ['VERACITE_WORD_VECTORS', saved.source]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('word-vector conversion', () => {
  it('converts the package format: own keys only, array vectors only, in the words\' order', () => {
    const buf = WordVectors.convertPackage(() => {}, process.env['VERACITE_WORD_VECTORS']!);
    const v = WordVectors.decode(buf, 'tiny');
    assert.deepEqual(['increase', 'rise', 'caf\u00e9', 'say "hi"', 'decrease', 'twice', '__proto__'].map((w) => v.has(w)), [true, true, true, true, true, true, true]);
    assert.ok(v.cosine('increase', 'rise')! > 0.5);
  });

  it('reports a file that is not the expected JSON, with where', () => {
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, '{"dimensions":3,"words":["a"');
    assert.throws(() => WordVectors.convertPackage(() => {}, cut), /cut\.json: not the word-vector JSON expected/);
    const nodim = join(dir, 'nodim.json');
    writeFileSync(nodim, '{"words":[]}');
    assert.throws(() => WordVectors.convertPackage(() => {}, nodim), /needs "dimensions"/);
  });

  it('loadWordVectors with no cache converts in a worker thread, never on this one, and writes the cache whole', async () => {
    const path = wordVectorCachePath();
    assert.ok(path.startsWith(join(dir, 'cache')), path);
    assert.equal(existsSync(path), false);
    // The synchronous converter, on this thread: loading must not call it (the worker has its own copy).
    const sync = mock.method(WordVectors, 'convertPackage', () => {
      throw new Error('converted on the main thread');
    });
    const lines: string[] = [];
    try {
      const [v, again] = await Promise.all([loadWordVectors((l) => lines.push(l)), loadWordVectors((l) => lines.push(l))]);
      assert.equal(sync.mock.callCount(), 0);
      assert.equal(v, again, 'concurrent loads share one conversion');
      assert.equal(wordVectorsLoaded(), true);
      assert.equal(wordVectors(), v, 'the synchronous accessor returns the loaded vectors at once');
      assert.equal(v.size, 7);
      assert.ok(v.cosine('increase', 'rise')! > 0.95);
      assert.equal(v.cosine('increase', 'missing'), undefined);
      assert.ok(lines.some((l) => /converting word vectors .*tiny-vectors\.json/.test(l)), lines.join('\n'));
    } finally {
      sync.mock.restore();
    }
    // The cache: whole (decodes, same vectors), no temporary file left beside it.
    assert.equal(WordVectors.decode(readFileSync(path), path).size, 7);
    assert.deepEqual(readdirSync(join(dir, 'cache')), [path.slice(join(dir, 'cache').length + 1)]);
  });
});
