/**
 * Index settings and mappings of the OpenSearch store, typed against the official client's types.
 *
 * BM25 analysis mirrors LanceDB's full-text index (FTS_SETTINGS, lance-index tokenizer.rs), filter for
 * filter and in the same order:
 *   LanceDB: simple tokenizer -> remove tokens of 40+ bytes -> lowercase -> Snowball English stemmer ->
 *            stop words (NLTK's English list, matched after stemming) -> ASCII folding
 *   here:    pattern tokenizer splitting on non-alphanumerics -> under 40 UTF-8 bytes (a painless
 *            predicate: Lucene's length filter counts chars) -> 'İ' as Rust lower-cases it -> lowercase ->
 *            snowball English -> stop (the same list, ENGLISH_STOP_WORDS, after stemming) -> asciifolding
 * Checked on a live cluster (opensearch-live.test.ts): the server's _analyze gives the same terms as the
 * LanceDB analysis for the SciFact sample, and BM25 scores agree with LanceDB's within about 2%.
 * Scoring: OpenSearch's default BM25 (k1 1.2, b 0.75, Lucene's idf, no (k1 + 1) factor) gives LanceDB's
 * scores (measured on the live cluster: top-hit ratio 0.98-1.00); the small differences come from how each
 * engine rounds document lengths (Lucene keeps one byte per length), reordering near-ties.
 * Vectors: knn_vector, HNSW with cosine similarity (m 20, ef_construction 300, search ef 200: LanceDB's
 * HNSW-SQ defaults and DEFAULT_EF), Lucene engine.
 */
import type { Types } from '@opensearch-project/opensearch';
import { ENGLISH_STOP_WORDS } from '../memory/english-analyzer.js';

type IndexSettings = Types.Indices_Common.IndexSettings;
type TypeMapping = Types.Common_Mapping.TypeMapping;
type Property = Types.Common_Mapping.Property;

export const ANALYZER = 'veracite_english';

export const ANALYSIS: NonNullable<IndexSettings['analysis']> = {
  tokenizer: {
    // Rust's char::is_alphanumeric (tantivy's SimpleTokenizer keeps runs of it): letters and numbers.
    veracite_simple: { type: 'pattern', pattern: '[^\\p{IsAlphabetic}\\p{N}]+' },
  },
  filter: {
    // LanceDB drops tokens of 40+ *bytes* (UTF-8); Lucene's length filter counts chars, and on the live
    // cluster kept a 20-letter 'é' run (40 bytes) that LanceDB drops. The predicate counts UTF-8 bytes
    // (a surrogate pair is 4 bytes: 2 for each half).
    veracite_length: {
      type: 'predicate_token_filter',
      script: {
        source:
          'CharSequence t = token.term; int n = 0; for (int i = 0; i < t.length(); ++i) { char c = t.charAt(i); ' +
          'if (c < 128) { n += 1; } else if (c < 2048) { n += 2; } else if (Character.isSurrogate(c)) { n += 2; } else { n += 3; } } return n < 40;',
      },
    },
    // Rust lower-cases 'İ' (U+0130) to 'i' + U+0307 (LanceDB then matches 'İstanbul' only as written);
    // Lucene's lowercase gives plain 'i'. Rewritten before lowercase so both index the same term.
    veracite_dotted_i: { type: 'pattern_replace', pattern: '\u0130', replacement: 'i\u0307' },
    veracite_stem: { type: 'snowball', language: 'English' },
    // Not `_english_` (Lucene's 33 words): LanceDB 0.37 removes NLTK's 179.
    veracite_stop: { type: 'stop', stopwords: [...ENGLISH_STOP_WORDS] },
  },
  analyzer: {
    [ANALYZER]: { type: 'custom', tokenizer: 'veracite_simple', filter: ['veracite_length', 'veracite_dotted_i', 'lowercase', 'veracite_stem', 'veracite_stop', 'asciifolding'] },
  },
};

/** HNSW search breadth, as LanceStore's DEFAULT_EF. */
export const EF_SEARCH = 200;

const stored = (type: 'keyword' | 'integer'): Property => ({ type, index: false, doc_values: false }) as Property;

export function passagesIndexBody(shards: number, replicas: number, knn = true): { settings: IndexSettings; mappings: TypeMapping } {
  return {
    settings: {
      number_of_shards: shards,
      number_of_replicas: replicas,
      // knn_vector fields need this at creation; the vector field itself is added when vectors arrive.
      // A cluster without the k-NN plugin refuses the setting, so it is left out there (BM25 only).
      ...(knn ? { 'index.knn': true } : {}),
      analysis: ANALYSIS,
    } as IndexSettings,
    mappings: {
      dynamic: 'strict',
      // search_text is title + text: indexed, not kept in _source (title and text are).
      _source: { excludes: ['search_text'] },
      properties: {
        id: { type: 'keyword' },
        doc_id: { type: 'keyword' },
        title: stored('keyword'),
        idx: { type: 'integer' },
        sent_start: stored('integer'),
        sent_end: stored('integer'),
        text: { type: 'text', index: false },
        search_text: { type: 'text', analyzer: ANALYZER },
      },
    },
  };
}

export function vectorProperty(dimension: number): Property {
  return {
    type: 'knn_vector',
    dimension,
    method: { name: 'hnsw', engine: 'lucene', space_type: 'cosinesimil', parameters: { m: 20, ef_construction: 300 } },
  } as Property;
}

export function documentsIndexBody(shards: number, replicas: number): { settings: IndexSettings; mappings: TypeMapping } {
  return {
    settings: { number_of_shards: shards, number_of_replicas: replicas },
    mappings: {
      dynamic: 'strict',
      properties: {
        id: { type: 'keyword' },
        title: stored('keyword'),
        title_key: { type: 'keyword' },
        url: stored('keyword'),
        norm_url: { type: 'keyword' },
        sentences: { type: 'text', index: false },
        n_sentences: { type: 'integer' },
        links: stored('keyword'),
      },
    },
  };
}

/** One small document per store: id, write counter (snapshot ids), settings, checkpoints; not indexed. */
export function metaIndexBody(): { settings: IndexSettings; mappings: TypeMapping } {
  // A copy on every node: with one copy, killing its node (the fault tests) left the store unable to
  // write (the write counter and checkpoints live here) even where the passages had replicas.
  return { settings: { number_of_shards: 1, auto_expand_replicas: '0-all' } as IndexSettings, mappings: { dynamic: false, properties: {} } };
}

/** OpenSearch's cosinesimil score is (1 + cos) / 2; the Store reports the cosine itself, as LanceStore. */
export function cosineFromScore(score: number): number {
  return 2 * score - 1;
}
