/**
 * The quantities a text states, each with what it is about: numbers, percentages, ratios ("1 in 4"),
 * ranges ("20-30%", "between 20 and 30 percent"), years, "n-fold / doubled / halved / twice", and counts
 * with their unit or noun ("12 patients", "5 mg"). Read from the text itself (a small tokenizer, no model):
 * what the comparison in align.ts needs is the value, its kind, a bound the text puts on it ("more than
 * 50%") and the words around it, by which a claim's quantity is matched to the evidence's.
 *
 * Identifiers are not quantities ("type 2 diabetes", "phase 3", "IL-6", "CD4"), as in the alignment
 * analysis (models/align/lexicon.ts IDENTIFIER_PREFIXES).
 */
import { IDENTIFIER_PREFIXES, unitOf } from '../../models/align/lexicon.js';

export type QuantityKind = 'percent' | 'change' | 'fold' | 'year' | 'count' | 'ratio';

export interface StatedQuantity {
  kind: QuantityKind;
  /**
   * percent: the percentage (a ratio "1 in 4" is 25); change: the relative change in percent, signed
   * ("a 71% reduction" -71, "doubled" is a fold); fold: the factor (2 for doubled, 0.5 for halved);
   * year; count: the number; ratio: a relative risk, odds ratio or hazard ratio ("RR 0.71"), its measure in `unit`.
   */
  value: number;
  /** A range's upper end ("20-30%": value 20, upper 30). */
  upper?: number;
  /** The text bounds the value: "more than 50%" (at-least), "under 10" (at-most), "about 30%" (about). */
  bound?: 'at-least' | 'at-most' | 'about';
  /** count: the normalised unit or the noun counted ("mg", "patient"); '' when none. */
  unit: string;
  /** The unit as the text says it ("metres", "homes"), for findings. */
  unitText?: string;
  /** The words of the text that state it ("28%", "one in four", "doubled"). */
  text: string;
  /** Content words around it in its clause, stemmed: what it is about. */
  about: string[];
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13,
  fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50,
  sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100, dozen: 12,
};
const TENS = new Set(['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']);
/** Thin, no-break and narrow no-break spaces: digit groups ("10 000") and a space before a unit ("5 %"). */
const GROUP_SPACE = /[\u00a0\u2009\u202f]/g;
const FOLD_WORDS: Record<string, number> = {
  double: 2, doubled: 2, doubles: 2, doubling: 2, twice: 2, twofold: 2, triple: 3, tripled: 3, triples: 3, tripling: 3, threefold: 3, thrice: 3,
  quadrupled: 4, quadruple: 4, fourfold: 4, fivefold: 5, tenfold: 10, halved: 0.5, halves: 0.5, halving: 0.5, halve: 0.5,
};
const UP = new Set(['increase', 'increased', 'increases', 'increasing', 'rise', 'rises', 'rose', 'risen', 'higher', 'more', 'greater', 'gain', 'gained', 'grew', 'grow', 'growth', 'raised', 'raises', 'elevated', 'elevation', 'jump', 'jumped', 'surge', 'surged', 'up']);
const DOWN = new Set(['decrease', 'decreased', 'decreases', 'decreasing', 'reduction', 'reduce', 'reduced', 'reduces', 'reducing', 'lower', 'lowered', 'lowers', 'fewer', 'less', 'decline', 'declined', 'declines', 'drop', 'dropped', 'fell', 'fall', 'falls', 'cut', 'cuts', 'loss', 'lost', 'down', 'shrank', 'shrink', 'shrinks']);
const AT_LEAST = ['more than', 'over', 'at least', 'above', 'exceeding', 'upwards of', 'greater than', 'in excess of'];
const AT_MOST = ['less than', 'under', 'at most', 'below', 'fewer than', 'up to', 'no more than'];
const ABOUT = ['about', 'around', 'approximately', 'approx', 'roughly', 'nearly', 'almost', 'some', 'circa', 'ca', 'estimated', '~', 'an estimated', 'close to'];
/** Words that end the clause a quantity's context is read from. */
/** One-word hedges and bounds that may stand between a change and its figure. */
const HEDGE_WORDS = new Set([...ABOUT.filter((w) => !w.includes(' ')), 'only', 'just', 'over', 'under']);
const CLAUSE_END = new Set(['.', ';', ':', '(', ')', 'while', 'whereas', 'but', 'compared', 'versus', 'vs', 'than', 'although']);
const STOP = new Set(
  'a an the of and or to in on at by for with from as is are was were be been being it its this that these those which who whom whose what when where why how not no do does did has have had he she they we you i his her their our your than then there here so such into about over under after before between during through up down out off also can could may might must shall should will would per cent percent percentage point points fold times time more less than almost nearly around approximately roughly some least most'.split(' '),
);

