/**
 * The shipped audit sample (data/samples/audit): its saved pages are the SciFact abstracts they claim to
 * be, every cited URL of the article resolves in the --sources folder except the two meant not to, and
 * the labels name the citations the parser finds (same index, same claim).
 */
import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../util/package-root.js';
import { SnapshotFolder } from '../sources/snapshot-folder.js';
import { loadArticleInput } from './article-input.js';

const DIR = join(packageRoot(), 'data', 'samples', 'audit');
const ARTICLE = join(DIR, 'Breast_cancer_risk_factors.txt');
const LABELS = ['supported', 'partially_supported', 'not_supported'];

async function jsonl<T>(path: string): Promise<T[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as T;
      } catch (e) {
        throw new Error(`${path}:${i + 1}: ${(e as Error).message}`);
      }
    });
}

describe('audit sample (data/samples/audit)', () => {
  it('saved pages are the SciFact abstracts, copied sentence for sentence', async () => {
    const corpus = new Map((await jsonl<{ doc_id: number; title: string; abstract: string[] }>(join(packageRoot(), 'data', 'samples', 'scifact', 'corpus.jsonl'))).map((d) => [d.doc_id, d]));
    const manifest = await jsonl<{ url: string; path: string; title: string }>(join(DIR, 'sources', 'manifest.jsonl'));
    assert.equal(manifest.length, 12);
    for (const m of manifest) {
      const id = Number(/CorpusID:(\d+)$/.exec(m.url)?.[1]);
      const doc = corpus.get(id);
      assert.ok(doc, `${m.url}: not in the SciFact sample`);
      assert.equal(m.path, `scifact-${id}.txt`);
      assert.equal(await readFile(join(DIR, 'sources', m.path), 'utf8'), `${doc.abstract.map((s) => s.trim()).join(' ')}\n`);
    }
  });

  it('cited pages resolve in the --sources folder, except the unsaved page and the book', async () => {
    const input = await loadArticleInput(ARTICLE);
    assert.equal(input.title, 'Breast cancer risk factors');
    assert.equal(input.citations.length, 24);
    const folder = await SnapshotFolder.open(join(DIR, 'sources'));
    const found: number[] = [];
    for (const c of input.citations) if (c.source.url && (await folder.lookup(c.source.url)).found) found.push(c.index);
    assert.deepEqual(found, Array.from({ length: 22 }, (_, i) => i));
    assert.equal(input.citations[23]!.source.url, undefined);
  });

  it('labels name parsed citations by position (from 1) and claim, with WiCE labels', async () => {
    const input = await loadArticleInput(ARTICLE);
    const labels = await jsonl<{ citation: number; label: string; claim: string; source: string; note: string }>(join(DIR, 'labels.jsonl'));
    assert.equal(labels.length, 22);
    for (const l of labels) {
      // 1-based, as the audit prints it (#1) and `veracite eval audit` reads it
      const c = input.citations[l.citation - 1];
      assert.ok(c, `label for citation ${l.citation}: no such citation`);
      assert.equal(l.claim, c.claim, `citation ${l.citation}: the label's claim is not the parsed claim`);
      assert.equal(l.source, c.source.url);
      assert.ok(LABELS.includes(l.label), `citation ${l.citation}: label ${l.label}`);
      assert.ok(l.note.length > 10);
    }
    const count = (x: string) => labels.filter((l) => l.label === x).length;
    assert.deepEqual([count('supported'), count('partially_supported'), count('not_supported')], [12, 3, 7]);
  });
});
