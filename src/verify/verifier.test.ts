/**
 * The verification pipeline end to end with the real offline models (USE + the trained heads) on indexes
 * built from the shipped samples: SciFact abstracts, and FEVER-format wiki pages for title matching,
 * hops and the FEVER scorer.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readFeverClaims, runFeverEval } from '../eval/run-fever.js';
import { readSciFactClaims, runSciFactEval } from '../eval/run-scifact.js';
import { loadEntailment, loadPairScorer, loadUse } from '../models/registry.js';
import type { VerifierModels } from './verifier.js';
import { Retriever } from '../retrieve/retriever.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { LABELS } from './types.js';
import { MODEL_INPUT_MAX_CHARS } from '../models/bounded-input.js';
import { columbiaVerdict, documentGroups, Verifier } from './verifier.js';
import { aggregateConcat, calibratorInputs, DEFAULT_AGGREGATE } from './aggregate.js';
import { counterClaims, twinMargin } from './counter-claims.js';
import type { EvidenceSentence } from './types.js';

describe('Verifier on real samples with the offline models', () => {
  let dir: string;
  let scifact: LanceStore;
  let fever: LanceStore;
  let models: Required<VerifierModels>;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-verify-'));
    models = { embedder: await loadUse(), scorer: await loadPairScorer('trained'), entailment: await loadEntailment('trained') };
    scifact = await LanceStore.open(join(dir, 'scifact'));
    await ingestSource(scifact, 'data/samples/scifact/corpus.jsonl', { format: 'scifact' });
    fever = await LanceStore.open(join(dir, 'fever'));
    await ingestSource(fever, 'data/samples/fever/wiki-pages-sample.jsonl', { format: 'fever' });
    // A page the Naples fixture links to, so the hop has somewhere to go (text written for this test).
    const linked = join(dir, 'linked.jsonl');
    const lines = '0\tHerculaneum was an ancient Roman town buried by the eruption of Mount Vesuvius in AD 79 .\tMount Vesuvius\tMount Vesuvius\n1\tIts ruins are a World Heritage Site .';
    await writeFile(linked, JSON.stringify({ id: 'Herculaneum', text: '', lines }) + '\n');
    await ingestSource(fever, linked, { format: 'fever' });
  });
  after(async () => {
    await scifact.close();
    await fever.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('returns a verdict with 5 evidence sentences that map back to their documents, and full provenance', async () => {
    const verifier = new Verifier(scifact, new Retriever(scifact, undefined), models);
    const claim = '1,000 genomes project enables mapping of genetic sequence variation consisting of rare variants with larger penetrance effects than common variants.';
    const v = await verifier.verify(claim);
    assert.ok((LABELS as readonly string[]).includes(v.label));
    assert.ok(v.confidence > 0 && v.confidence <= 1);
    assert.ok(Math.abs(v.probs.SUPPORTS + v.probs.REFUTES + v.probs['NOT ENOUGH INFO'] - 1) < 1e-6);
    assert.equal(v.evidence.length, 5);
    const docs = new Map((await scifact.getDocuments(v.evidence.map((e) => e.docId))).map((d) => [d.id, d]));
    for (const e of v.evidence) assert.equal(docs.get(e.docId)!.sentences[e.sentenceIndex], e.text);
    for (let i = 1; i < v.evidence.length; i++) assert.ok(v.evidence[i - 1]!.score >= v.evidence[i]!.score);
    assert.ok(v.documents.some((d) => d.docId === '14717500'), 'the cited abstract is a candidate');
    assert.equal(v.provenance.snapshot, await scifact.snapshot());
    assert.deepEqual(v.provenance.models.map((m) => m.id), [models.scorer.info.id, models.entailment.info.id]);
    assert.match(v.provenance.configHash, /^[0-9a-f]{12}$/);
    const again = await verifier.verify(claim);
    assert.deepEqual(again.evidence, v.evidence, 'deterministic');
    assert.equal(again.provenance.configHash, v.provenance.configHash);
    const other = new Verifier(scifact, new Retriever(scifact, undefined), models, { evidence: { mode: 'document' } });
    assert.notEqual((await other.provenance()).configHash, v.provenance.configHash, 'configuration changes the hash');
  });

  it('both rules say how each evidence sentence alone reads the claim; concat decides on the sentences joined', async () => {
    const claim = 'Alendronate reduces the risk of fractures.';
    const verifierFor = (rule: 'columbia' | 'concat') => new Verifier(scifact, new Retriever(scifact, undefined), models, { verdict: { rule, across: 'pooled' } });
    const concatVerifier = verifierFor('concat');
    const concat = await concatVerifier.verify(claim);
    const columbia = await verifierFor('columbia').verify(claim);
    assert.deepEqual(concat.evidence.map((e) => e.text), columbia.evidence.map((e) => e.text), 'same evidence');
    for (const [c, k] of concat.evidence.map((e, i) => [e, columbia.evidence[i]!] as const)) {
      assert.ok(c.entailment && k.entailment, 'every sentence carries its own entailment');
      assert.ok(Math.abs(c.entailment.entailment - k.entailment.entailment) < 1e-6, 'read alone, the same under both rules');
    }
    // The concat verdict is the rule applied to the one reading of the joined sentences, with the twin
    // margin against the claim's counter-claims read on the same sentences when the calibration reads it.
    const premise = concat.evidence.map((e) => e.text).join(' ');
    const cfg = concatVerifier.config.verdict;
    const counters = cfg.calibrator && calibratorInputs(cfg.calibrator).includes('twinMargin') ? counterClaims(claim) : [];
    assert.ok(counters.includes('Alendronate increases the risk of fractures.'), `the shipped calibration reads the twin margin: ${JSON.stringify(counters)}`);
    const read = await concatVerifier.readEntailment([claim, ...counters].map((hypothesis) => ({ premise, hypothesis })));
    const expected = aggregateConcat(read[0]!, cfg, concat.evidence[0]!.score, { twinMargin: twinMargin(read[0]!, read.slice(1)) ?? 0 });
    // The verdict says what that evidence makes of the claim's most entailed opposite.
    if (concat.label !== 'NOT ENOUGH INFO') {
      const best = read.slice(1).reduce((b, p, i, all) => (p.entailment > all[b]!.entailment ? i : b), 0);
      assert.equal(concat.opposite?.text, counters[best]);
      assert.ok(Math.abs(concat.opposite!.entailment - read[best + 1]!.entailment) < 1e-6 && Math.abs(concat.opposite!.claimEntailment - read[0]!.entailment) < 1e-6, JSON.stringify(concat.opposite));
    } else assert.equal(concat.opposite, undefined);
    assert.equal(concat.label, expected.label);
    for (const l of LABELS) assert.ok(Math.abs(concat.probs[l] - expected.probs[l]) < 1e-6, l);
  });

  it('a stored run-on "sentence" of 200k characters comes back as evidence no longer than the models read', async () => {
    const store = await LanceStore.open(join(dir, 'runon'));
    try {
      const runOn = Array.from({ length: 20_000 }, (_, i) => `bisphosphonate${i % 7} reduces fracture risk`).join(' ').slice(0, 200_000);
      const file = join(dir, 'runon.jsonl');
      // Given sentences are kept exactly (ids are positions): the stored sentence stays 200k characters.
      await writeFile(file, JSON.stringify({ id: 'runon', title: 'Run-on page', sentences: ['Alendronate reduces hip fractures in older women.', runOn] }) + '\n');
      await ingestSource(store, file, { format: 'jsonl' });
      const [doc] = await store.getDocuments(['runon']);
      assert.equal(doc!.sentences[1]!.length, 200_000);
      const v = await new Verifier(store, new Retriever(store, undefined), models).verifyAgainst('Alendronate reduces fracture risk.', ['runon']);
      const long = v.evidence.find((e) => e.sentenceIndex === 1);
      assert.ok(long, 'the run-on sentence is among the evidence');
      assert.ok(long.text.length <= MODEL_INPUT_MAX_CHARS && long.text.length > MODEL_INPUT_MAX_CHARS * 0.9, `${long.text.length} characters`);
      assert.ok(runOn.startsWith(long.text), 'a prefix of the stored sentence');
    } finally {
      await store.close();
    }
  });

  it('scores SciFact sample claims far above chance in the oracle setting', async () => {
    const verifier = new Verifier(scifact, new Retriever(scifact, undefined), models);
    const claims = (await readSciFactClaims('data/samples/scifact/claims_dev.jsonl')).slice(0, 40);
    const r = await runSciFactEval(verifier, claims, { setting: 'oracle' });
    // The cited abstracts hold the rationales: sentence selection must find many of them.
    assert.ok(r.metrics.sentence_selection.recall > 0.3, `selection recall ${r.metrics.sentence_selection.recall}`);
    assert.ok(r.labelAccuracy!.pairs >= 40);
    assert.ok(r.labelAccuracy!.accuracy > 0.4, `label accuracy ${r.labelAccuracy!.accuracy}`);
  });

  it('finds FEVER pages by entity title (disambiguated) and scores with the FEVER scorer', async () => {
    const verifier = new Verifier(fever, new Retriever(fever, undefined), models, { documents: { retrievalDocs: 1 } });
    const v = await verifier.verify('Fox 2000 Pictures released the film Soul Food.');
    const soul = v.documents.find((d) => d.docId === 'Soul_Food_-LRB-film-RRB-');
    assert.ok(soul?.via.includes('title'), 'found through its title "Soul Food (film)"');
    assert.equal(v.evidence[0]!.docId, 'Soul_Food_-LRB-film-RRB-');
    assert.equal(v.evidence[0]!.sentenceIndex, 0);

    const claimsFile = join(dir, 'fever-claims.jsonl');
    await writeFile(
      claimsFile,
      [
        { id: 1, label: 'SUPPORTS', claim: 'Soul Food was released by Fox 2000 Pictures.', evidence: [[[0, 0, 'Soul_Food_-LRB-film-RRB-', 0]]] },
        { id: 2, label: 'NOT ENOUGH INFO', claim: 'Morse code was invented in a submarine.', evidence: [[[0, null, null, null]]] },
      ].map((c) => JSON.stringify(c)).join('\n'),
    );
    const r = await runFeverEval(verifier, await readFeverClaims(claimsFile));
    assert.equal(r.score.n, 2);
    // Claim 1's gold sentence is the top evidence, so evidence recall is complete.
    assert.equal(r.score.recall, 1);
    assert.equal(r.predictions[0]!.predicted_evidence[0]![0], 'Soul_Food_-LRB-film-RRB-');
  });

  it('follows links of evidence pages when the hop is on', async () => {
    const hop = new Verifier(fever, new Retriever(fever, undefined), models, { documents: { retrievalDocs: 1, titleMatch: false, maxDocs: 1 }, hop: { enabled: true, weight: 0.5, maxDocs: 3 } });
    const noHop = new Verifier(fever, new Retriever(fever, undefined), models, { documents: { retrievalDocs: 1, titleMatch: false, maxDocs: 1 } });
    const claim = 'Naples is near the ruins of a Roman town buried by a volcano.';
    const a = await noHop.verify(claim);
    const b = await hop.verify(claim);
    const docsA = new Set(a.evidence.map((e) => e.docId));
    const docsB = new Set(b.evidence.map((e) => e.docId));
    assert.equal(docsA.size, 1);
    assert.ok(docsB.has('Herculaneum'), `hop reached the linked page: ${[...docsB].join(', ')}`);
    const hopped = b.evidence.find((e) => e.docId === 'Herculaneum')!;
    assert.ok(hopped.score <= 0.5, 'evidence from a linked page is down-weighted');
  });
});

describe('verdict across documents', () => {
  const sentence = (docId: string, score: number, entailment: number, contradiction: number): EvidenceSentence => ({
    docId,
    title: `Title of ${docId}`,
    sentenceIndex: 0,
    text: `a sentence of ${docId}`,
    score,
    entailment: { entailment, contradiction, neutral: 1 - entailment - contradiction },
  });
  // The most relevant document contradicts the claim; a less relevant one supports it.
  const evidence = [sentence('A', 0.9, 0.05, 0.9), sentence('A', 0.7, 0.1, 0.2), sentence('B', 0.5, 0.9, 0.05)];
  it('by-document: the most relevant document that takes a side decides, and is named', () => {
    const d = columbiaVerdict(evidence, { ...DEFAULT_AGGREGATE, across: 'by-document' });
    assert.equal(d.label, 'REFUTES');
    assert.deepEqual(d.decidedBy, { docId: 'A', title: 'Title of A' });
    // A first document that takes no side passes the decision to the next one.
    const quiet = [sentence('A', 0.9, 0.1, 0.1), sentence('B', 0.5, 0.9, 0.05)];
    assert.deepEqual(columbiaVerdict(quiet, { ...DEFAULT_AGGREGATE, across: 'by-document' }), { label: 'SUPPORTS', probs: columbiaVerdict([quiet[1]!], { ...DEFAULT_AGGREGATE, across: 'by-document' }).probs, decidedBy: { docId: 'B', title: 'Title of B' } });
    // No document takes a side: NOT ENOUGH INFO, and no document is named as having decided it.
    const silent = [sentence('A', 0.9, 0.1, 0.1), sentence('B', 0.5, 0.1, 0.05)];
    const nei = columbiaVerdict(silent, { ...DEFAULT_AGGREGATE, across: 'by-document' });
    assert.equal(nei.label, 'NOT ENOUGH INFO');
    assert.equal(nei.decidedBy, undefined);
  });
  it('pooled reads every sentence at once (a supporting sentence anywhere wins) and names no document; one document names none either', () => {
    const d = columbiaVerdict(evidence, { ...DEFAULT_AGGREGATE, across: 'pooled' });
    assert.equal(d.label, 'SUPPORTS');
    assert.equal(d.decidedBy, undefined);
    assert.equal(columbiaVerdict(evidence.slice(0, 2), { ...DEFAULT_AGGREGATE, across: 'by-document' }).decidedBy, undefined);
  });
  it('by-rank: the first document in retrieval order that takes a side decides, whatever its evidence score', () => {
    const cfg = { ...DEFAULT_AGGREGATE, across: 'by-rank' as const };
    // Retrieval ranked B above A: B's support decides although A's sentences score higher as evidence.
    const d = columbiaVerdict(evidence, cfg, ['B', 'A']);
    assert.equal(d.label, 'SUPPORTS');
    assert.deepEqual(d.decidedBy, { docId: 'B', title: 'Title of B' });
    assert.deepEqual(columbiaVerdict(evidence, cfg, ['A', 'B']).decidedBy, { docId: 'A', title: 'Title of A' });
    // A document retrieval did not rank (a hop) goes after the ranked ones; without an order, evidence order.
    assert.deepEqual(documentGroups(evidence, 'by-rank', ['B']).map((g) => g[0]!.docId), ['B', 'A']);
    assert.deepEqual(documentGroups(evidence, 'by-rank').map((g) => g[0]!.docId), ['A', 'B']);
    assert.deepEqual(documentGroups(evidence, 'pooled').map((g) => g.length), [3]);
  });
});
