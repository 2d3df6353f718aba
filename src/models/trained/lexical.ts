/**
 * Cheap lexical pair features for the trained heads. Sentence embeddings blur exactly the details that
 * decide many claims ("10%" vs "20%", "increases" vs "reduces", "not"), so these signals are given to the
 * classifier directly. Everything here is deterministic and dependency-free.
 */

/** Tokens the overlap features ignore: frequent function words carry no evidence about content. */
const STOPWORDS = new Set(
  (
    'a an the and or but if then than of in on at to for from by with as into onto over under about ' +
    'is are was were be been being am do does did doing has have had having will would shall should can could may might must ' +
    'this that these those there here it its itself he she they them their his her him we us our you your i me my ' +
    'which who whom whose what when where why how all any both each few other some such only own same so too very ' +
    'just also s t up down out off again further once while during before after above below between through ' +
    'because until against among per via et al'
  ).split(' '),
);

/** Plain negation; "n't" is split off by the tokenizer and becomes "not". */
const NEGATION = new Set(['not', 'no', 'never', 'none', 'neither', 'nor', 'without', 'nobody', 'nothing', 'nowhere', 'cannot']);
/** Downward / absence cues: in scientific claims "reduces" vs "increases" is the usual contradiction. */
const DOWN = /^(fail|lack|reduc|decreas|inhibit|suppress|lower|prevent|absen|impair|attenuat|diminish|abolish|deplet|declin|less$|fewer$|loss$|downregulat|negative)/;
const UP = /^(increas|enhanc|promot|rais|elevat|induc|activat|higher$|greater$|improv|augment|stimulat|upregulat|positive)/;

const NUMBER_WORDS: Record<string, string> = {
  zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9',
  ten: '10', eleven: '11', twelve: '12', twenty: '20', thirty: '30', forty: '40', fifty: '50', hundred: '100',
};

