import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Retriever } from '../retrieve/retriever.js';
import { SourceResolver } from '../sources/resolve-source.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { normalizeUrl } from '../store/url.js';
import { loadArticleInput } from './article-input.js';
import { CitationAuditor, type AuditDeps } from './audit.js';
import { flagRule, scoringHash, type CalibrationFile } from './calibration.js';
import { LexicalPairScorer } from '../models/lexical-scorer.js';
import { MemoEmbedder } from '../models/memo-embedder.js';
import { loadPairScorer, loadUse } from '../models/registry.js';
import { corpusStats } from './corpus-stats.js';
import { storedVectorsOf } from './rank-features.js';
import { SourceRanker, defaultRankerPath } from './source-ranker.js';
import type { AuditInput, AuditReport } from './types.js';

const ARTICLE = 'test/fixtures/audit/pendrick.wikitext';
const CORPUS = 'test/fixtures/audit/pendrick-corpus.jsonl';

describe('CitationAuditor on the fixture article (bm25 index, lexical scorer)', () => {
  let dir: string;
  let store: LanceStore;
  let input: AuditInput;
  let report: AuditReport;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-audit-'));
    store = await LanceStore.open(join(dir, 'idx'));
    await ingestSource(store, CORPUS, { format: 'jsonl' });
    input = await loadArticleInput(ARTICLE, { title: 'Pendrick Lighthouse' });
    const auditor = new CitationAuditor({
      scorer: new LexicalPairScorer(),
      resolver: new SourceResolver({ store }),
      store,
      retriever: new Retriever(store, undefined, { mode: 'bm25', fusion: { method: 'union' } }),
      retrievalMode: 'bm25',
      flag: { threshold: 0.3, source: 'test' },
    });
    report = await auditor.auditArticle(input);
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds cited pages by normalised URL and reports the others by status, never scored', () => {
    const status = report.citations.map((c) => c.source.status);
    assert.deepEqual(status, ['found', 'found', 'found', 'not-found', 'found', 'found', 'no-url']);
    for (const c of report.citations.filter((c) => c.source.status !== 'found')) assert.equal(c.verification, undefined, c.claim);
    assert.equal(report.citations[1]!.source.docId, 'history-1859', 'trailing slash and scheme differ');
    assert.deepEqual(report.summary.byStatus, { found: 5, 'not-found': 1, 'no-url': 1 });
  });

  it('scores supported claims high and flags the home-page citation', () => {
    const [lights, hist, home] = report.citations;
    assert.equal(lights!.verification!.score, 1);
    assert.equal(hist!.verification!.flagged, false);
    assert.ok(home!.verification!.score <= 0.3);
    assert.equal(home!.verification!.flagged, true);
    assert.equal(home!.urlDepth, 0);
    assert.equal(hist!.urlDepth, 1);
    assert.deepEqual(lights!.verification!.evidence[0], { sentenceIndex: 0, text: 'Pendrick Lighthouse stands on Pendrick Point in Cornwall, England.', score: lights!.verification!.evidence[0]!.score });
    assert.equal(report.summary.flagged, report.citations.filter((c) => c.verification?.flagged).length);
  });

  it('suggests the better source for the home-page citation, and sources for a citation whose page is not found', () => {
    const home = report.citations[2]!;
    assert.ok(home.recommendations!.existingRank! > 1);
    assert.equal(home.recommendations!.suggestions[0]!.docId, 'towers-pendrick');
    assert.ok(home.recommendations!.suggestions[0]!.bestPassage!.text.includes('26 metres'));
    const fog = report.citations[3]!;
    assert.equal(fog.recommendations!.existingRank, undefined);
    assert.equal(fog.recommendations!.suggestions[0]!.docId, 'fog-history');
  });

  it('never suggests the article itself or the existing source', () => {
    for (const c of report.citations) {
      const rec = c.recommendations!;
      assert.ok(rec.suggestions.length <= 3);
      for (const s of rec.suggestions) {
        assert.ok(s.score > 0.3, 'a candidate that would itself be flagged is no better source');
        assert.ok(!['wiki-pendrick', 'wiki-mirror'].includes(s.docId), `${c.claim}: suggested the article (${s.docId})`);
        if (c.source.docId) assert.notEqual(s.docId, c.source.docId);
        if (c.source.url && s.url) assert.notEqual(normalizeUrl(s.url), normalizeUrl(c.source.url));
      }
    }
    // The article copies were retrieved (they match every claim) and dropped for that reason.
    const reasons = report.citations.flatMap((c) => c.recommendations!.excluded.map((e) => e.reason));
    assert.ok(reasons.includes('the article itself'));
    assert.ok(reasons.includes('existing source'));
  });

  it('records provenance: snapshot, models, config hash, flag source', async () => {
    const p = report.provenance;
    assert.equal(p.snapshot, await store.snapshot());
    assert.equal(p.models[0]!.id, 'lexical-overlap');
    assert.match(p.configHash, /^[0-9a-f]{12}$/);
    assert.equal(p.flagging.threshold, 0.3);
  });

  it('uses a pre-resolved source when given one', async () => {
    const auditor = new CitationAuditor({ scorer: new LexicalPairScorer(), resolver: new SourceResolver({}) });
    const c = input.citations[3]!;
    const r = await auditor.auditCitation(c, { status: 'found', attempts: [], document: { id: 'pasted', title: 'Pasted', sentences: ['A fog signal was installed at Pendrick in 1902.'] } });
    assert.equal(r.verification!.score, 1);
    assert.equal(r.recommendations, undefined, 'no index, no suggestions');
  });
});

