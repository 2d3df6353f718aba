/**
 * Pair features for the trained heads: InferSent-style [u, v, |u-v|, u*v] over the sentence embeddings
 * (u = premise / evidence sentence, v = hypothesis / claim) followed by the lexical features. The same
 * function builds training and inference features, so the two can never drift apart.
 */
import { analyseForAlignment, alignFeatures, ALIGN_DIM, ALIGN_FEATURE_NAMES, type AlignAnalysis, type AlignContext } from '../align/index.js';
import { analyse, idfOf, lexicalFeatures, LEXICAL_DIM, LEXICAL_FEATURE_NAMES, stem, type IdfTable, type TextAnalysis } from './lexical.js';

/** Every pair feature after the embedding blocks: the lexical ones, then the alignment ones (src/models/align). */
export const PAIR_FEATURE_NAMES: readonly string[] = [...LEXICAL_FEATURE_NAMES, ...ALIGN_FEATURE_NAMES];
export const PAIR_DIM = LEXICAL_DIM + ALIGN_DIM;

/** One text's lexical and alignment analyses, computed once per distinct text of a call. */
export interface PairTextAnalysis {
  lexical: TextAnalysis;
  align: AlignAnalysis;
}

export function analysePairText(text: string): PairTextAnalysis {
  return { lexical: analyse(text), align: analyseForAlignment(text) };
}

/** Names without the text's first word: a capitalised sentence start ("Statins ...") is not a name. */
function namesOf(t: PairTextAnalysis): Set<string> {
  const first = t.align.tokens[0]?.form;
  const out = new Set(t.lexical.entities);
  if (first !== undefined) out.delete(first);
  return out;
}

function alignContext(p: PairTextAnalysis, h: PairTextAnalysis, idf: IdfTable): AlignContext {
  return {
    idf: (form) => idfOf(idf, stem(form)),
    unseen: idf.unseen,
    claimEntities: namesOf(h),
    evidenceEntities: namesOf(p),
    evidenceWords: p.lexical.lowerSet,
  };
}

export interface FeaturePair {
  premise: string;
  hypothesis: string;
  /** Optional retrieval score (e.g. BM25) from the caller; 0 when absent. */
  retrieval?: number;
}

export function featureDim(embeddingDim: number): number {
  return 4 * embeddingDim + PAIR_DIM;
}

/** Human-readable names, index-aligned with the feature vector (for reports and debugging). */
export function featureNames(embeddingDim: number): string[] {
  const block = (p: string) => Array.from({ length: embeddingDim }, (_, i) => `${p}${i}`);
  return [...block('u'), ...block('v'), ...block('absdiff'), ...block('prod'), ...PAIR_FEATURE_NAMES];
}

/** Writes one pair's features into `out` (length featureDim) at `offset`. */
export function writePairFeatures(
  u: Float32Array,
  v: Float32Array,
  pa: PairTextAnalysis,
  ha: PairTextAnalysis,
  idf: IdfTable,
  out: Float32Array,
  offset = 0,
  retrieval = 0,
): void {
  const d = u.length;
  if (v.length !== d) throw new Error(`embedding sizes differ: ${d} vs ${v.length}`);
  for (let i = 0; i < d; i++) {
    const a = u[i];
    const b = v[i];
    out[offset + i] = a;
    out[offset + d + i] = b;
    out[offset + 2 * d + i] = Math.abs(a - b);
    out[offset + 3 * d + i] = a * b;
  }
  lexicalFeatures(pa.lexical, ha.lexical, idf, out, offset + 4 * d, retrieval);
  // The claim (hypothesis) is aligned to the evidence (premise).
  alignFeatures(ha.align, pa.align, alignContext(pa, ha, idf), out, offset + 4 * d + LEXICAL_DIM);
}

/** Looks up vectors for texts; the model passes the embedder, training passes its on-disk cache. */
export type VectorSource = (texts: string[]) => Promise<Float32Array[]>;

/**
 * Features for many pairs as one row-major matrix. Each distinct text is embedded and analysed once
 * (a claim scored against 200 sentences costs one claim embedding, not 200).
 */
export async function buildFeatureMatrix(
  pairs: readonly FeaturePair[],
  vectors: VectorSource,
  embeddingDim: number,
  idf: IdfTable,
  /** Analyses of texts seen before (training passes one cache for every matrix it builds). */
  cache?: Map<string, PairTextAnalysis>,
): Promise<Float32Array> {
  const analyses_ = (t: string): PairTextAnalysis => {
    if (!cache) return analysePairText(t);
    let a = cache.get(t);
    if (!a) cache.set(t, (a = analysePairText(t)));
    return a;
  };
  const index = new Map<string, number>();
  const texts: string[] = [];
  const slot = (t: string): number => {
    let i = index.get(t);
    if (i === undefined) {
      i = texts.length;
      index.set(t, i);
      texts.push(t);
    }
    return i;
  };
  const ids = pairs.map((p) => [slot(p.premise), slot(p.hypothesis)] as const);
  const vecs = texts.length ? await vectors(texts) : [];
  if (vecs.length !== texts.length) throw new Error(`vector source returned ${vecs.length} vectors for ${texts.length} texts`);
  for (const v of vecs) if (v.length !== embeddingDim) throw new Error(`expected ${embeddingDim}-d vectors, got ${v.length}-d`);
  const analyses: (PairTextAnalysis | undefined)[] = new Array(texts.length);
  const analysisOf = (i: number): PairTextAnalysis => (analyses[i] ??= analyses_(texts[i]!));
  const dim = featureDim(embeddingDim);
  const out = new Float32Array(pairs.length * dim);
  ids.forEach(([pi, hi], r) => {
    writePairFeatures(vecs[pi], vecs[hi], analysisOf(pi), analysisOf(hi), idf, out, r * dim, pairs[r].retrieval ?? 0);
  });
  return out;
}
