/**
 * Sentence splitting with wink-nlp, made fast enough for the ingest hot path.
 *
 * Running wink over every character manages 0.45-0.65 M words/s on this 2-core box: less than the whole
 * 10,000 passages/s (~1 M words/s) ingest budget. Most sentence ends are not in doubt ("... cells. The"),
 * so a regex scan finds candidate ends and settles the clear ones; wink decides every doubtful one
 * (abbreviations, initials, "...", a number or symbol next) on a window of a few tokens around it. That
 * runs at 2.8-4 M words/s and gives the same split as `splitSentencesWithWink` (wink on the whole text,
 * same corrections) for 99.4% of SciFact abstracts; most differences are ends wink misses because it
 * takes "mass." or "ill." for "Mass." or "Ill." (see `bench-corpus.ts`).
 *
 * Corrections on top of wink (it splits "et al. (2019)", "Fig. 2", "RAW264.7", "Ph.D."): a sentence never
 * ends without whitespace after it, never before a plain lowercase word, never after a reference
 * abbreviation followed by a number, and never between "Xy." and "Z.".
 */
import { isSpaceCode as isSpace } from './whitespace.js';
import { winkBoundaries } from './wink.js';

/**
 * Terminal punctuation plus closing quotes/brackets (possibly spaced: `necrosis. ” It`), then whitespace;
 * or a blank line on its own. The lookbehind and the atomic `(?=(x+))\1` keep a long run of dots from
 * being rescanned at each of its positions (quadratic on "......"); a blank line is matched from its
 * first "\n", not from the spaces before it, for the same reason.
 */