describe('flagRule', () => {
  const scorer = { id: 'lexical-overlap', version: '1', backend: 'lexical' };
  const scoring = { granularity: 'sentence' as const, maxWords: 100, preselect: 48, evidenceK: 3 };
  const cal = {
    format: 'veracite-calibration',
    configHash: scoringHash(scorer, scoring, 'none'),
    scorer,
    data: { path: 'wice', n: 9, labelCounts: {} },
    defaultDefinition: 'not_supported',
    definitions: { not_supported: { threshold: 0.42, criterion: 'max-f1' }, not_or_partially_supported: { threshold: 0.6, criterion: 'max-f1' } },
  } as unknown as CalibrationFile;

  it('takes the calibrated threshold only for the scorer and settings it was made with', () => {
    const ok = flagRule({ calibration: cal }, { scorer, scoring, queryContext: 'none' });
    assert.ok('threshold' in ok && ok.threshold === 0.42);
    const partial = flagRule({ calibration: cal, definition: 'not_or_partially_supported' }, { scorer, scoring, queryContext: 'none' });
    assert.ok('threshold' in partial && partial.threshold === 0.6);
    const other = flagRule({ calibration: cal }, { scorer: { ...scorer, id: 'veracite-evidence-use@x' }, scoring, queryContext: 'none' });
    assert.ok('reason' in other && /other settings/.test(other.reason));
    const ctx = flagRule({ calibration: cal }, { scorer, scoring, queryContext: 'full' });
    assert.ok('reason' in ctx);
    const explicit = flagRule({ calibration: cal, threshold: 0.1 }, { scorer, scoring, queryContext: 'full' });
    assert.ok('threshold' in explicit && explicit.threshold === 0.1);
    assert.ok('reason' in flagRule({}, { scorer, scoring, queryContext: 'none' }));
  });

  it("applies a ranker calibration to the ranker's score, only with that ranker loaded", () => {
    const ranker = { id: 'veracite-source-ranker@abc', version: 'sha256:abc', backend: 'trained' };
    const rcal = { ...cal, ranker, configHash: scoringHash(scorer, scoring, 'none', ranker) } as CalibrationFile;
    assert.notEqual(rcal.configHash, cal.configHash);
    const ok = flagRule({ calibration: rcal }, { scorer, scoring, queryContext: 'none', ranker });
    assert.ok('threshold' in ok && ok.signal === 'ranker' && ok.threshold === 0.42);
    const none = flagRule({ calibration: rcal }, { scorer, scoring, queryContext: 'none' });
    assert.ok('reason' in none && /no ranker is loaded/.test(none.reason));
    const other = flagRule({ calibration: rcal }, { scorer, scoring, queryContext: 'none', ranker: { ...ranker, id: 'veracite-source-ranker@def' } });
    assert.ok('reason' in other);
    // An engine calibration still applies to the engine's score when a ranker is loaded.
    const engine = flagRule({ calibration: cal }, { scorer, scoring, queryContext: 'none', ranker });
    assert.ok('threshold' in engine && engine.signal === 'engine');
  });

  it('carries the support signal\'s weights from a support calibration, and only from one', () => {
    const support = { id: 'veracite-nli-use@abc', version: 'sha256:abc', backend: 'trained' };
    const weights = { bias: -0.1, support: 0.5, similarity: 18 };
    const fit = { ...weights, inputs: 'x', fittedOn: { source: 'wice', n: 9, fails: 2 }, outOfFold: { folds: 5, seeds: [13], rocAuc: 0.8, precisionAt15Recall: 0.8, averagePrecision: 0.5, supportAlone: { rocAuc: 0.7, precisionAt15Recall: 0.6, averagePrecision: 0.4 } } };
    const scal = { ...cal, support, supportSignal: fit, configHash: scoringHash(scorer, scoring, 'none', undefined, support) } as CalibrationFile;
    const ok = flagRule({ calibration: scal }, { scorer, scoring, queryContext: 'none', support });
    assert.ok('threshold' in ok && ok.signal === 'support');
    assert.deepEqual(ok.supportSignal, weights);
    const none = flagRule({ calibration: scal }, { scorer, scoring, queryContext: 'none' });
    assert.ok('reason' in none && /no NLI head/.test(none.reason));
    // Weights in an engine calibration mean nothing: the engine's score is thresholded as it is.
    const engine = flagRule({ calibration: { ...cal, supportSignal: fit } as CalibrationFile }, { scorer, scoring, queryContext: 'none', support });
    assert.ok('threshold' in engine && engine.signal === 'engine' && engine.supportSignal === undefined);
  });
});

