/**
 * The English analysis of LanceDB's full-text index (FTS_SETTINGS in lancedb-store.ts), rebuilt from
 * libraries so the in-memory store ranks like the LanceDB store. LanceDB (lance-index, tokenizer.rs) runs,
 * in this order:
 *   simple tokenizer (split on every non-alphanumeric character) -> drop tokens of 40+ bytes ->
 *   lower case -> Snowball English (Porter2) stemmer -> stop words -> ASCII folding.
 * Here: the same split with a Unicode regex, wink-porter2-stemmer (Porter2), the same stop list, and
 * fold-to-ascii (a port of Lucene's ASCIIFoldingFilter, which tantivy's filter also ports).
 */
import stem from 'wink-porter2-stemmer';
import ASCIIFolder from 'fold-to-ascii';

/**
 * The stop list of tantivy's `StopWordFilter::new(Language::English)`, which is Lucene's EnglishAnalyzer
 * default list (and OpenSearch's `_english_`): data copied from the engine so the three agree.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on',
  'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
]);

/** tantivy's RemoveLongFilter keeps tokens shorter than this many UTF-8 bytes. */
export const MAX_TOKEN_BYTES = 40;

// Rust's char::is_alphanumeric: Alphabetic or Numeric (Nd, Nl, No).
const TOKEN = /[\p{Alphabetic}\p{N}]+/gu;
const encoder = new TextEncoder();
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Lower-cased token -> its term ('' for a stop word). Stemming is most of the analysis cost and a
 * corpus repeats its words, so each distinct word is stemmed once (the cache is cleared past 500k words).
 */
const terms = new Map<string, string>();

function termOf(lower: string): string {
  let t = terms.get(lower);
  if (t === undefined) {
    const stemmed = stem(lower);
    t = ENGLISH_STOP_WORDS.has(stemmed) ? '' : ASCII.test(stemmed) ? stemmed : ASCIIFolder.foldMaintaining(stemmed);
    if (terms.size >= 500_000) terms.clear();
    terms.set(lower, t);
  }
  return t;
}

/** Index terms of `text`, in order, with repeats (term frequencies count them). */
export function analyzeEnglish(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const token = m[0];
    // UTF-8 length: the character count for ASCII, which most tokens are.
    if (token.length >= MAX_TOKEN_BYTES || (!ASCII.test(token) && encoder.encode(token).length >= MAX_TOKEN_BYTES)) continue;
    const term = termOf(token.toLowerCase());
    if (term) out.push(term);
  }
  return out;
}