const CANDIDATE = /(?<![.!?])(?=([.!?]+))\1(?:\s*["'”’)\]])*(\s+)|\n[^\S\n]*\n\s*/g;
const BLANK_LINE = /\n[^\S\n]*\n/;
/** A plain lowercase word ("and", "found") — not "mTOR", "p53", "iPSCs", which do start sentences. */
const LOWER_WORD = /[a-z]+(?![A-Za-z0-9])/y;
const UPPER_START = /["'“‘(\[]?[A-Z]/y;
const NUMBER_START = /[\d(\[]/y;
const INITIAL_START = /[A-Z]\./y;
const PLAIN_WORD = /^[a-z]{2,}$|^\d{2,}$/;
const INITIAL_LIKE = /^[A-Z][a-z]?$/;

/** Lowercase words that may be abbreviations: a "." after them is left to wink. Extra entries only cost speed. */
const MAYBE_ABBREVIATION = new Set(
  ('etc approx vs al cf resp ca viz ibid cit op fig figs eq eqs no nos pp vol vols ed eds dept est misc lit ' +
    'seq sq ft oz lb lbs min max incl esp var ref refs tab sect sec ch chap art para univ nat int pl sing div ' +
    'assn bros mt ave rd blvd hr hrs wt mg kg cm mm km ml dl ng yr yrs mo mos wk wks jr sr co corp inc ltd ' +
    'dr mr mrs ms st prof gen col lt sgt capt cmdr adm gov sen rep pres rev hon jan feb mar apr jun jul aug ' +
    'sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun ex nr pt pts suppl abbr adj adv aux ' +
    'ver vers orig trans transl comp dir prod feat govt natl intl mfg pkg dist sci proc conf symp jour rept ' +
    'ann bull soc acad inst assoc del ser').split(' '),
);
/** Reference abbreviations that wink cuts after when a number follows ("Fig. 2", "et al. (2019)"). */
const BEFORE_NUMBER = new Set(
  'fig figs eq eqs no nos vol vols pp p ref refs tab sect sec ch chap art para approx ca al nr pt pts suppl ex'.split(' '),
);

/** Window size, in whitespace-separated tokens on each side, that wink sees around a doubtful end. */
const WINDOW_TOKENS = 4;

interface Cut {
  /** End of the sentence (after its punctuation). */
  end: number;
  /** Start of the next sentence (after the whitespace). */
  next: number;
}

/** Split one paragraph (or any text) into sentences, each the trimmed original text. */
export function splitSentences(text: string): string[] {
  const cuts: Cut[] = [];
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    const next = m.index + m[0].length;
    if (next >= text.length) break; // trailing punctuation/space: the text's end, not a boundary
    const term = m[1];
    if (term === undefined) {
      cuts.push({ end: m.index, next });
      continue;
    }
    const end = next - m[2]!.length;
    if (BLANK_LINE.test(m[2]!) || decide(text, m.index, term, next)) cuts.push({ end, next });
  }
  return slice(text, cuts);
}

/**
 * Reference splitter: wink over the whole text, then the same corrections. Slower; used by tests and the
 * benchmark to check that `splitSentences` agrees with wink.
 */
export function splitSentencesWithWink(text: string): string[] {
  const cuts: Cut[] = [];
  for (const end of winkBoundaries(text)) {
    let next = end;
    while (next < text.length && isSpace(text.charCodeAt(next))) next++;
    if (next === end || next >= text.length) continue; // no whitespace after: "RAW264.7", "ClinicalTrials.gov"
    let termStart = end;
    while (termStart > 0 && isCloser(text.charCodeAt(termStart - 1))) termStart--;
    let t = termStart;
    while (t > 0 && isTerminal(text.charCodeAt(t - 1))) t--;
    const term = text.slice(t, termStart);
    if (BLANK_LINE.test(text.slice(end, next)) || term === '' || !vetoed(text, t, term, next)) cuts.push({ end, next });
  }
  return slice(text, cuts);
}

/** Whether the candidate end at `termStart` (punctuation `term`, next token at `next`) ends a sentence. */
function decide(text: string, termStart: number, term: string, next: number): boolean {
  if (vetoed(text, termStart, term, next)) return false;
  UPPER_START.lastIndex = next;
  if (UPPER_START.test(text)) {
    if (!term.includes('.')) return true; // "?", "!", "?!" before a capital
    if (term === '.') {
      const word = wordBefore(text, termStart);
      if (PLAIN_WORD.test(word) && !MAYBE_ABBREVIATION.has(word)) return true;
    }
  }
  return winkCutsAt(text, termStart, next);
}

/** Our corrections: cases where wink would cut but the text continues. */
function vetoed(text: string, termStart: number, term: string, next: number): boolean {
  LOWER_WORD.lastIndex = next;
  if (LOWER_WORD.test(text)) return true;
  if (term !== '.') return false;
  const word = wordBefore(text, termStart);
  NUMBER_START.lastIndex = next;
  if (BEFORE_NUMBER.has(word.toLowerCase()) && NUMBER_START.test(text)) return true;
  INITIAL_START.lastIndex = next;
  return INITIAL_LIKE.test(word) && INITIAL_START.test(text);
}

/** Ask wink about one candidate, showing it only a few tokens on each side. */
function winkCutsAt(text: string, termStart: number, next: number): boolean {
  let from = termStart;
  for (let k = 0; k < WINDOW_TOKENS && from > 0; k++) {
    while (from > 0 && isSpace(text.charCodeAt(from - 1))) from--;
    while (from > 0 && !isSpace(text.charCodeAt(from - 1))) from--;
  }
  let to = next;
  for (let k = 0; k < WINDOW_TOKENS && to < text.length; k++) {
    while (to < text.length && !isSpace(text.charCodeAt(to))) to++;
    while (to < text.length && isSpace(text.charCodeAt(to))) to++;
  }
  for (const b of winkBoundaries(text.slice(from, to))) {
    const at = from + b;
    if (at > termStart && at <= next) return true;
  }
  return false;
}

/** The token before the punctuation at `termStart`, without opening quotes/brackets. */
function wordBefore(text: string, termStart: number): string {
  let i = termStart;
  while (i > 0 && !isSpace(text.charCodeAt(i - 1))) i--;
  while (i < termStart && isOpener(text.charCodeAt(i))) i++;
  return text.slice(i, termStart);
}

function slice(text: string, cuts: Cut[]): string[] {
  const out: string[] = [];
  let start = 0;
  for (const c of cuts) {
    const s = text.slice(start, c.end).trim();
    if (s) out.push(s);
    start = c.next;
  }
  const last = text.slice(start).trim();
  if (last) out.push(last);
  return out;
}

function isTerminal(c: number): boolean {
  return c === 46 /* . */ || c === 33 /* ! */ || c === 63 /* ? */;
}

function isCloser(c: number): boolean {
  return c === 34 || c === 39 || c === 41 || c === 93 || c === 0x201d || c === 0x2019;
}

function isOpener(c: number): boolean {
  return c === 34 || c === 39 || c === 40 || c === 91 || c === 0x201c || c === 0x2018;
}
