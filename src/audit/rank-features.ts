/**
 * Pair features of (claim in its article context, candidate source document) for the source ranker.
 * Every feature is computed from the claim and the document's own text (no first-stage rank or list
 * score), so the existing source, which may not be in the index at all, is scored on the same scale as
 * the retrieved candidates. Why each feature: the BM25 query with the article title finds the right
 * topic, but WiCE shows its mistakes are other pages cited by the same article; the features that look
 * at the claim alone (claim BM25, claim coverage, numbers) tell those pages apart.
 */
import { chunkPassages } from '../corpus/passages.js';
import type { Document, Passage } from '../corpus/types.js';
import { searchTextOf } from '../store/arrow-batch.js';
import type { Store } from '../store/types.js';
import type { Embedder, ModelInfo } from '../models/types.js';
import { buildQueries, type ClaimInContext } from '../retrieve/query-building.js';
import { contentTokens } from '../text/tfidf.js';
import { termCounts, type Bm25Stats } from '../text/bm25-stats.js';
import { wordCoverage } from '../text/coverage.js';

export const RANK_FEATURES = [
  /** Max over passages of BM25(sparse query: claim + article title), divided by the query's IDF mass. */
  'sparse',
  /** Max cosine of the dense query (title, section, context, claim) with a passage's index vector (USE of title + text). */
  'dense',
  /** Max over passages of BM25(claim alone), same scale as `sparse`. */
  'claimBm25',
  /** IDF-weighted share of the claim's words found anywhere in the document. */
  'claimCoverDocument',
  /** The same share, best single passage. */
  'claimCoverPassage',
  /** The share for the previous sentence + claim (resolves "he", "the album"), best passage. */
  'previousCoverPassage',
  /** The share of the claim + article title's words found in the document's title. */
  'titleCover',
  /** The share of the context's words found anywhere in the document. */
  'contextCoverDocument',
  /** The verification engine's document score (max passage score), as the caller computed it. */
  'engine',
  /** Share of the claim's numbers (years, counts) found in the document. */
  'numbers',
  /** log(1 + passages): long pages match more words by chance. */
  'passages',
] as const;
export type RankFeature = (typeof RANK_FEATURES)[number];
const DENSE = RANK_FEATURES.indexOf('dense');

/** The claim with its article context (an audit citation is one). */
export type RankQuery = ClaimInContext;

export interface RankCandidate {
  doc: Document;
  /** Verification engine score of the document (max passage); undefined = no text, scored as 0. */
  engineScore: number | undefined;
}

export interface RankFeatureDeps {
  stats: Bm25Stats;
  embedder: Embedder;
  /**
   * The index's stored passage vectors, when they come from `embedder` (same model): reused instead of
   * embedding again. A stored passage is used only when its text is the passage's text.
   */
  storedVectors?: (passageIds: string[]) => Promise<Map<string, { text: string; vector: Float32Array }>>;
  /** Passages per document embedded for `dense`: the best `sparse` matches (bounds the cost of long pages). */
  densePassages?: number;
  /** Passage size in words (SIDE: ~100). */
  maxWords?: number;
}

const NUMBER = /\d[\d,.]*\d|\d/g;

