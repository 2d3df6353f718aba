import { BAND_THRESHOLDS } from '../verify/decision.js';
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { loadCalibration } from '../audit/calibration.js';
import type { AuditReport } from '../audit/types.js';
import { runCli } from './testing/run-cli.js';
import { messageOf } from './main.js';
import { SourceRanker } from '../audit/source-ranker.js';
import { startPageServer } from '../../test/fixtures/audit/page-server.js';

const ARTICLE = 'test/fixtures/audit/pendrick.wikitext';
const CORPUS = 'test/fixtures/audit/pendrick-corpus.jsonl';
const WICE = 'test/fixtures/audit/wice-sample.jsonl';

const run = (args: string[]): Promise<string> => runCli(args);

describe('veracite audit / calibrate (CLI, end to end)', () => {
  let dir: string;
  let index: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-audit-cli-'));
    index = join(dir, 'idx');
    const store = await LanceStore.open(index);
    await ingestSource(store, CORPUS, { format: 'jsonl' });
    await store.close();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('calibrate writes a threshold and curve for both positive definitions', async () => {
    const cal = join(dir, 'cal.json');
    const text = await run(['calibrate', '--data', WICE, '--scorer', 'lexical', '--out', cal, '--quiet']);
    assert.match(text, /not_supported: threshold/);
    const file = await loadCalibration(cal);
    assert.equal(file.data.n, 9);
    assert.deepEqual(Object.keys(file.definitions).sort(), ['not_or_partially_supported', 'not_supported']);
    const d = file.definitions['not_supported']!;
    assert.ok(Number.isFinite(d.threshold));
    assert.ok(d.curve.length > 1);
    assert.equal(d.positivesCount, 3);
    assert.equal(file.definitions['not_or_partially_supported']!.positivesCount, 6);
    assert.match(file.command, /^veracite calibrate --data /);
  });

  it('audit writes JSON, a self-contained HTML report sorted least verifiable first, and WAFER records', async () => {
    const json = join(dir, 'report.json');
    const html = join(dir, 'report.html');
    const kilt = join(dir, 'citations.jsonl');
    const summary = await run(['audit', ARTICLE, '--index', index, '--title', 'Pendrick Lighthouse', '--scorer', 'lexical', '--threshold', '0.3', '--out', json, '--html', html, '--kilt', kilt, '--quiet']);
    assert.match(summary, /Pendrick Lighthouse: 7 citations/);
    const report = JSON.parse(await readFile(json, 'utf8')) as AuditReport;
    assert.equal(report.citations.length, 7);
    assert.equal(report.provenance.flagging.threshold, 0.3);
    assert.ok(report.provenance.snapshot);
    assert.equal(report.citations[2]!.verification!.flagged, true);

    const page = await readFile(html, 'utf8');
    assert.ok(page.startsWith('<!DOCTYPE html>'));
    assert.doesNotMatch(page, /<script|<link[^>]+stylesheet|<img|@import|url\(/i, 'no scripts or external assets');
    assert.match(page, /<style>/);
    // Scored claims appear in ascending score order; unscored ones (not found, no URL) after them.
    const scored = report.citations.filter((c) => c.verification).sort((a, b) => a.verification!.score - b.verification!.score || a.index - b.index);
    const positions = scored.map((c) => page.indexOf(`id="c${c.index}"`));
    assert.ok(positions.every((p) => p > 0));
    assert.deepEqual([...positions].sort((a, b) => a - b), positions, 'least verifiable first');
    for (const c of report.citations.filter((c) => !c.verification)) assert.ok(page.indexOf(`id="c${c.index}"`) > positions.at(-1)!);
    assert.match(page, /The tower is 26 metres tall and painted white\./);
    assert.match(page, /<mark>tower<\/mark>/, 'claim words highlighted in evidence');
    assert.match(page, /Source: not-found/);
    assert.match(page, /Likely fails verification: the cited source does not appear to support this claim\./);
    assert.doesNotMatch(page, /likely failed verification/, 'one wording of the flag');
    assert.match(page, /<span class="num" title="citation 3 in the article">#3<\/span>/, 'numbered as in the article');

    const records = (await readFile(kilt, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { input: string; output: { provenance: { url: string }[] }[] });
    assert.equal(records.length, 6, 'the book without URL is left out');
    assert.ok(records[0]!.input.endsWith('[CIT]'));
  });

  it('audit flags with a matching calibration file and refuses a mismatching one', async () => {
    const cal = join(dir, 'cal.json');
    const json = join(dir, 'report2.json');
    await run(['audit', ARTICLE, '--index', index, '--title', 'Pendrick Lighthouse', '--scorer', 'lexical', '--calibration', cal, '--out', json, '--quiet', '--no-recommend']);
    const report = JSON.parse(await readFile(json, 'utf8')) as AuditReport;
    const threshold = (await loadCalibration(cal)).definitions['not_supported']!.threshold;
    assert.equal(report.provenance.flagging.threshold, threshold);
    // With the calibration's probability curve the flag is the one decision's not-supported band (verify/decision.ts, issue 36); without one, the raw threshold.
    for (const c of report.citations) if (c.verification) assert.equal(c.verification.flagged, c.verification.probability !== undefined ? c.verification.probability < BAND_THRESHOLDS.notSupportedBelow : c.verification.score <= threshold);
    assert.equal(report.citations[0]!.recommendations, undefined);

    const json3 = join(dir, 'report3.json');
    await run(['audit', ARTICLE, '--index', index, '--scorer', 'lexical', '--granularity', 'passage', '--calibration', cal, '--out', json3, '--quiet', '--no-recommend']);
    const r3 = JSON.parse(await readFile(json3, 'utf8')) as AuditReport;
    assert.match(r3.provenance.flagging.disabledReason!, /other settings/);
    assert.ok(r3.citations.every((c) => c.verification?.flagged === undefined));
  });

  it('audits a KILT/WAFER file', async () => {
    const kilt = join(dir, 'citations.jsonl');
    const json = join(dir, 'report-kilt.json');
    await run(['audit', kilt, '--index', index, '--scorer', 'lexical', '--out', json, '--quiet']);
    const report = JSON.parse(await readFile(json, 'utf8')) as AuditReport;
    assert.equal(report.article.format, 'kilt');
    assert.equal(report.article.title, 'Pendrick Lighthouse');
    assert.equal(report.citations.length, 6);
    assert.equal(report.citations[0]!.source.status, 'found');
  });

  it('refuses a URL article without --fetch, and a private-address article even with it', async () => {
    await assert.rejects(run(['audit', 'https://en.wikipedia.org/wiki/Pendrick', '--no-index', '--scorer', 'lexical', '--quiet']), (e: Error) => /^--fetch: .* live fetching is off/.test(messageOf(e)));
    await assert.rejects(run(['audit', 'http://127.0.0.1:9/wiki/Pendrick', '--fetch', '--no-index', '--scorer', 'lexical', '--quiet']), /blocked/);
  });

  it('--fetch never reaches a cited page on a private address (no allowlist on the command line)', async () => {
    const srv = await startPageServer({ '/page': (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<p>The tower is 26 metres tall.</p>') });
    try {
      const article = join(dir, 'local.wikitext');
      await writeFile(article, `The tower is 26 metres tall.<ref>{{cite web |url=${srv.origin}/page |title=Local}}</ref> It is white.<ref>{{cite web |url=http://169.254.169.254/latest/meta-data/ |title=Metadata}}</ref>\n`);
      const json = join(dir, 'local.json');
      await run(['audit', article, '--no-index', '--fetch', '--cache', join(dir, 'page-cache'), '--scorer', 'lexical', '--out', json, '--quiet']);
      const report = JSON.parse(await readFile(json, 'utf8')) as AuditReport;
      assert.deepEqual(report.citations.map((c) => c.source.status), ['blocked', 'blocked']);
      assert.ok(report.citations.every((c) => c.verification === undefined));
      assert.equal(srv.hits.length, 0);
    } finally {
      await srv.close();
    }
  });

  it('eval citation-detection runs on the WiCE sample', async () => {
    const out = join(dir, 'det.json');
    const text = await run(['eval', 'citation-detection', '--data', WICE, '--scorer', 'lexical', '--variants', 'sentence/none/all,passage/previous/8', '--out', out, '--quiet']);
    assert.match(text, /baseline bm25/);
    const r = JSON.parse(await readFile(out, 'utf8')) as { variants: { name: string }[]; urlDepthBaseline: string; provenance: { models: unknown[] } };
    assert.deepEqual(r.variants.map((v) => v.name), ['sentence/none/all', 'passage/previous/8']);
    assert.match(r.urlDepthBaseline, /no cited URL/);
    assert.equal(r.provenance.models.length, 1);
  });
});

describe('veracite train-ranker / ranker calibration (CLI, trained engine)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-ranker-cli-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('trains a ranker on claims with known cited pages, and eval citation-recovery scores it beside the held-out folds', async () => {
    const index = join(dir, 'pooled');
    const out = join(dir, 'ranker.json');
    const queries = 'test/fixtures/audit/pendrick-queries.jsonl';
    const text = await run(['train-ranker', '--index', index, '--corpus', CORPUS, '--queries', queries, '--folds', '2', '--embedding-cache', join(dir, 'emb'), '--out', out, '--quiet']);
    assert.match(text, /source ranker: 4 claims/);
    const ranker = await SourceRanker.load(out);
    assert.equal(ranker.file.training['claims'], 4);
    assert.match(String(ranker.file.training['command']), /^veracite train-ranker /);
    const result = join(dir, 'recovery.json');
    await run(['eval', 'citation-recovery', '--index', index, '--queries', queries, '--folds', '2', '--ranker', out, '--embedding-cache', join(dir, 'emb'), '--out', result, '--quiet']);
    const r = JSON.parse(await readFile(result, 'utf8')) as { methods: { method: string }[]; provenance: { models: { id: string }[] } };
    assert.deepEqual(r.methods.map((m) => m.method), ['bm25', 'dense', 'union', 'union+verify', 'union+ranker [cv]', 'union+ranker [shipped]']);
    assert.ok(r.provenance.models.some((m) => m.id === ranker.info.id));
    // --embedder reaches the pooled index's own-embedder rule: another model than the one that made its vectors is refused.
    await assert.rejects(run(['eval', 'citation-recovery', '--index', index, '--queries', queries, '--embedder', 'use', '--embedding-cache', join(dir, 'emb'), '--out', join(dir, 'never.json'), '--quiet']), (e: Error) => /the index's vectors were made by .*all-MiniLM-L6-v2.*not /.test(messageOf(e)));
  });

  it('refuses --ranker without --signal ranker, saying what to add', async () => {
    await assert.rejects(run(['calibrate', '--data', WICE, '--ranker', 'default', '--out', join(dir, 'never.json'), '--quiet']), (e: Error) => /^--ranker: only matters with --signal ranker.*add --signal ranker/.test(messageOf(e)));
  });

  it("calibrates on the ranker's score, and an audit with that calibration flags on it", async () => {
    const cal = join(dir, 'cal-ranker.json');
    await run(['calibrate', '--data', WICE, '--signal', 'ranker', '--ranker', 'default', '--out', cal, '--quiet']);
    const c = await loadCalibration(cal);
    assert.match(c.ranker!.id, /^veracite-source-ranker@/);
    const index = join(dir, 'idx');
    const store = await LanceStore.open(index);
    await ingestSource(store, CORPUS, { format: 'jsonl' });
    await store.close();
    const json = join(dir, 'audit.json');
    await run(['audit', ARTICLE, '--index', index, '--title', 'Pendrick Lighthouse', '--calibration', cal, '--out', json, '--quiet']);
    const report = JSON.parse(await readFile(json, 'utf8')) as AuditReport;
    const th = report.provenance.flagging.threshold!;
    assert.ok(Number.isFinite(th), JSON.stringify(report.provenance.flagging));
    assert.equal(report.provenance.flagging.signal, 'ranker');
    assert.ok(report.provenance.models.some((m) => m.id === c.ranker!.id));
    for (const r of report.citations.filter((x) => x.verification)) assert.equal(r.verification!.flagged, r.verification!.rankerScore! <= th);
    // Without an index there is no ranker: the ranker calibration is refused, scores come without flags.
    await run(['audit', ARTICLE, '--no-index', '--title', 'Pendrick Lighthouse', '--calibration', cal, '--out', json, '--quiet']);
    const bare = JSON.parse(await readFile(json, 'utf8')) as AuditReport;
    assert.match(bare.provenance.flagging.disabledReason!, /no ranker is loaded/);
  });
});
