import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { IdHashSet } from './id-hash-set.js';

describe('IdHashSet', () => {
  it('remembers every id added, across growth, and no other id', () => {
    const s = new IdHashSet(4);
    const ids = Array.from({ length: 50_000 }, (_, i) => `Soul_Food_-LRB-film-RRB-_${i}`);
    for (const id of ids) s.add(id);
    for (const id of ids.slice(0, 100)) s.add(id); // re-adding does not count twice
    assert.equal(s.size, ids.length);
    assert.ok(ids.every((id) => s.has(id)));
    const others = Array.from({ length: 50_000 }, (_, i) => `Soul_Food_-LRB-film-RRB-_${i + 50_000}`);
    assert.equal(others.filter((id) => s.has(id)).length, 0);
    assert.equal(s.has(''), false);
    s.add('');
    assert.equal(s.has(''), true);
  });

  it('holds 8 bytes an id (a Set<string> of the same ids holds ~90)', () => {
    const s = new IdHashSet();
    for (let i = 0; i < 200_000; i++) s.add(`doc-${i}`);
    assert.ok(s.bytes <= 200_000 * 8 * 4, `${s.bytes} bytes for 200k ids`);
  });
});
