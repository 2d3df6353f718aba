/**
 * The evaluators on data as a researcher brings it: renamed copies of the shipped samples in each shape
 * (SciFact claims, FEVER claims, WiCE claim records, WiCE / SciFact retrieval queries), copies written with
 * other label spellings, and broken copies. Results must carry the data's own name, compute the baselines
 * the data allows, and bad labels or document ids must stop the run before any work, listing every problem.
 *
 * The verifier here is an oracle that answers with the canonical gold of the shipped sample: with it every
 * score must be perfect, so an alias mapped to the wrong label, or a claim lost on the way, fails the test.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LexicalPairScorer } from '../models/lexical-scorer.js';
import { DEFAULT_SCORING } from '../audit/score-document.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import type { Verdict } from '../verify/types.js';
import type { DocumentVerdict } from '../verify/verifier.js';
import { DataProblemsError } from './data-problems.js';
import { datasetName } from './dataset-name.js';
import { setDocIds, storeDocIds } from './doc-ids.js';
import { checkQrelDocs, scifactTask, wiceTask } from './retrieval-data.js';
import { readWiceData, runCitationDetectionEval, type DetectionVariant } from './run-citation-detection.js';
import { readFeverData, runFeverEval, type FeverClaim } from './run-fever.js';
import { runRetrievalEval } from './run-retrieval.js';
import { DEFAULT_OPEN_DOCS, readSciFactData, runSciFactEval, type SciFactClaim } from './run-scifact.js';
import type { Retriever } from '../retrieve/retriever.js';

const SAMPLES = 'data/samples';
const lines = async (path: string) => (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim());
const write = (path: string, records: unknown[]) => writeFile(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');

/** Expect a DataProblemsError whose problems contain each fragment, on the given lines. */
async function rejectsListing(p: Promise<unknown>, expected: { line: number; text: string }[]): Promise<DataProblemsError> {
  let err: unknown;
  try {
    await p;
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof DataProblemsError, `expected a DataProblemsError, got ${String(err)}`);
  for (const x of expected) {
    assert.ok(
      err.problems.some((q) => q.line === x.line && `${q.field ?? ''} ${q.problem}`.includes(x.text)),
      `no problem "${x.text}" on line ${x.line} in:\n${err.message}`,
    );
    assert.match(err.message, new RegExp(`:${x.line} `));
  }
  return err;
}

