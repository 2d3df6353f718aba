/**
 * A large article through the API (issue 27): the server keeps answering while it reads one (the parse
 * runs in a parse worker, issue 35), and audit.maxCitations fails a job whose article has more
 * citations, naming the setting, after reading only one citation past it.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JobCreatedResponse } from './schemas.js';
import { FakeAuditService } from './testing/fake-audit.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, postJson, readSse, type TestIndex } from './testing/harness.js';
import { startTestServer } from './testing/harness.js';
import { syntheticWikitext } from './testing/large-article.js';
import { auditArticle } from './testing/sample-index.js';

let ix: TestIndex;
let n = 0;
before(async () => {
  ix = await makeTestIndex('veracite-large-audit-');
});
after(async () => ix.cleanup());
const dataDir = () => join(ix.root, `data-${++n}`);

async function submit(url: string, body: unknown) {
  const res = await postJson(`${url}/v1/audits`, body);
  assert.equal(res.status, 202, await res.clone().text());
  return JobCreatedResponse.parse(await res.json());
}

describe('large audits', () => {
  it("GET /v1/health is answered again and again while a 1.7 MB article is being parsed", async (t) => {
    const server = await startTestServer(ix.index, fakeModels(), { dataDir: dataDir(), bodyLimit: 8 * 1024 * 1024, shutdownGraceMs: 100, settings: { audit: { maxCitations: 5000 } } }, () => new FakeAuditService(1000));
    try {
      const body = JSON.stringify({ wikitext: syntheticWikitext({ refs: 3000 }).text, title: 'Large' });
      // POST /v1/audits reads the article (in a parse worker) before it answers 202
      let posted = false;
      const submitted = postJson(`${server.url}/v1/audits`, body).finally(() => (posted = true));
      let answeredWhileParsing = 0;
      while (!posted) {
        const res = await fetch(`${server.url}/v1/health`);
        assert.equal(res.status, 200);
        await res.arrayBuffer();
        if (!posted) answeredWhileParsing++;
      }
      const res = await submitted;
      assert.equal(res.status, 202, await res.clone().text());
      const job = JobCreatedResponse.parse(await res.json());
      // A parse that held the event loop would let at most the one request already in flight through.
      assert.ok(answeredWhileParsing >= 3, `${answeredWhileParsing} health checks answered while the article was parsed`);
      t.diagnostic(`${answeredWhileParsing} health checks answered while the article was parsed`);
      for (let k = 0; k < 100 && !server.ctx.jobs.get(job.id)?.article; k++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(server.ctx.jobs.get(job.id)!.article!.citations > 2900);
    } finally {
      await server.close();
    }
  });

  it('audit.maxCitations fails a job whose article has more citations, naming the setting; one at the cap runs', async () => {
    const server = await startTestServer(ix.index, fakeModels(), { dataDir: dataDir(), settings: { audit: { maxCitations: 3 } } }, () => new FakeAuditService(1));
    try {
      const over = auditArticle(6);
      const job = await submit(server.url, { wikitext: over.wikitext, title: over.title });
      const done = (await readSse(`${server.url}${job.links.events}`)).at(-1)!;
      assert.equal((done.data as { status: string }).status, 'failed');
      assert.match((done.data as { error: string }).error, /^audit\.maxCitations: "Sample findings" has more than 3 citations, the most one audit checks/);
      assert.match((done.data as { error: string }).error, /serve --max-citations/);

      const at = auditArticle(3);
      const ok = await submit(server.url, { wikitext: at.wikitext, title: at.title });
      const last = (await readSse(`${server.url}${ok.links.events}`)).at(-1)!;
      assert.deepEqual([(last.data as { status: string }).status, (last.data as { total: number }).total], ['done', 3]);
    } finally {
      await server.close();
    }
  });
});
