/**
 * Guards of the composition root: one set of settings builds one pipeline, whichever front end asks.
 *  - `veracite audit` and `veracite serve` give the same audit configuration hash for the same settings
 *    (they used to differ: union vs weighted fusion, calibration found differently);
 *  - the API serves dense and hybrid search on an index with vectors whatever the server's default mode;
 *  - errors from the core name the setting, and the CLI names the flag.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditReport } from '../src/audit/types.js';
import { Veracite } from '../src/app/veracite.js';
import { messageOf } from '../src/cli/main.js';
import { runCli } from '../src/cli/testing/run-cli.js';
import { fakeModels, FakeEmbedder } from '../src/server/testing/fake-models.js';
import { postJson, readSse } from '../src/server/testing/harness.js';
import { startServer } from '../src/server/start.js';
import { SettingsError } from '../src/util/settings-error.js';

const ARTICLE = 'test/fixtures/audit/pendrick.wikitext';
const CORPUS = 'test/fixtures/audit/pendrick-corpus.jsonl';

const cli = (args: string[]): Promise<string> => runCli(args);

describe('one pipeline for every front end', () => {
  let dir: string;
  let bm25Index: string;
  let denseIndex: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-composition-'));
    bm25Index = join(dir, 'bm25');
    const w = await Veracite.open({ index: { dir: bm25Index } }, { create: true });
    await w.ingest(CORPUS, { format: 'jsonl' });
    await w.close();
    // Vectors from a small deterministic embedder (the fake one): the API test needs vectors, not quality.
    denseIndex = join(dir, 'dense');
    const d = await Veracite.open({ index: { dir: denseIndex } }, { create: true, models: { embedder: new FakeEmbedder() } });
    await d.ingest(CORPUS, { format: 'jsonl', dense: true });
    await d.close();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('the CLI audit and the server audit report the same configuration hash for the same settings', async () => {
    const json = join(dir, 'report.json');
    const flags = ['--scorer', 'lexical', '--granularity', 'passage', '--rerank', '4'];
    await cli(['audit', ARTICLE, '--index', bm25Index, '--title', 'Pendrick Lighthouse', ...flags, '--out', json, '--quiet']);
    const report = JSON.parse(await readFile(json, 'utf8')) as AuditReport;

    const vc = await Veracite.open({ index: { dir: bm25Index }, models: { scorer: 'lexical' }, scoring: { granularity: 'passage' }, audit: { candidates: 4 } }, { models: { entailment: fakeModels().entailment } });
    const server = await startServer({ port: 0, dataDir: join(dir, 'server') }, vc);
    try {
      const created = (await (await postJson(`${server.url}/v1/audits`, { wikitext: await readFile(ARTICLE, 'utf8'), title: 'Pendrick Lighthouse' })).json()) as { id: string };
      await readSse(`${server.url}/v1/audits/${created.id}/events`, { stopAt: (e) => e.event === 'done' });
      const job = (await (await fetch(`${server.url}/v1/audits/${created.id}`)).json()) as { status: string; provenance: { configHash: string; models: { id: string }[] }; results: { verifiability: number | null }[] };
      assert.equal(job.status, 'done');
      assert.equal(job.provenance.configHash, report.provenance.configHash);
      assert.deepEqual(job.provenance.models.map((m) => m.id), report.provenance.models.map((m) => m.id));
      // Same pipeline, same scores.
      const cliScores = report.citations.map((c) => c.verification?.score ?? null).sort();
      const apiScores = job.results.map((r) => r.verifiability).sort();
      assert.deepEqual(apiScores, cliScores);
    } finally {
      await server.close();
    }
  });

  it('a server started in bm25 mode still serves dense and hybrid search on an index with vectors', async () => {
    const models = fakeModels();
    const vc = await Veracite.open({ index: { dir: denseIndex }, retrieval: { mode: 'bm25' }, models: { scorer: 'lexical' } }, { models: { embedder: models.embedder, entailment: models.entailment } });
    const server = await startServer({ port: 0, dataDir: join(dir, 'server-dense') }, vc);
    try {
      for (const mode of ['bm25', 'dense', 'hybrid']) {
        const res = await fetch(`${server.url}/v1/search?q=${encodeURIComponent('lighthouse built in 1859')}&mode=${mode}`);
        assert.equal(res.status, 200, `${mode}: ${await res.clone().text()}`);
        const body = (await res.json()) as { mode: string; documents: unknown[] };
        assert.equal(body.mode, mode);
        assert.ok(body.documents.length > 0, mode);
      }
    } finally {
      await server.close();
    }
  });

  it('dense search on an index without vectors is a 400 naming the request field, never a 500', async () => {
    const models = fakeModels();
    const vc = await Veracite.open({ index: { dir: bm25Index }, models: { scorer: 'lexical' } }, { models: { embedder: models.embedder, entailment: models.entailment } });
    const server = await startServer({ port: 0, dataDir: join(dir, 'server-bm25') }, vc);
    try {
      const res = await fetch(`${server.url}/v1/search?q=lighthouse&mode=dense`);
      assert.equal(res.status, 400);
      const body = (await res.json()) as { error: string; issues: { path: string }[]; message: string };
      assert.equal(body.issues[0]!.path, 'mode');
      assert.match(body.message, /need an index with vectors; this one has none/);
    } finally {
      await server.close();
    }
  });

  it('errors from the core name the setting; the CLI shows the flag', async () => {
    await assert.rejects(Veracite.open({ index: { dir: bm25Index }, retrieval: { mode: 'hybrid' } }), (e: unknown) => e instanceof SettingsError && e.setting === 'retrieval.mode');
    await assert.rejects(Veracite.open({ index: { dir: bm25Index }, models: { nli: 'lexical' } }), (e: unknown) => e instanceof SettingsError && e.setting === 'models.nli');
    const err = await Veracite.open({ index: { dir: bm25Index }, retrieval: { mode: 'dense' } }).catch((e: Error) => e);
    assert.match(messageOf(err as Error), /^--mode: "dense" needs an index with vectors/);
    // A read command on a missing index refuses, and says how to build one.
    await assert.rejects(Veracite.open({ index: { dir: join(dir, 'nothere') } }), /no veracite index here/);
  });
});
