/**
 * The `veracite` command as a user runs it: index with progress and a summary, a bad record named by
 * file and line, search output, and option validation.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

function veracite(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('veracite CLI', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-cli-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('indexes a corpus with a bad line: summary counts it and names file, line and field', async () => {
    const lines = (await readFile('data/samples/scifact/corpus.jsonl', 'utf8')).split('\n').filter(Boolean).slice(0, 50);
    lines.splice(7, 0, '{"doc_id": 5, "title": "t"}');
    const file = join(dir, 'c.jsonl');
    await writeFile(file, lines.join('\n') + '\n');
    const r = veracite(['index', file, '--index', join(dir, 'idx'), '--format', 'scifact', '--json']);
    assert.equal(r.code, 0, r.err);
    const summary = JSON.parse(r.out) as { stats: { documents: number }; sources: { skipped: number; errors: string[] }[]; snapshot: string };
    assert.equal(summary.stats.documents, 50);
    assert.equal(summary.sources[0]!.skipped, 1);
    assert.match(summary.sources[0]!.errors[0]!, /c\.jsonl:8 field "abstract"/);
    assert.match(summary.snapshot, /@p\d+\.d\d+$/);
    assert.match(r.err, /docs\/s/, 'progress shows rates');
  });

  it('--on-error stop exits non-zero with the location of the bad record', () => {
    const r = veracite(['index', join(dir, 'c.jsonl'), '--index', join(dir, 'idx2'), '--format', 'scifact', '--on-error', 'stop', '--quiet']);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /c\.jsonl:8 field "abstract"/);
  });

  it('searches and prints documents with their best passage, or JSON', () => {
    const r = veracite(['search', 'rare genetic variants and disease risk', '--index', join(dir, 'idx'), '-k', '3', '--json']);
    assert.equal(r.code, 0, r.err);
    const res = JSON.parse(r.out) as { documents: { rank: number; score: number; passages: unknown[] }[]; snapshot: string; configHash: string };
    assert.ok(res.documents.length > 0 && res.documents.length <= 3);
    assert.equal(res.documents[0]!.rank, 1);
    assert.ok(res.configHash.length > 0);
    const text = veracite(['search', 'rare genetic variants', '--index', join(dir, 'idx'), '-k', '2']);
    assert.match(text.out, /  1\. \[\d+\.\d+\]/);
  });

  it('rejects bad option values with a message naming the option', () => {
    const r = veracite(['search', 'x', '--index', join(dir, 'idx'), '-k', 'zero']);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /-k must be a positive integer/);
    const m = veracite(['search', 'x', '--index', join(dir, 'idx'), '--mode', 'magic']);
    assert.match(m.err, /--mode must be one of bm25, dense, hybrid/);
  });

  it('refuses to search a directory that is not an index', () => {
    const r = veracite(['search', 'x', '--index', join(dir, 'nothing-here')]);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /no veracite index here/);
  });
});
