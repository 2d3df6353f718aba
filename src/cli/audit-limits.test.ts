/**
 * `veracite audit` on a long article (issue 27): --limit applies while the article is read, and
 * audit.maxCitations (--max-citations) refuses an article with more citations than it, naming the flag.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditReport } from '../audit/types.js';
import { syntheticWikitext } from '../server/testing/large-article.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { messageOf } from './main.js';
import { runCli } from './testing/run-cli.js';

describe('veracite audit: --limit and --max-citations on a long article', () => {
  let dir: string;
  let index: string;
  let article: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-audit-limits-'));
    index = join(dir, 'idx');
    const store = await LanceStore.open(index);
    await ingestSource(store, 'test/fixtures/audit/pendrick-corpus.jsonl', { format: 'jsonl' });
    await store.close();
    article = join(dir, 'Long-article.txt');
    await writeFile(article, syntheticWikitext({ refs: 300, perSection: 20 }).text);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const common = () => ['--index', index, '--scorer', 'lexical', '--no-recommend', '--threshold', '0.3', '--quiet'];

  it('an article with more citations than --max-citations is refused, naming the flag and --limit', async () => {
    const err = await runCli(['audit', article, ...common(), '--max-citations', '50']).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err, 'the audit was refused');
    const message = messageOf(err as Error);
    assert.match(message, /^--max-citations: "Long article" has more than 50 citations, the most one audit checks/);
    assert.match(message, /--limit n/);
  });

  it('--limit n audits the first n citations of an article over the cap; a limit above the cap names the flag', async () => {
    const out = join(dir, 'report.json');
    await runCli(['audit', article, ...common(), '--max-citations', '50', '--limit', '3', '--out', out]);
    const report = JSON.parse(await readFile(out, 'utf8')) as AuditReport;
    assert.deepEqual(report.citations.map((c) => c.index), [0, 1, 2]);
    const err = await runCli(['audit', article, ...common(), '--max-citations', '50', '--limit', '60']).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.match(messageOf(err as Error), /^--max-citations: a limit of 60 citations is above the most one audit checks \(50\)/);
  });
});
