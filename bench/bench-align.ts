/**
 * Cost of the alignment features per (claim, evidence sentence) pair on real SciFact pairs: wink analysis
 * of both texts (done once per distinct text in the heads) and the features themselves, plus the one-time
 * loads (WordNet files, word-vector cache). Prints and saves bench/results/align.json.
 *
 *   node --import tsx bench/bench-align.ts [--pairs 3000]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { alignFeatures, ALIGN_DIM, analyseForAlignment, alignResources } from '../src/models/align/index.js';
import { wordNet } from '../src/models/align/wordnet.js';
import { wordVectors } from '../src/models/align/word-vectors.js';

const { values } = parseArgs({ options: { pairs: { type: 'string', default: '3000' } } });
const max = Number(values.pairs);
const corpus = new Map(readFileSync('data/samples/scifact/corpus.jsonl', 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { doc_id: number; abstract: string[] }).map((d) => [d.doc_id, d.abstract]));
const pairs: [string, string][] = [];
for (const l of readFileSync('data/samples/scifact/claims_dev.jsonl', 'utf8').split('\n').filter(Boolean)) {
  const c = JSON.parse(l) as { claim: string; cited_doc_ids: number[] };
  for (const id of c.cited_doc_ids) for (const s of corpus.get(id) ?? []) if (pairs.length < max) pairs.push([c.claim, s]);
}
let t = performance.now();
wordNet();
const wordnetMs = performance.now() - t;
t = performance.now();
wordVectors();
const vectorsMs = performance.now() - t;
const res = alignResources();
// Warm-up (JIT, WordNet memo), then the timed passes.
for (const [c, e] of pairs.slice(0, 200)) alignFeatures(analyseForAlignment(c), analyseForAlignment(e), { idf: () => 5, unseen: 10, claimEntities: new Set(), evidenceEntities: new Set(), evidenceWords: new Set() }, new Float32Array(ALIGN_DIM), 0, res);
t = performance.now();
const analysed = pairs.map(([c, e]) => [analyseForAlignment(c), analyseForAlignment(e)] as const);
const analysisMs = (performance.now() - t) / pairs.length;
t = performance.now();
const out = new Float32Array(ALIGN_DIM);
for (const [c, e] of analysed) alignFeatures(c, e, { idf: () => 5, unseen: 10, claimEntities: new Set(), evidenceEntities: new Set(), evidenceWords: new Set() }, out, 0, res);
const featureMs = (performance.now() - t) / pairs.length;
const result = { pairs: pairs.length, wordnetLoadMs: wordnetMs, vectorLoadMs: vectorsMs, analysisMsPerPair: analysisMs, featuresMsPerPair: featureMs, node: process.version };
console.log(`alignment on ${pairs.length} SciFact dev (claim, sentence) pairs: wink analysis of both texts ${analysisMs.toFixed(3)} ms/pair, features ${featureMs.toFixed(3)} ms/pair; loads: WordNet ${wordnetMs.toFixed(0)} ms, word vectors ${vectorsMs.toFixed(0)} ms`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/align.json', JSON.stringify(result, null, 2) + '\n');
