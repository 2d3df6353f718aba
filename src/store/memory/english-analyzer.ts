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
 * The English stop list of LanceDB 0.37 (lance-tokenizer), which is NLTK's English list (179 words):
 * data copied from the engine so the engines agree, and checked against LanceDB itself by
 * memory-store.test.ts. Like LanceDB, the list is matched against *stemmed* tokens, so a word whose stem
 * differs ("does" -> "doe", "because" -> "becaus") is not removed. (tantivy's own list is Lucene's 33
 * words; LanceDB replaced it.)
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he him his " +
    "himself she she's her hers herself it it's its itself they them their theirs themselves what which who whom this " +
    "that that'll these those am is are was were be been being have has had having do does did doing a an the and but " +
    'if or because as until while of at by for with about against between into through during before after above below ' +
    'to from up down in out on off over under again further then once here there when where why how all any both each ' +
    "few more most other some such no nor not only own same so than too very s t can will just don don't should " +
    "should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't " +
    "haven haven't isn isn't ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't " +
    "weren weren't won won't wouldn wouldn't"
  ).split(' '),
);

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
