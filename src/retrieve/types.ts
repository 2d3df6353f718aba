import type { Passage } from '../corpus/types.js';

/** A passage ranked by one retriever (or by fusion). */
export interface RankedPassage {
  passage: Passage;
  score: number;
  /** 1-based rank in the list that produced it. */
  rank: number;
}

/** A document ranked by its best passage (SIDE: document score = max passage score). */
export interface RankedDocument {
  docId: string;
  title: string;
  score: number;
  rank: number;
  /** Best passage first. */
  passages: RankedPassage[];
}

export interface SearchResult {
  query: string;
  mode: string;
  passages: RankedPassage[];
  documents: RankedDocument[];
  /** Store snapshot the result came from, for provenance. */
  snapshot: string;
  tookMs: number;
}