interface Tok {
  t: string;
  /** Character offsets in the text. */
  start: number;
  end: number;
}

// Digit groups split by a thin or no-break space are one number ("10 000"); "5 %" stays a number and a sign.
const TOKEN = /\d{1,3}(?:[\u00a0\u2009\u202f]\d{3})+(?![\d.,])|\d+(?:[.,]\d+)*|[\p{L}][\p{L}\p{N}'’-]*|%|~|[^\s\p{L}\p{N}]/gu;

function tokens(text: string): Tok[] {
  return [...text.matchAll(TOKEN)].map((m) => ({ t: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
}

/** A crude stem: enough to match "patients" with "patient", "died" with "die", "deaths" with "death". */
export function stemWord(w: string): string {
  let s = w.toLowerCase().replace(/['’]s$/, '');
  if (s.length > 4 && s.endsWith('ies')) s = `${s.slice(0, -3)}y`;
  else if (s.length > 3 && s.endsWith('es') && /(ss|x|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.length > 3 && s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) s = s.slice(0, -1);
  if (s.length > 4 && s.endsWith('ed')) s = s.slice(0, -2);
  else if (s.length > 5 && s.endsWith('ing')) s = s.slice(0, -3);
  if (s.length > 3 && s.endsWith('e')) s = s.slice(0, -1);
  return s;
}

function numberOf(t: string): number | undefined {
  t = t.replace(GROUP_SPACE, '');
  if (/^\d+(?:[.,]\d+)*$/.test(t)) {
    // "1,000" is a thousand; a comma not followed by three digits is read as a decimal comma.
    const v = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(t) ? Number(t.replace(/,/g, '')) : Number(t.replace(',', '.'));
    return Number.isFinite(v) ? v : undefined;
  }
  // "twenty-two"
  const compound = /^([a-z]+)-([a-z]+)$/.exec(t);
  if (compound && TENS.has(compound[1]!) && (NUMBER_WORDS[compound[2]!] ?? 10) < 10) return NUMBER_WORDS[compound[1]!]! + NUMBER_WORDS[compound[2]!]!;
  return NUMBER_WORDS[t];
}

/** A minus sign glued to the number after it and standing alone before it ("−5 °C", "(-0.4"), not a range's dash ("2.7−5.5"). */
function negativeSign(toks: Tok[], i: number, text: string): boolean {
  const sign = toks[i - 1];
  if (!sign || (sign.t !== '−' && sign.t !== '-') || sign.end !== toks[i]!.start) return false;
  return sign.start === 0 || /[\s(\[=:,;]/.test(text[sign.start - 1]!);
}

function phraseBefore(toks: Tok[], i: number, phrases: readonly string[]): boolean {
  for (const p of phrases) {
    const words = p.split(' ');
    if (i - words.length < 0) continue;
    if (words.every((w, k) => toks[i - words.length + k]!.t === w)) return true;
  }
  return false;
}

/** Abbreviations whose full stop ends no clause ("approx. 20 nautical miles"). */
const ABBREVIATIONS = new Set(['approx', 'ca', 'c', 'vs', 'no', 'fig', 'e.g', 'i.e', 'est', 'incl', 'avg']);

/** A word that says what a figure is about, stemmed; undefined for stop words, numbers and fold words. */
function contentStem(w: string): string | undefined {
  return /\p{L}/u.test(w) && w.length > 1 && !STOP.has(w) && numberOf(w) === undefined && !FOLD_WORDS[w] ? stemWord(w) : undefined;
}

/** Brackets and dashes a figure may follow and still be about the words before them. */
const OPENERS = new Set(['(', '[', '—', '–', '-', '/']);
/** Content words (stemmed) around tokens [from, to) in their clause, up to WINDOW on each side. */
const WINDOW = 6;
function aboutWords(toks: Tok[], from: number, to: number, skip: ReadonlySet<number>): string[] {
  const out = new Set<string>();
  const take = (j: number): boolean | 'free' => {
    const w = toks[j]!.t;
    if (w === '.' && ABBREVIATIONS.has(toks[j - 1]?.t ?? '')) return true;
    // A date's month, day and comma ("on May 27, 1937") end no clause and take no room in the window.
    if (MONTHS.has(w) || (w === ',' && /^\d{1,2}$/.test(toks[j - 1]?.t ?? '') && MONTHS.has(toks[j - 2]?.t ?? '')) || (/^\d{1,2}$/.test(w) && (MONTHS.has(toks[j - 1]?.t ?? '') || MONTHS.has(toks[j + 1]?.t ?? '')))) return 'free';
    // A short parenthesis ("heavy chain (MyHC) immunoreactivity") names what is beside it: no clause end.
    if ((w === ')' && toks.slice(Math.max(0, j - 4), j).some((x) => x.t === '(')) || (w === '(' && toks.slice(j + 1, j + 5).some((x) => x.t === ')'))) return 'free';
    if (CLAUSE_END.has(w)) return false;
    // A year near a figure says which one it is ("366,000 in 2020").
    if (/^\d{4}$/.test(w) && Number(w) >= 1500 && Number(w) <= 2100 && !skip.has(j)) out.add(`y${w}`);
    const stem = skip.has(j) ? undefined : contentStem(w);
    if (stem) out.add(stem);
    return true;
  };
  // Outwards from the figure, one side then the other, until the clause ends or WINDOW words are taken.
  const walk = (start: number, step: 1 | -1) => {
    for (let j = start, k = 0; j >= 0 && j < toks.length && k < WINDOW; j += step) {
      // A figure that opens a parenthesis or follows a dash ("patients (14.0%, 95% CI ...)", "population—0.7%")
      // gives the figure of what precedes it: read on past the bracket or dash (issue 36).
      if (step === -1 && j === from - 1 && OPENERS.has(toks[j]!.t)) continue;
      const t = take(j);
      if (!t) break;
      if (t !== 'free') k++;
    }
  };
  walk(from - 1, -1);
  walk(to, 1);
  return [...out];
}

/** Whether a number at token i names something ("type 2", "IL-6", "T-helper 17", "Figure 3") instead of counting it. */
function identifier(toks: Tok[], i: number, text: string): boolean {
  const prev = toks[i - 1];
  if (!prev) return false;
  if (IDENTIFIER_PREFIXES.has(prev.t) || (IDENTIFIER_PREFIXES.has(prev.t.replace(/s$/, '')) && prev.t !== 'times')) return true;
  // Glued to a word: "IL-6", "CD4+", "COVID-19" (the tokenizer keeps "il-6" whole; "T-helper 17" has a hyphenated word before).
  if (prev.end === toks[i]!.start && /\p{L}/u.test(prev.t)) return true;
  if (prev.t === '-' && toks[i - 2] && toks[i - 2]!.end === prev.start && /\p{L}/u.test(toks[i - 2]!.t)) return true;
  if (/-/.test(prev.t) && /\p{L}/u.test(prev.t)) return true;
  if (/^\p{L}$/u.test(prev.t) && text[prev.end] !== ' ') return true;
  return false;
}

/** The relative-change direction stated next to a percentage ("a 71% reduction", "fell by 28%", "28% higher"), or 0. */
function changeNear(toks: Tok[], i: number, j: number): 1 | -1 | 0 {
  // After: "71% reduction", "28% higher", "30 percent lower"
  for (let k = j; k < Math.min(toks.length, j + 2); k++) {
    const w = toks[k]!.t;
    if (UP.has(w)) return 1;
    if (DOWN.has(w)) return -1;
  }
  // A hedge before the figure ("increased by about 20%") stands between it and the change it measures.
  let h = i;
  while (h > 0 && h > i - 3 && HEDGE_WORDS.has(toks[h - 1]!.t)) h--;
  // Before: "reduced by 28%", "an increase of 40%", "rose 12%"
  for (let k = h - 1; k >= Math.max(0, h - 3); k--) {
    const w = toks[k]!.t;
    // "(60%)" right after the change it measures: "a significant decrease (60%)".
    if (w === 'by' || w === 'of' || w === 'a' || w === 'an' || (w === '(' && k === h - 1)) continue;
    if (UP.has(w)) return 1;
    if (DOWN.has(w)) return -1;
    break;
  }
  // "by N%" after the change it measures: "reduced the rate of hospital admission by 12%".
  if (toks[h - 1]?.t === 'by') {
    for (let k = h - 2; k >= Math.max(0, h - 10); k--) {
      const w = toks[k]!.t;
      if (CLAUSE_END.has(w) || w === ',') break;
      if (UP.has(w)) return 1;
      if (DOWN.has(w)) return -1;
    }
  }
  return 0;
}

/** Spellings of one unit (models/align/lexicon.ts knows the abbreviations). */
const UNIT_SYNONYMS: Record<string, string> = { kilometr: 'km', kilometer: 'km', metr: 'm', meter: 'm', centimetr: 'cm', centimeter: 'cm', millimetr: 'mm', millimeter: 'mm', kilogram: 'kg', gram: 'g', milligram: 'mg', litr: 'l', liter: 'l', mil: 'mile' };

/** Words that make another unit of the one after them. */
const UNIT_QUALIFIERS = new Set(['nautical', 'square', 'sq', 'cubic', 'light', 'statute', 'metric', 'short', 'long']);

/** The stems of every word of `text` (what align.ts looks a quantity's context words up in). */
export function wordStems(text: string): Set<string> {
  return new Set(tokens(text).map((t) => stemWord(t.t)));
}

const MONTHS = new Set(['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec']);

/** Ratio measures by how they are written: abbreviations as printed (upper case), names in words. */
const RATIO_ABBREVIATIONS: Record<string, string> = { RR: 'relative risk', IRR: 'relative risk', aRR: 'relative risk', OR: 'odds ratio', aOR: 'odds ratio', HR: 'hazard ratio', aHR: 'hazard ratio' };
const RATIO_NAMES: [string, string, string][] = [['relative', 'risk', 'relative risk'], ['risk', 'ratio', 'relative risk'], ['rate', 'ratio', 'relative risk'], ['odds', 'ratio', 'odds ratio'], ['hazard', 'ratio', 'hazard ratio']];

/**
 * The ratio measure a number at token i is the value of, and where its marker starts: "RR 0.71", "(OR = 1.97",
 * "an odds ratio of 1.55", "a relative risk of cardiovascular events of 0.51" (within the clause, six words back).
 */
function ratioMarkerBefore(toks: Tok[], i: number, text: string): { measure: string; at: number; words: number } | undefined {
  for (let k = i - 1, n = 0; k >= 0 && n < 8; k--, n++) {
    const t = toks[k]!;
    const printed = text.slice(t.start, t.end);
    // An abbreviation right before its value ("OR 7.5", "RR, 1.98", "[OR] 7.5", "HR = 0.42"): further off, an
    // upper-case "OR" is as likely a heading's conjunction.
    if (RATIO_ABBREVIATIONS[printed]) return n <= 2 ? { measure: RATIO_ABBREVIATIONS[printed]!, at: k, words: 1 } : undefined;
    const name = RATIO_NAMES.find(([a, b2]) => toks[k - 1]?.t === a && t.t === b2);
    if (name) return { measure: name[2], at: k - 1, words: 2 };
    if (t.t === '(' || (CLAUSE_END.has(t.t) && t.t !== ':') || numberOf(t.t) !== undefined) return undefined;
  }
  return undefined;
}

const FRACTION_WORDS: Record<string, number> = { half: 2, third: 3, thirds: 3, quarter: 4, quarters: 4, fifth: 5, fifths: 5, tenth: 10, tenths: 10 };
const NUMERATORS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4 };

/** A fraction in words at token i, as a percentage and its length in tokens: "a third" (of), "half of", "three quarters", "two-thirds". */
function fractionAt(toks: Tok[], i: number): { value: number; length: number } | undefined {
  const w = toks[i]!.t;
  const hyphen = /^(one|two|three|four)-(half|thirds?|quarters?|fifths?|tenths?)$/.exec(w);
  if (hyphen) return { value: (100 * NUMERATORS[hyphen[1]!]!) / FRACTION_WORDS[hyphen[2]!]!, length: 1 };
  const next = toks[i + 1]?.t ?? '';
  if (w === 'half' && next === 'of') return { value: 50, length: 1 };
  if (NUMERATORS[w] !== undefined && FRACTION_WORDS[next] !== undefined && next !== 'half') {
    // "a quarter of", "three quarters within": a fraction of something, not "a third dose".
    const after = toks[i + 2]?.t ?? '';
    if (after === 'of' || NUMERATORS[w]! > 1 || /^\p{L}/u.test(after) === false || after === 'within' || after === 'in') return { value: (100 * NUMERATORS[w]!) / FRACTION_WORDS[next]!, length: 2 };
  }
  return undefined;
}

/** Every quantity `text` states, in order. */
export function statedQuantities(text: string): StatedQuantity[] {
  const toks = tokens(text);
  const out: StatedQuantity[] = [];
  const used = new Set<number>();
  const boundAt = (n: number): StatedQuantity['bound'] => {
    const i = toks[n - 1]?.t === '.' && ABBREVIATIONS.has(toks[n - 2]?.t ?? '') ? n - 1 : n;
    return phraseBefore(toks, i, AT_LEAST) ? 'at-least' : phraseBefore(toks, i, AT_MOST) ? 'at-most' : phraseBefore(toks, i, ABOUT) ? 'about' : undefined;
  };
  /** Tokens [i, j) state `q`; `about`: what it is about, when its own clause does not say (a ratio's). */
  const push = (q: Omit<StatedQuantity, 'about' | 'text'>, i: number, j: number, about?: string[]) => {
    const skip = new Set<number>();
    for (let k = i; k < j; k++) {
      used.add(k);
      skip.add(k);
    }
    out.push({ ...q, text: text.slice(toks[i]!.start, toks[j - 1]!.end), about: about ?? aboutWords(toks, i, j, skip) });
  };
  for (let i = 0; i < toks.length; i++) {
    if (used.has(i)) continue;
    const w = toks[i]!.t;
    // Fractions in words: "a third of", "half of", "three quarters", "two-thirds", "one-fifth".
    const frac = fractionAt(toks, i);
    if (frac) {
      push({ kind: 'percent', value: frac.value, unit: '', ...(boundAt(i) ? { bound: boundAt(i) } : {}) }, i, i + frac.length);
      continue;
    }
    // n-fold in words: "doubled", "halved", "twice", "threefold"; "two-fold", "2-fold", "2 fold", "3 times higher".
    const fw = FOLD_WORDS[w] ?? (/^(\w+?)-?fold$/.exec(w) ? numberOf(/^(\w+?)-?fold$/.exec(w)![1]!) : undefined);
    if (fw !== undefined) {
      const down = toks.slice(i + 1, i + 3).some((x) => DOWN.has(x.t)) && fw >= 1 && w !== 'twice' ? true : false;
      push({ kind: 'fold', value: down ? 1 / fw : fw, unit: '', ...(boundAt(i) ? { bound: boundAt(i) } : {}) }, i, i + 1);
      continue;
    }
    const unsigned = numberOf(w);
    if (unsigned === undefined) continue;
    const isWord = !/^\d/.test(w);
    const v = !isWord && negativeSign(toks, i, text) ? -unsigned : unsigned;
    if (!isWord && identifier(toks, i, text)) continue;
    const next = toks[i + 1]?.t;
    const next2 = toks[i + 2]?.t;
    const bound = boundAt(i);
    const b = bound ? { bound } : {};
    // "1 in 4", "one in four", "3 out of 10"
    if ((next === 'in' && numberOf(next2 ?? '') !== undefined) || (next === 'out' && next2 === 'of' && numberOf(toks[i + 3]?.t ?? '') !== undefined)) {
      const at = next === 'in' ? i + 2 : i + 3;
      const d = numberOf(toks[at]!.t)!;
      if (d > 0 && v <= d) {
        push({ kind: 'percent', value: (100 * v) / d, unit: '', ...b }, i, at + 1);
        continue;
      }
    }
    if (isWord && next !== '%' && next !== 'percent' && !(next === 'per' && next2 === 'cent') && next !== 'times' && next !== '-' && next !== 'fold') {
      // A number word from two up counts what it stands before ("nine trials", "a dozen patients", "twenty-two
      // countries"); "one of the", "one patient" (a pronoun or an article as often as a count) are left alone.
      const counted = toks[i + 1];
      if (v >= 2 && counted && /^\p{L}{3,}$/u.test(counted.t) && !STOP.has(counted.t) && numberOf(counted.t) === undefined && (w !== 'dozen' || toks[i - 1]?.t === 'a')) {
        const start = w === 'dozen' ? i - 1 : i;
        const unit = unitOf(counted.t) ?? unitOf(stemWord(counted.t)) ?? UNIT_SYNONYMS[stemWord(counted.t)] ?? stemWord(counted.t);
        push({ kind: 'count', value: v, unit, unitText: counted.t, ...(boundAt(start) ? { bound: boundAt(start) } : {}) }, start, i + 2);
      }
      continue;
    }
    // Ranges: "20-30%", "20 to 30 percent", "between 20 and 30%".
    let end = i + 1;
    let upper: number | undefined;
    if ((next === '-' || next === '–' || next === '−' || next === '—' || next === 'to') && numberOf(next2 ?? '') !== undefined && /^\d/.test(next2!)) {
      upper = numberOf(next2!)!;
      end = i + 3;
    } else if (next === 'to' && /^\d/.test(toks[i + 3]?.t ?? '') && negativeSign(toks, i + 3, text)) {
      // "−0.6 to −0.2": a range of negative values.
      upper = -numberOf(toks[i + 3]!.t)!;
      end = i + 4;
    } else if (toks[i - 1]?.t === 'between' && next === 'and' && numberOf(next2 ?? '') !== undefined) {
      upper = numberOf(next2!)!;
      end = i + 3;
    }
    const after = toks[end]?.t;
    const after2 = toks[end + 1]?.t;
    const range = upper !== undefined && upper > v ? { upper } : {};
    // "between 2000 and 2020", "1887 to 1889": a span of years.
    const isYear = (x: number) => Number.isInteger(x) && x >= 1500 && x <= 2100;
    if (upper !== undefined && isYear(v) && isYear(upper) && !/[.,]/.test(w) && !(after && (after === '%' || after === 'percent' || unitOf(after)))) {
      push({ kind: 'year', value: v, unit: '', ...range, ...b }, i, end);
      continue;
    }
    if (after === '%' || after === 'percent' || after === 'percentage' || (after === 'per' && after2 === 'cent')) {
      // A confidence level ("95% CI", "95% confidence interval") is no figure about anything.
      if (after === '%' && (after2 === 'ci' || after2 === 'confidence' || after2 === 'cis')) {
        used.add(i);
        continue;
      }
      const unitEnd = after === 'per' || (after === 'percentage' && (after2 === 'point' || after2 === 'points')) ? end + 2 : end + 1;
      const dir = changeNear(toks, i, unitEnd);
      if (dir !== 0 && upper === undefined) push({ kind: 'change', value: dir * v, unit: '', ...b }, i, unitEnd);
      else push({ kind: 'percent', value: v, unit: '', ...range, ...b }, i, unitEnd);
      continue;
    }
    if (after === 'fold' || (after === '-' && after2 === 'fold')) {
      const fend = after === 'fold' ? end + 1 : end + 2;
      const down = toks.slice(fend, fend + 2).some((x) => DOWN.has(x.t));
      push({ kind: 'fold', value: down ? 1 / v : v, unit: '', ...b }, i, fend);
      continue;
    }
    if (after === 'times' && toks[end + 1] && (UP.has(toks[end + 1]!.t) || DOWN.has(toks[end + 1]!.t) || toks[end + 1]!.t === 'as')) {
      const down = DOWN.has(toks[end + 1]!.t);
      push({ kind: 'fold', value: down ? 1 / v : v, unit: '', ...b }, i, end + 1);
      continue;
    }
    if (isWord) continue;
    const integer = Number.isInteger(v) && !/[.,]/.test(w);
    // A day of a date ("May 27, 1937", "9 November 1989") is part of the date, not a count: the year says it.
    if (integer && v >= 1 && v <= 31 && upper === undefined && (MONTHS.has(toks[i - 1]?.t ?? '') || MONTHS.has(after ?? ''))) continue;
    if (integer && upper === undefined && v >= 1500 && v <= 2100 && !(after && unitOf(after) && unitOf(after) !== 'year')) {
      push({ kind: 'year', value: v, unit: '', ...b }, i, i + 1);
      continue;
    }
    // A relative risk, odds ratio or hazard ratio ("RR 0.71", "an odds ratio of 1.55"): compared only with the same measure.
    const ratio = ratioMarkerBefore(toks, i, text);
    if (ratio) {
      // "(RR 0.71, 95% CI ...)": what it is about is said before the parenthesis.
      const from = toks[ratio.at - 1]?.t === '(' ? ratio.at - 1 : ratio.at;
      // ... and between the measure's name and its value ("a relative risk of cardiovascular events of 0.51").
      const between = toks.slice(ratio.at + ratio.words, i).flatMap((x) => contentStem(x.t) ?? []);
      push({ kind: 'ratio', value: v, unit: ratio.measure, ...range, ...b }, i, end, [...new Set([...aboutWords(toks, from, end, new Set()), ...between])]);
      continue;
    }
    // A count: the unit that follows, or the noun it counts ("12 patients", "5 mg", "3 days").
    const unitWord = after ?? '';
    const knownUnit = (w: string) => unitOf(w) ?? unitOf(stemWord(w)) ?? UNIT_SYNONYMS[stemWord(w)];
    // A word between the figure and its unit ("5 consecutive months", "3 more days"): the unit is the one after it.
    // (Not a word that makes another unit of it: "nautical miles", "square metres".)
    if (!knownUnit(unitWord) && /^\p{L}+$/u.test(unitWord) && !UNIT_QUALIFIERS.has(unitWord) && after2 && knownUnit(after2)) {
      push({ kind: 'count', value: v, unit: knownUnit(after2)!, unitText: toks[end + 1]!.t, ...range, ...b }, i, end + 2);
      continue;
    }
    const unit = knownUnit(unitWord) ?? (/^\p{L}/u.test(unitWord) && !STOP.has(unitWord) ? stemWord(unitWord) : '');
    push({ kind: 'count', value: v, unit, ...(unit ? { unitText: toks[end]!.t } : {}), ...range, ...b }, i, unit ? end + 1 : end);
  }
  return out;
}

/** How a quantity is said in a finding: "28 percent", "a 71 percent reduction", "doubled", "1 in 4" (as percent), "1889". */
export function quantityWords(q: StatedQuantity): string {
  const n = (x: number) => String(Number(x.toFixed(2)));
  const bound = q.bound === 'at-least' ? 'more than ' : q.bound === 'at-most' ? 'less than ' : q.bound === 'about' ? 'about ' : '';
  const range = q.upper !== undefined ? `${n(q.value)} to ${n(q.upper)}` : n(q.value);
  switch (q.kind) {
    case 'percent':
      return `${bound}${range} percent`;
    case 'change':
      return `${bound}a ${n(Math.abs(q.value))} percent ${q.value < 0 ? 'reduction' : 'increase'}`;
    case 'fold':
      return q.value === 2 ? `${bound}double (2-fold)` : q.value === 0.5 ? `${bound}half (0.5-fold)` : `${bound}${n(q.value)}-fold`;
    case 'year':
      return `${bound}${range}`;
    case 'count':
      return `${bound}${range}${q.unit ? ` ${q.unitText ?? q.unit}` : ''}`;
    case 'ratio':
      return `a ${q.unit} of ${bound}${range}`;
  }
}
