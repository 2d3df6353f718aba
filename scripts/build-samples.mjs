#!/usr/bin/env node
/**
 * Rebuilds the extracted samples in data/samples/ from the full datasets (deterministic: same input, same
 * bytes). Hand-written fixtures (fever/wiki-pages-sample.jsonl, kilt/, html/) are not touched.
 *   node scripts/build-samples.mjs [/work/shared/data]
 * Lines are copied byte for byte; only the choice of lines is computed.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = process.argv[2] ?? '/work/shared/data';
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'samples');
const lines = (p) => readFileSync(join(src, p), 'utf8').split('\n').filter((l) => l.trim() !== '');
const write = (p, ls) => {
  mkdirSync(dirname(join(out, p)), { recursive: true });
  writeFileSync(join(out, p), ls.map((l) => l + '\n').join(''));
  console.log(`${p}: ${ls.length} lines`);
};

// SciFact: the first 100 dev claims, the first 100 train claims, every abstract they cite, then the first
// other abstracts in file order up to CORPUS_SIZE as distractors.
const CORPUS_SIZE = 1000;
const dev = lines('scifact/claims_dev.jsonl').slice(0, 100);
const train = lines('scifact/claims_train.jsonl').slice(0, 100);
const cited = new Set();
for (const l of [...dev, ...train]) {
  const c = JSON.parse(l);
  for (const id of c.cited_doc_ids ?? []) cited.add(String(id));
  for (const id of Object.keys(c.evidence ?? {})) cited.add(id);
}
// Abstracts the user-facing verification cases need (test/verify-cases.test.ts, issue 11): alendronate and
// fracture risk, smoking and lung cancer risk, statins and hip fracture risk.
const CASE_DOCS = ['11246427', '16422880', '26067999', '4687948'];
for (const id of CASE_DOCS) cited.add(id);
const corpus = lines('scifact/corpus.jsonl');
const keep = new Set();
for (const l of corpus) {
  const id = String(JSON.parse(l).doc_id);
  if (cited.has(id)) keep.add(id);
}
const missing = [...cited].filter((id) => !keep.has(id));
if (missing.length) throw new Error(`cited abstracts missing from the corpus: ${missing.join(', ')}`);
for (const l of corpus) {
  if (keep.size >= CORPUS_SIZE) break;
  keep.add(String(JSON.parse(l).doc_id));
}
write('scifact/claims_dev.jsonl', dev);
write('scifact/claims_train.jsonl', train);
write('scifact/corpus.jsonl', corpus.filter((l) => keep.has(String(JSON.parse(l).doc_id))));
console.log(`  ${cited.size} cited or case abstracts, ${keep.size - cited.size} distractors`);

// WiCE: the first 30 dev claims, their retrieval queries (same order, checked by id) and gold documents.
const claims = lines('wice/claim_dev.jsonl').slice(0, 30);
const queries = lines('wice/retrieval_dev_queries.jsonl').slice(0, 30);
claims.forEach((l, i) => {
  if (JSON.parse(l).meta.id !== JSON.parse(queries[i]).id) throw new Error(`WiCE claim/query ${i} do not match`);
});
const gold = new Set(queries.map((l) => JSON.parse(l).gold_doc_id));
write('wice/claim_dev.jsonl', claims);
write('wice/retrieval_dev_queries.jsonl', queries);
write('wice/retrieval_dev_corpus.jsonl', lines('wice/retrieval_dev_corpus.jsonl').filter((l) => gold.has(JSON.parse(l).doc_id)));

write('fever/paper_dev.jsonl', lines('fever/paper_dev.jsonl').slice(0, 200));
write('nli/snli_sample.jsonl', lines('nli/snli/snli_dev.jsonl').slice(0, 300));

// Wikitext articles with many <ref> citations (for the citation audit).
for (const name of ['Bodmin.txt', 'Arts_Club_of_Chicago.txt', 'raith_rovers.txt', 'Elizabeth-Gilbert.txt', 'julia_kristeva.txt']) {
  mkdirSync(join(out, 'wikitext'), { recursive: true });
  copyFileSync(join(src, 'wikitext', name), join(out, 'wikitext', name));
  console.log(`wikitext/${name}`);
}