/** The default engine as the composition root builds it: the trained head over a memoising USE. */
async function trainedEngine() {
  const embedder = new MemoEmbedder(await loadUse());
  return { scorer: await loadPairScorer('trained', { use: embedder }), embedder, close: () => embedder.dispose() };
}

describe('CitationAuditor with the trained scorer (default engine)', () => {
  const weights = join(process.cwd(), 'models/evidence-head.json');
  it('scores a cited page that states the claim above an unrelated home page', { skip: !existsSync(weights) && 'models/evidence-head.json not built' }, async () => {
    const loaded = await trainedEngine();
    try {
      const input = await loadArticleInput(ARTICLE, { title: 'Pendrick Lighthouse' });
      const docs = new Map([
        ['lights', { id: 'lights', title: 'Pendrick Light', sentences: ['Pendrick Lighthouse stands on Pendrick Point in Cornwall, England.', 'The light can be seen for 20 nautical miles.'] }],
        ['home', { id: 'home', title: 'Example Shoes', sentences: ['Welcome to Example Shoes.', 'We sell running shoes and walking boots for all seasons.'] }],
      ]);
      const auditor = new CitationAuditor({ scorer: loaded.scorer, resolver: new SourceResolver({}) });
      const good = await auditor.auditCitation(input.citations[0]!, { status: 'found', attempts: [], document: docs.get('lights')! });
      const bad = await auditor.auditCitation(input.citations[0]!, { status: 'found', attempts: [], document: docs.get('home')! });
      assert.ok(good.verification!.score > bad.verification!.score + 0.3, `${good.verification!.score} vs ${bad.verification!.score}`);
      assert.equal(good.verification!.evidence[0]!.sentenceIndex, 0);
    } finally {
      await loaded.close();
    }
  });
});

describe('CitationAuditor with the shipped source ranker (trained engine)', () => {
  const ready = existsSync(join(process.cwd(), 'models/evidence-head.json')) && existsSync(defaultRankerPath());
  it('orders suggestions by the ranker and still finds the page that states the claim', { skip: !ready && 'model weights not built' }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-audit-ranker-'));
    const store = await LanceStore.open(join(dir, 'idx'));
    const loaded = await trainedEngine();
    try {
      await ingestSource(store, CORPUS, { format: 'jsonl' });
      const storedVectors = storedVectorsOf(store, loaded.embedder);
      const ranked = { ranker: await SourceRanker.loadFor(loaded.scorer.info, defaultRankerPath()), stats: await corpusStats(store, join(dir, 'idx')), embedder: loaded.embedder, ...(storedVectors ? { storedVectors } : {}) };
      const input = await loadArticleInput(ARTICLE, { title: 'Pendrick Lighthouse' });
      const deps: AuditDeps = {
        scorer: loaded.scorer,
        resolver: new SourceResolver({ store }),
        store,
        retriever: new Retriever(store, undefined, { mode: 'bm25', fusion: { method: 'union' } }),
        retrievalMode: 'bm25',
        ranker: ranked,
      };
      const report = await new CitationAuditor(deps).auditArticle(input);
      const home = report.citations[2]!;
      assert.equal(home.recommendations!.rankedBy, ranked.ranker.info.id);
      assert.equal(home.recommendations!.suggestions[0]!.docId, 'towers-pendrick');
      for (const c of report.citations) {
        const s = c.recommendations!.suggestions;
        for (let i = 1; i < s.length; i++) assert.ok(s[i - 1]!.rerankScore >= s[i]!.rerankScore);
      }
      // The ranker's statistics were cached beside the index for the next audit.
      assert.ok(existsSync(join(dir, 'idx', 'corpus-stats.json')));
      // Every scored citation carries the ranker's score of its cited page; the page that states the
      // claim gets more than the shoe shop's home page.
      const scored = report.citations.filter((c) => c.verification);
      assert.ok(scored.every((c) => Number.isFinite(c.verification!.rankerScore)));
      assert.ok(report.citations[0]!.verification!.rankerScore! > home.verification!.rankerScore!);

      // With a ranker calibration, the threshold applies to the ranker's score, also for suggestions.
      const threshold = home.verification!.rankerScore!;
      const flagged = await new CitationAuditor({ ...deps, flag: { threshold, source: 'test', signal: 'ranker' } }).auditArticle(input);
      for (const c of flagged.citations.filter((x) => x.verification)) {
        assert.equal(c.verification!.flagged, c.verification!.rankerScore! <= threshold, c.claim);
        for (const s of c.recommendations!.suggestions) assert.ok(s.rerankScore > threshold);
      }
      assert.equal(flagged.citations[2]!.verification!.flagged, true);
      assert.equal(flagged.citations[0]!.verification!.flagged, false);
    } finally {
      await loaded.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