function numbersOf(text: string): Set<string> {
  return new Set((text.match(NUMBER) ?? []).map((x) => x.replace(/,/g, '')));
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** One feature row (in RANK_FEATURES order) per candidate. */
export async function rankFeatures(q: RankQuery, candidates: readonly RankCandidate[], deps: RankFeatureDeps): Promise<number[][]> {
  const { stats } = deps;
  const denseK = deps.densePassages ?? 8;
  const queries = buildQueries(q);
  const sparseNorm = stats.queryWeight(queries.sparse) || 1;
  const claimNorm = stats.queryWeight(q.claim) || 1;
  // BM25 counts repeated query words (as LanceDB's does); coverage uses each word once.
  const sparseQuery = contentTokens(queries.sparse);
  const claimQuery = contentTokens(q.claim);
  const uniq = (s: string) => [...new Set(contentTokens(s))];
  const claimToks = uniq(q.claim);
  const context = q.context ?? [];
  const previous = context.length ? `${context[context.length - 1]} ${q.claim}` : q.claim;
  const previousToks = uniq(previous);
  const titleToks = uniq(`${q.claim} ${q.articleTitle ?? ''}`);
  const contextToks = uniq(context.join(' '));
  const claimNumbers = numbersOf(q.claim);
  const idf = (t: string) => stats.idf(t);
  const cover = (words: readonly string[], have: { has(t: string): boolean }) => wordCoverage(words, have, idf);

  const rows: number[][] = [];
  const densePassages: Passage[][] = [];
  for (const c of candidates) {
    const chunks = chunkPassages(c.doc, { maxWords: deps.maxWords ?? 100 });
    const passages = chunks.map((p) => p.text);
    let sparse = 0;
    let claimBm25 = 0;
    let claimCoverPassage = 0;
    let previousCoverPassage = 0;
    const bySparse: { p: Passage; s: number }[] = [];
    const docWords = new Set<string>();
    for (const [i, text] of passages.entries()) {
      const counts = termCounts(contentTokens(text));
      const words = counts.tf;
      for (const w of words.keys()) docWords.add(w);
      const s = stats.scoreTokens(sparseQuery, counts) / sparseNorm;
      bySparse.push({ p: chunks[i]!, s });
      sparse = Math.max(sparse, s);
      claimBm25 = Math.max(claimBm25, stats.scoreTokens(claimQuery, counts) / claimNorm);
      claimCoverPassage = Math.max(claimCoverPassage, cover(claimToks, words));
      previousCoverPassage = Math.max(previousCoverPassage, cover(previousToks, words));
    }
    densePassages.push(bySparse.sort((a, b) => b.s - a.s).slice(0, denseK).map((x) => x.p));
    const docNumbers = numbersOf(c.doc.sentences.join(' '));
    let numbers = 0;
    for (const n of claimNumbers) if (docNumbers.has(n)) numbers++;
    rows.push([
      sparse,
      0, // dense: filled below, after one batched embedding call
      claimBm25,
      cover(claimToks, docWords),
      claimCoverPassage,
      previousCoverPassage,
      cover(titleToks, new Set(contentTokens(c.doc.title))),
      cover(contextToks, docWords),
      c.engineScore ?? 0,
      claimNumbers.size ? numbers / claimNumbers.size : 0,
      Math.log1p(passages.length),
    ]);
  }
  const vectors = await passageVectors(densePassages.flat(), queries.dense, deps);
  const qv = vectors.query;
  let at = 0;
  densePassages.forEach((ps, i) => {
    let best = ps.length ? -1 : 0;
    for (let j = 0; j < ps.length; j++) best = Math.max(best, dot(qv, vectors.passages[at++]!));
    rows[i]![DENSE] = best;
  });
  return rows;
}

/**
 * The dense query's vector and each passage's vector as the index stores it (the encoder over
 * `title\ntext`, see store/ingest.ts): from the index when it holds that exact passage, else embedded,
 * all misses in one call.
 */
async function passageVectors(passages: readonly Passage[], denseQuery: string, deps: RankFeatureDeps): Promise<{ query: Float32Array; passages: Float32Array[] }> {
  const stored = deps.storedVectors && passages.length ? await deps.storedVectors(passages.map((p) => p.id)) : undefined;
  const out = new Array<Float32Array>(passages.length);
  const missing: number[] = [];
  passages.forEach((p, i) => {
    const hit = stored?.get(p.id);
    if (hit && hit.text === p.text) out[i] = hit.vector;
    else missing.push(i);
  });
  const embedded = await deps.embedder.embed([denseQuery, ...missing.map((i) => searchTextOf(passages[i]!.title, passages[i]!.text))]);
  missing.forEach((i, j) => (out[i] = embedded[j + 1]!));
  return { query: embedded[0]!, passages: out };
}

/** The index's passage vectors as a cache for the ranker's `dense` feature, when the same encoder made them. */
export function storedVectorsOf(store: Store, embedder: Embedder): RankFeatureDeps['storedVectors'] | undefined {
  const made = store.settings['embedder'] as ModelInfo | undefined;
  if (made?.id !== embedder.info.id || made.version !== embedder.info.version) return undefined;
  return (ids) => store.passageVectors(ids);
}
