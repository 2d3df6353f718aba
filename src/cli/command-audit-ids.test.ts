/**
 * `veracite audit --fetch` on an article that cites works by identifier only (a DOI, a PubMed id, an arXiv
 * id, and a book by ISBN), with the identifier resolvers and metadata APIs at loopback mirrors
 * (`--api-base`): every work is found through its API, the book says why it cannot be checked.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditReport } from '../audit/types.js';
import { startWorkApiServer, type WorkApiServer } from '../../test/fixtures/work-apis/serve-work-apis.js';
import { runCli } from './testing/run-cli.js';

describe('veracite audit: works cited by identifier, through loopback resolvers', () => {
  let dir: string;
  let srv: WorkApiServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-audit-ids-'));
    srv = await startWorkApiServer();
  });
  after(async () => {
    await srv.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the DOI, the PMID and the arXiv id; the ISBN is a book without page text', async () => {
    const article = join(dir, 'seals.wikitext');
    await writeFile(
      article,
      [
        "'''Grey seals''' breed on the coasts of Cornwall.",
        '',
        '== Numbers ==',
        'Pup production in Cornwall rose by a fifth between 2016 and 2021.<ref>{{cite journal |title=Grey seal pup production |doi=10.5555/seal.2021}}</ref>',
        'Seal bites are rare injuries among surfers.<ref>{{cite journal |title=Seal bites |pmid=31234567}}</ref>',
        'Drone counts of seals are within five percent of counts made from the cliffs.<ref>{{cite arXiv |eprint=2101.00001 |title=Counting seals}}</ref>',
        'Seals have been painted by Cornish artists for two centuries.<ref>{{cite book |title=Seals of Cornwall |isbn=978-0-85025-234-5}}</ref>',
        '',
      ].join('\n'),
    );
    const bases = Object.entries(srv.bases).map(([k, v]) => `${k}=${v}`).join(',');
    const json = join(dir, 'report.json');
    const text = await runCli(['audit', article, '--no-index', '--fetch', '--no-wayback', '--cache', join(dir, 'cache'), '--api-base', bases, '--api-interval', '0', '--contact-email', 'editor@example.org', '--scorer', 'lexical', '--out', json, '--quiet']);
    const report = JSON.parse(await readFile(json, 'utf8')) as AuditReport;
    const byId = (re: RegExp) => report.citations.find((c) => re.test(JSON.stringify(c.source.ids ?? {})))!;
    for (const [re, api] of [[/10\.5555\/seal\.2021/, 'crossref'], [/31234567/, 'europepmc'], [/2101\.00001/, 'arxiv']] as const) {
      const c = byId(re);
      assert.ok(c, `a citation with ${re}`);
      assert.equal(c.source.status, 'found', `${re}: ${c.source.reason}`);
      assert.equal(c.source.via, 'api');
      assert.ok(c.source.attempts.some((a) => a.via === 'api' && a.outcome === 'found' && a.url.includes(`/${api}/`)), `${re} through ${api}`);
      assert.ok(c.verification, `${re} was scored`);
    }
    const book = byId(/978-0-85025-234-5/);
    assert.equal(book.source.status, 'no-url');
    assert.match(book.source.reason!, /Open Library: "Seals of Cornwall"/);
    // The contact e-mail reached the APIs.
    assert.ok(srv.hits.some((h) => h.includes('mailto=editor%40example.org')));
    assert.match(text, /sources: found 3, no-url 1/);
  });
});