describe('evaluators on renamed, aliased and broken copies of the shipped samples', () => {
  let dir: string;
  let scifactIndex: LanceStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-anydata-'));
    scifactIndex = await LanceStore.open(join(dir, 'scifact'));
    await ingestSource(scifactIndex, `${SAMPLES}/scifact/corpus.jsonl`, { format: 'scifact' });
  });
  after(async () => {
    await scifactIndex.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('SciFact-shaped claims (eval scifact)', () => {
    const SPELLING: Record<string, string> = { SUPPORT: 'SUPPORTED', CONTRADICT: 'REFUTE' };
    let original: Record<string, unknown>[];
    before(async () => {
      original = (await lines(`${SAMPLES}/scifact/claims_dev.jsonl`)).slice(0, 40).map((l) => JSON.parse(l));
      await write(join(dir, 'my-claims.jsonl'), original);
      // Other spellings, as citation-integrity derivatives write them; plus an NEI evidence entry.
      const aliased = original.map((c) => ({
        ...c,
        evidence: Object.fromEntries(Object.entries(c['evidence'] as Record<string, { label: string }[]>).map(([d, sets]) => [d, sets.map((s) => ({ ...s, label: SPELLING[s.label] }))])),
      }));
      const withNei = aliased.find((c) => Object.keys(c.evidence).length === 0 && (c as Record<string, unknown>)['cited_doc_ids'])! as Record<string, unknown>;
      withNei['evidence'] = { [String((withNei['cited_doc_ids'] as number[])[0])]: [{ sentences: [0], label: 'not_enough_info' }] };
      await write(join(dir, 'integrity-set.jsonl'), aliased);
    });

    /** Answers each (claim, abstract) with the shipped gold: first rationale's sentences and label. */
    const oracle = (gold: readonly SciFactClaim[], calls = { n: 0 }) => ({
      async verifyEachDocument(claim: string, docIds: string[]): Promise<DocumentVerdict[]> {
        calls.n++;
        const c = gold.find((g) => g.claim === claim)!;
        return docIds.map((docId) => {
          const sets = c.evidence[docId] ?? [];
          const label: Verdict['label'] = sets[0]?.label === 'SUPPORT' ? 'SUPPORTS' : sets[0]?.label === 'CONTRADICT' ? 'REFUTES' : 'NOT ENOUGH INFO';
          const probs = { SUPPORTS: 0, REFUTES: 0, 'NOT ENOUGH INFO': 0, [label]: 1 };
          return { docId, label, confidence: 1, probs, evidence: sets.flatMap((s) => s.sentences).map((sentenceIndex) => ({ sentenceIndex })) } as unknown as DocumentVerdict;
        });
      },
    });

    it('names the result after the file (or --name), and checks every cited id against the index', async () => {
      const data = await readSciFactData(join(dir, 'my-claims.jsonl'), { docIds: storeDocIds(scifactIndex) });
      assert.equal(data.name, 'my-claims');
      assert.equal(data.claims.length, 40);
      assert.equal((await readSciFactData(join(dir, 'my-claims.jsonl'), { name: 'citation integrity, batch 2' })).name, 'citation integrity, batch 2');
      const counts = data.labelCounts;
      assert.ok(counts.SUPPORT > 0 && counts.CONTRADICT > 0 && counts.NOT_ENOUGH_INFO > 0);
      const r = await runSciFactEval(oracle(data.claims), data.claims, { setting: 'oracle' });
      assert.equal(r.metrics.abstract_label_only.f1, 1);
      assert.equal(r.metrics.sentence_label.f1, 1);
      assert.equal(r.labelAccuracy!.accuracy, 1);
      assert.ok(r.labelAccuracy!.majorityBaseline < 1, 'the majority baseline is reported beside it');
    });

    it('the open setting labels the top DEFAULT_OPEN_DOCS retrieved abstracts unless told otherwise, and says how many', async () => {
      const data = await readSciFactData(join(dir, 'my-claims.jsonl'));
      const asked: number[] = [];
      // A retriever that ranks each claim's cited abstracts first, then the others.
      const all = [...new Set(data.claims.flatMap((c) => c.cited_doc_ids.map(String)))];
      const retriever = {
        async search(claim: string, o: { k: number }) {
          asked.push(o.k);
          const own = data.claims.find((c) => c.claim === claim)!.cited_doc_ids.map(String);
          return { documents: [...own, ...all.filter((d) => !own.includes(d))].slice(0, o.k).map((docId) => ({ docId })) };
        },
      } as unknown as Retriever;
      const r = await runSciFactEval(oracle(data.claims), data.claims, { setting: 'open', retriever });
      assert.equal(DEFAULT_OPEN_DOCS, 1);
      assert.deepEqual([...new Set(asked)], [1], 'one abstract asked for per claim');
      assert.equal(r.openDocs, 1);
      assert.equal(r.metrics.abstract_label_only.precision, 1, 'the top abstract is a cited one');
      const three = await runSciFactEval(oracle(data.claims), data.claims, { setting: 'open', retriever, openDocs: 3 });
      assert.equal(three.openDocs, 3);
      assert.deepEqual([...new Set(asked.slice(-data.claims.length))], [3]);
      assert.ok(three.metrics.abstract_label_only.recall >= r.metrics.abstract_label_only.recall);
    });

    it('reads other label spellings as the same gold: the oracle of the original scores perfectly on the aliased copy', async () => {
      const canonical = (await readSciFactData(join(dir, 'my-claims.jsonl'))).claims;
      const data = await readSciFactData(join(dir, 'integrity-set.jsonl'));
      assert.equal(data.name, 'integrity-set');
      assert.ok(data.relabelled > 0);
      assert.equal(data.droppedNeiEvidence, 1, 'an evidence entry labelled NEI is no evidence');
      assert.deepEqual(data.claims.map((c) => c.evidence), canonical.map((c) => c.evidence));
      const r = await runSciFactEval(oracle(canonical), data.claims, { setting: 'oracle' });
      assert.equal(r.metrics.abstract_rationalized.f1, 1);
    });

    it('unknown labels and documents missing from the index stop the run before any verifying, all listed', async () => {
      const bad = original.map((c) => structuredClone(c));
      const ev = (i: number) => bad[i]!['evidence'] as Record<string, { label: string }[]>;
      const withEvidence = bad.map((c, i) => (Object.keys(c['evidence'] as object).length ? i : -1)).filter((i) => i >= 0);
      const [a, b] = withEvidence as [number, number];
      const first = (i: number) => Object.values(ev(i))[0]![0]!;
      const [labelA, labelB] = [first(a).label, first(b).label];
      first(a).label = 'REFUTEZ';
      first(b).label = 'MAYBE';
      bad[5]!['cited_doc_ids'] = [...(bad[5]!['cited_doc_ids'] as number[]), 999999991];
      bad[7]!['cited_doc_ids'] = [999999992, ...(bad[7]!['cited_doc_ids'] as number[])];
      const path = join(dir, 'broken.jsonl');
      await write(path, bad);
      await rejectsListing(readSciFactData(path), [
        { line: a + 1, text: 'unknown label "REFUTEZ"' },
        { line: b + 1, text: 'unknown label "MAYBE"' },
      ]);
      // Labels fixed, ids still missing: every missing id is listed, with the line that cites it.
      first(a).label = labelA;
      first(b).label = labelB;
      await write(path, bad);
      const err = await rejectsListing(readSciFactData(path, { docIds: storeDocIds(scifactIndex) }), [
        { line: 6, text: '"999999991" is not in' },
        { line: 8, text: '"999999992" is not in' },
      ]);
      assert.ok(err.problems.length >= 2);
      assert.match(err.message, /Index the corpus these claims cite/);
    });
  });

  describe('FEVER-shaped claims (eval fever)', () => {
    const SPELLING: Record<string, string> = { SUPPORTS: 'Supported', REFUTES: 'REFUTE', 'NOT ENOUGH INFO': 'NEI' };
    let original: Record<string, unknown>[];
    before(async () => {
      original = (await lines(`${SAMPLES}/fever/paper_dev.jsonl`)).map((l) => JSON.parse(l));
      await write(join(dir, 'fever-claims.jsonl'), original);
      await write(join(dir, 'fever-aliased.jsonl'), original.map((c) => ({ ...c, label: SPELLING[c['label'] as string] })));
    });
    const oracle = (gold: readonly FeverClaim[]) => ({
      async verify(claim: string): Promise<Verdict> {
        const c = gold.find((g) => g.claim === claim)!;
        const group = c.label === 'NOT ENOUGH INFO' ? [] : c.evidence[0]!;
        return { label: c.label, evidence: group.map((e) => ({ docId: e[2], sentenceIndex: e[3] })) } as unknown as Verdict;
      },
    });

    it('names the result after the file, maps the aliases, and reports the majority baseline with the official scorer', async () => {
      const canonical = await readFeverData(join(dir, 'fever-claims.jsonl'));
      const data = await readFeverData(join(dir, 'fever-aliased.jsonl'));
      assert.equal(data.name, 'fever-aliased');
      assert.equal(data.relabelled, original.length);
      assert.deepEqual(data.labelCounts, canonical.labelCounts);
      assert.deepEqual(data.claims.map((c) => c.label), canonical.claims.map((c) => c.label));
      const r = await runFeverEval(oracle(canonical.claims), data.claims);
      assert.equal(r.score.strict_score, 1);
      assert.equal(r.score.acc_score, 1);
      assert.equal(r.majorityBaseline.label, 'REFUTES');
      assert.equal(r.majorityBaseline.score.acc_score, canonical.labelCounts.REFUTES / original.length);
    });

    it('evidence pages missing from the index are reported, not fatal (FEVER indexes are often subsets)', async () => {
      const pages = (await lines(`${SAMPLES}/fever/wiki-pages-sample.jsonl`)).map((l) => (JSON.parse(l) as { id: string }).id);
      const data = await readFeverData(join(dir, 'fever-claims.jsonl'), { docIds: setDocIds(pages) });
      const e = data.evidencePages!;
      assert.ok(e.referenced > e.missing.length && e.missing.length > 0);
      assert.ok(!e.missing.includes('Soul_Food_-LRB-film-RRB-'));
      assert.ok(e.claimsWithoutIndexedEvidence > 0);
    });

    it('unknown labels and malformed evidence are listed with their lines before anything runs', async () => {
      const bad = original.slice(0, 10).map((c) => structuredClone(c));
      bad[1]!['label'] = 'TRUE';
      bad[4]!['evidence'] = [[['x', 1, 'Page', 0]]];
      delete bad[6]!['claim'];
      const path = join(dir, 'fever-broken.jsonl');
      await write(path, bad);
      const err = await rejectsListing(readFeverData(path), [
        { line: 2, text: 'unknown label "TRUE"' },
        { line: 5, text: 'evidence[0][0]' },
        { line: 7, text: 'claim' },
      ]);
      assert.match(err.message, /NEI/, 'the accepted spellings are in the message');
    });
  });

  describe('WiCE-shaped claim records (eval citation-detection)', () => {
    const variants: DetectionVariant[] = [{ name: 'sentence/none/48', scoring: DEFAULT_SCORING, queryContext: 'none' }];
    let original: Record<string, unknown>[];
    before(async () => {
      original = (await lines(`${SAMPLES}/wice/claim_dev.jsonl`)).map((l) => JSON.parse(l));
    });
    const run = async (path: string, name?: string) => {
      const data = await readWiceData(path, name ? { name } : {});
      return { data, result: await runCitationDetectionEval({ data: path, name: data.name, claims: data.claims, relabelled: data.relabelled, scorer: new LexicalPairScorer(), variants }) };
    };

    it('a renamed copy: named after the file, lexical baselines, and says why there is no URL-depth baseline', async () => {
      const path = join(dir, 'reviewed-citations.jsonl');
      await write(path, original);
      const { result } = await run(path);
      assert.equal(result.name, 'reviewed-citations');
      assert.equal(result.n, 30);
      assert.deepEqual(result.labelCounts, { supported: 10, partially_supported: 13, not_supported: 7 });
      assert.deepEqual(result.baselines.map((b) => b.name), ['bm25', 'tfidf']);
      assert.match(result.urlDepthBaseline, /"reviewed-citations" carry no cited URL/);
      assert.doesNotMatch(JSON.stringify(result), /WiCE dev/);
      assert.equal((await run(path, 'my audit set')).result.name, 'my audit set');
    });

    it('records that carry the cited URL get the URL-depth baseline, on the records that have one', async () => {
      const depthOf = (l: string) => (l === 'supported' ? 'news/2019/05/story-about-the-claim' : l === 'partially_supported' ? 'about' : '');
      const all = original.map((r) => ({ ...r, meta: { ...(r['meta'] as object), url: `https://example.org/${depthOf(r['label'] as string)}` } }));
      const path = join(dir, 'with-urls.jsonl');
      await write(path, all);
      const { result } = await run(path);
      const url = result.baselines.find((b) => b.name === 'url-depth')!;
      assert.ok(url, 'url-depth baseline computed');
      assert.equal(url.metrics.not_supported.n, 30);
      // Depth orders the labels perfectly here: home pages are the unsupported ones.
      assert.equal(url.metrics.not_supported.rocAuc, 1);
      assert.match(result.urlDepthBaseline, /all 30 records/);

      const some = original.map((r, i) => (i % 3 ? r : { ...r, cited_url: `https://example.org/${depthOf(r['label'] as string)}` }));
      await write(join(dir, 'some-urls.jsonl'), some);
      const partial = (await run(join(dir, 'some-urls.jsonl'))).result;
      assert.equal(partial.baselines.find((b) => b.name === 'url-depth')!.metrics.not_supported.n, 10);
      assert.match(partial.urlDepthBaseline, /the 10 of 30 records/);
    });

    it('other label spellings give the same counts; a claim prefix adds the prefix variant', async () => {
      const SPELLING: Record<string, string[]> = { supported: ['SUPPORTED', 'Supports'], partially_supported: ['partial', 'Partially Supported'], not_supported: ['NOT_SUPPORTED', 'REFUTES'] };
      const aliased = original.map((r, i) => ({ ...r, label: SPELLING[r['label'] as string]![i % 2] }));
      // SIDE's text before the citation on a few records: the first clause of the claim.
      const withPrefix = aliased.map((r, i) => (i < 6 ? { ...r, claim_prefix: ((r as Record<string, unknown>)['claim'] as string).split(',')[0] } : r));
      const path = join(dir, 'aliased.jsonl');
      await write(path, withPrefix);
      const { data, result } = await run(path);
      assert.deepEqual(result.labelCounts, { supported: 10, partially_supported: 13, not_supported: 7 });
      assert.equal(result.relabelled, 30);
      assert.equal(data.withPrefix, result.withPrefix);
      assert.ok(result.withPrefix > 0 && result.withPrefix <= 6);
      assert.deepEqual(result.variants.map((v) => v.name), ['sentence/none/48', 'sentence/none/48 [claim prefix]']);
      assert.equal(result.variants[1]!.config.claimText, 'prefix');
      assert.notDeepEqual(result.variants[1]!.metrics, result.variants[0]!.metrics);
    });

    it('bad records are all listed with their lines before any scoring', async () => {
      const bad = original.map((r) => structuredClone(r));
      bad[2]!['label'] = 'mostly';
      bad[9]!['label'] = 'unclear';
      bad[11]!['evidence'] = 'a page';
      bad[20]!['meta'] = { ...(bad[20]!['meta'] as object), url: 42 };
      const path = join(dir, 'wice-broken.jsonl');
      await write(path, bad);
      await rejectsListing(readWiceData(path), [
        { line: 3, text: 'unknown label "mostly"' },
        { line: 10, text: 'unknown label "unclear"' },
        { line: 12, text: 'evidence' },
        { line: 21, text: 'url' },
      ]);
    });
  });

  describe('retrieval queries (eval retrieval, eval citation-recovery)', () => {
    it('tasks are named after their files; relevant documents missing from the index fail before any search', async () => {
      const claims = (await lines(`${SAMPLES}/scifact/claims_dev.jsonl`)).slice(0, 20);
      await writeFile(join(dir, 'lab-claims.jsonl'), claims.join('\n') + '\n');
      const task = await scifactTask(join(dir, 'lab-claims.jsonl'));
      assert.equal(task.name, 'lab-claims');
      await checkQrelDocs(task, storeDocIds(scifactIndex));
      const wice = await wiceTask(`${SAMPLES}/wice/retrieval_dev_queries.jsonl`);
      assert.equal(wice.name, 'retrieval_dev_queries');
      // The WiCE queries' gold pages are not in a SciFact index: every one is listed, nothing is searched.
      let searched = 0;
      const err = await rejectsListing(
        runRetrievalEval({ name: wice.name, data: 'retrieval_dev_queries.jsonl', queries: wice.queries, qrels: wice.qrels, k: 10, cutoffs: [10], docIds: storeDocIds(scifactIndex), search: async () => ((searched += 1), []) }),
        [],
      );
      assert.equal(err.problems.length, 30);
      assert.equal(searched, 0);
      assert.match(err.message, /query dev02986.*is not in the index/);
    });

    it('datasetName drops folders and extensions, and prefers the given name', () => {
      assert.equal(datasetName('/data/sets/claims_dev.jsonl.gz'), 'claims_dev');
      assert.equal(datasetName('x/my.claims.jsonl'), 'my.claims');
      assert.equal(datasetName('x/beir-folder/'), 'beir-folder');
      assert.equal(datasetName('x/claims.jsonl', '  Lab set  '), 'Lab set');
    });
  });
});
