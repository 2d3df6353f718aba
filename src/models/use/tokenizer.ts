/**
 * Token-for-token port of @energetic-ai/embeddings' sentencepiece tokenizer (its Trie + Viterbi), made
 * fast: the original re-slices the code-point array at every position (quadratic) and costs ~2.5 ms per
 * 100-word passage, a quarter of the fast path's whole per-passage budget. Quirks kept on purpose,
 * because the reference vectors depend on them: an unmatched character becomes id 0 with score 0, ties
 * go to the later candidate (`>=`), a score that sums to exactly 0 counts as "unset", backtracking steps
 * by the UTF-16 length of the chosen piece, and runs of id 0 collapse to one.
 * use-embedder.test.ts checks equality with the original on the fixture passages and odd strings.
 */
import type { Vocabulary } from './weights.js';

const SEPARATOR = '\u2581';
/** The first 6 vocabulary rows are reserved symbols that the original never matches. */
const RESERVED = 6;

export class UseTokenizer {
  /** Trie: one Map per node from code point to child node index. */
  private readonly children: Map<number, number>[] = [new Map()];
  /** Vocabulary index for nodes that end a piece, else -1. */
  private readonly pieceAt: number[] = [-1];
  private readonly scores: Float64Array;
  private readonly stepLength: Int32Array;

  constructor(vocabulary: Vocabulary) {
    this.scores = Float64Array.from(vocabulary, (v) => v[1]);
    this.stepLength = Int32Array.from(vocabulary, (v) => v[0].length);
    for (let i = RESERVED; i < vocabulary.length; i++) {
      if (vocabulary[i][0].length === 0) continue; // never matchable in the original either
      let node = 0;
      for (const ch of vocabulary[i][0]) {
        const cp = ch.codePointAt(0)!;
        let next = this.children[node].get(cp);
        if (next === undefined) {
          next = this.children.length;
          this.children.push(new Map());
          this.pieceAt.push(-1);
          this.children[node].set(cp, next);
        }
        node = next;
      }
      this.pieceAt[node] = i; // a later duplicate piece overwrites, as in the original
    }
  }

  encode(input: string): number[] {
    const normalized = input.normalize('NFKC');
    if (normalized.length === 0) return [];
    const text = SEPARATOR + normalized.replace(/ /g, SEPARATOR);
    const cps: number[] = [];
    for (const ch of text) cps.push(ch.codePointAt(0)!);
    const n = cps.length;
    // JS numbers (doubles), like the original, so sums and ties resolve identically.
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    const relax = (start: number, end: number, score: number, index: number): void => {
      const s = score + best[start];
      if (best[end] === 0 || s >= best[end]) {
        best[end] = s;
        words[end] = index;
      }
    };
    // Forward relaxation in ascending start order visits each end position's candidates in the same
    // order as the original's per-end loop over ascending start keys, and best[start] is final here.
    for (let i = 0; i < n; i++) {
      let matched = false;
      let node = this.children[0].get(cps[i]);
      for (let j = i; node !== undefined; ) {
        const piece = this.pieceAt[node];
        if (piece >= 0) {
          relax(i, j + 1, this.scores[piece], piece);
          matched = true;
        }
        if (++j >= n) break;
        node = this.children[node].get(cps[j]);
      }
      if (!matched) relax(i, i + 1, 0, 0);
    }
    const ids: number[] = [];
    for (let it = n; it > 0; it -= this.stepLength[words[it]]) ids.push(words[it]);
    const merged: number[] = [];
    let previousUnk = false;
    for (const id of ids) {
      if (!(previousUnk && id === 0)) merged.push(id);
      previousUnk = id === 0;
    }
    return merged.reverse();
  }
}