const TOKEN = /[\p{L}\p{N}]+(?:[-'’.,][\p{L}\p{N}]+)*/gu;
const NUMERIC = /^\d+(?:[.,]\d+)*$/;

/** What the features need from one text; computed once per distinct text. */
export interface TextAnalysis {
  /** Stemmed, lowercased content words (stopwords dropped), in order. */
  content: string[];
  contentSet: Set<string>;
  /** Every lowercased token (unstemmed), for entity look-ups. */
  lowerSet: Set<string>;
  /** Capitalised / mixed-case tokens, lowercased (names, genes, acronyms). */
  entities: Set<string>;
  /** Normalised numbers ("1,000" -> "1000", "three" -> "3"). */
  numbers: Set<string>;
  negation: number;
  down: number;
  up: number;
  /** Token count (all tokens). */
  length: number;
}

/**
 * Crude suffix stripping so "increases"/"increased"/"increasing" meet; a real stemmer would be a
 * dependency and the features only need consistency, not linguistics.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Raw tokens with "n't" split off ("didn't" -> "did", "n't") and possessive "'s" dropped. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    let t = m[0].replace(/[’]/g, "'");
    if (/n't$/i.test(t)) {
      const head = t.slice(0, -3);
      if (head) out.push(head);
      out.push("n't");
      continue;
    }
    t = t.replace(/'s$/i, '');
    if (t) out.push(t);
  }
  return out;
}

function normaliseNumber(lower: string): string | undefined {
  if (NUMERIC.test(lower)) return lower.includes('.') && !lower.includes(',') ? lower : lower.replace(/,/g, '');
  return NUMBER_WORDS[lower];
}

export function analyse(text: string): TextAnalysis {
  const raw = tokenize(text);
  const content: string[] = [];
  const lowerSet = new Set<string>();
  const entities = new Set<string>();
  const numbers = new Set<string>();
  let negation = 0;
  let down = 0;
  let up = 0;
  raw.forEach((tok, i) => {
    const lower = tok === "n't" ? 'not' : tok.toLowerCase();
    lowerSet.add(lower);
    if (NEGATION.has(lower)) negation++;
    if (DOWN.test(lower)) down++;
    if (UP.test(lower)) up++;
    const num = normaliseNumber(lower);
    if (num !== undefined) numbers.add(num);
    // Capitalised (not a sentence-initial function word) or mixed-case ("mTOR", "IL-6") = entity-like.
    const capital = /^\p{Lu}/u.test(tok) && !(i === 0 && STOPWORDS.has(lower));
    if (capital || /.\p{Lu}/u.test(tok)) entities.add(lower);
    if (STOPWORDS.has(lower) || NEGATION.has(lower)) return;
    // Hyphenated words count by their parts too, so "well-known" meets "well known".
    content.push(stem(lower));
    if (lower.includes('-')) for (const part of lower.split('-')) if (part && !STOPWORDS.has(part)) content.push(stem(part));
  });
  return { content, contentSet: new Set(content), lowerSet, entities, numbers, negation, down, up, length: raw.length };
}

/** Inverse document frequency over training premises; stored in the weights file so inference matches. */
export interface IdfTable {
  documents: number;
  /** Only terms seen in >= minDf documents; rarer terms get `unseen`. */
  idf: Record<string, number>;
  unseen: number;
}

/**
 * A word's IDF, or `unseen`. The table is a plain object read from JSON, so a word absent from it must not
 * fall through to Object.prototype ("constructor", "toString" would give a function, and NaN features).
 */
export function idfOf(idf: IdfTable, word: string): number {
  return Object.hasOwn(idf.idf, word) ? idf.idf[word]! : idf.unseen;
}

export function buildIdf(texts: Iterable<string>, minDf = 2): IdfTable {
  const df = new Map<string, number>();
  let documents = 0;
  for (const t of texts) {
    documents++;
    for (const w of analyse(t).contentSet) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const idf: Record<string, number> = {};
  // Sorted keys: the JSON (and therefore the weights hash) must not depend on Map insertion order.
  for (const w of [...df.keys()].sort()) {
    const n = df.get(w)!;
    if (n >= minDf) idf[w] = Number(Math.log((documents + 1) / (n + 0.5)).toFixed(4));
  }
  return { documents, idf, unseen: Number(Math.log((documents + 1) / 0.5).toFixed(4)) };
}

export const LEXICAL_FEATURE_NAMES = [
  'hyp_coverage',
  'jaccard',
  'idf_coverage',
  'prem_coverage',
  'bigram_coverage',
  'max_unmatched_idf',
  'entity_coverage',
  'hyp_has_entities',
  'number_mismatch',
  'hyp_has_numbers',
  'negation_only_hyp',
  'negation_only_prem',
  'down_mismatch',
  'up_mismatch',
  'direction_flip',
  'length_ratio',
  'log_len_prem',
  'log_len_hyp',
  'retrieval',
] as const;

export const LEXICAL_DIM = LEXICAL_FEATURE_NAMES.length;

function bigrams(words: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < words.length; i++) out.add(`${words[i - 1]} ${words[i]}`);
  return out;
}

/**
 * Lexical features of (premise, hypothesis) — for the evidence scorer, (sentence, claim). Writes
 * LEXICAL_DIM values into `out` at `offset`. `retrieval` is an optional caller-supplied score (0 = none).
 */
export function lexicalFeatures(p: TextAnalysis, h: TextAnalysis, idf: IdfTable, out: Float32Array, offset = 0, retrieval = 0): void {
  let matched = 0;
  let idfMatched = 0;
  let idfTotal = 0;
  let maxUnmatched = 0;
  for (const w of h.contentSet) {
    const x = idfOf(idf, w);
    idfTotal += x;
    if (p.contentSet.has(w)) {
      matched++;
      idfMatched += x;
    } else if (x > maxUnmatched) maxUnmatched = x;
  }
  let premMatched = 0;
  for (const w of p.contentSet) if (h.contentSet.has(w)) premMatched++;
  const union = p.contentSet.size + h.contentSet.size - matched;
  const hb = bigrams(h.content);
  const pb = bigrams(p.content);
  let bigramHits = 0;
  for (const b of hb) if (pb.has(b)) bigramHits++;
  let entityHits = 0;
  for (const e of h.entities) if (p.lowerSet.has(e)) entityHits++;
  let missingNumbers = 0;
  for (const n of h.numbers) if (!p.numbers.has(n)) missingNumbers++;
  const flip = (h.up > 0 && p.down > 0 && p.up === 0) || (h.down > 0 && p.up > 0 && p.down === 0);

  const v = [
    h.contentSet.size ? matched / h.contentSet.size : 1,
    union ? matched / union : 1,
    idfTotal ? idfMatched / idfTotal : 1,
    p.contentSet.size ? premMatched / p.contentSet.size : 1,
    hb.size ? bigramHits / hb.size : 1,
    maxUnmatched / idf.unseen,
    h.entities.size ? entityHits / h.entities.size : 1,
    h.entities.size ? 1 : 0,
    Math.min(missingNumbers, 3) / 3,
    h.numbers.size ? 1 : 0,
    h.negation > 0 && p.negation === 0 ? 1 : 0,
    p.negation > 0 && h.negation === 0 ? 1 : 0,
    (h.down > 0) !== (p.down > 0) ? 1 : 0,
    (h.up > 0) !== (p.up > 0) ? 1 : 0,
    flip ? 1 : 0,
    Math.log((1 + h.length) / (1 + p.length)),
    Math.log1p(p.length),
    Math.log1p(h.length),
    retrieval,
  ];
  for (let i = 0; i < v.length; i++) out[offset + i] = v[i];
}
