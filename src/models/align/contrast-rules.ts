/**
 * Minimal-edit rewrite rules that turn a claim a premise SUPPORTS into a twin the premise does not
 * support: flip the direction of change, add or remove negation, swap an adjective for its antonym,
 * change a number, or swap a name. Each rule edits one place of the original text (its casing and
 * punctuation kept) and returns undefined when it does not apply.
 *
 * They run on training claims for `veracite train` (src/learn/contrast) and, with another seed, on SciFact
 * dev claims for `veracite eval contrast` (an in-distribution check: same rules). At runtime the verdict
 * reads the claim's own counter-claims (src/verify/counter-claims.ts: negation, direction, antonym).
 */
import { analyseForAlignment, type AlignAnalysis } from './analyse.js';
import { changeOf } from './lexicon.js';
import { wordNet } from './wordnet.js';
import type { Rng } from '../../util/rng.js';

export const CONTRAST_RULES = ['direction', 'negation', 'antonym', 'number', 'entity'] as const;
export type ContrastRule = (typeof CONTRAST_RULES)[number];

/** What the premise says about the twin: it contradicts it, or it no longer supports it (neutral). */
export const RULE_LABEL: Record<ContrastRule, 'contradiction' | 'neutral'> = {
  direction: 'contradiction',
  negation: 'contradiction',
  antonym: 'contradiction',
  number: 'contradiction',
  entity: 'neutral',
};

/** A word of the original text with wink's reading of it. */
interface Word {
  start: number;
  end: number;
  form: string;
  lemma: string;
  pos: string;
}

/** wink's tokens located in the original text (wink reads it lower-cased; offsets are the same). */
function wordsOf(text: string, a: AlignAnalysis): Word[] | undefined {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return undefined; // a case mapping changed lengths: offsets would drift
  const out: Word[] = [];
  let at = 0;
  for (const t of a.tokens) {
    const i = lower.indexOf(t.form, at);
    if (i < 0) return undefined;
    out.push({ start: i, end: i + t.form.length, form: t.form, lemma: t.lemma, pos: t.pos });
    at = i + t.form.length;
  }
  return out;
}

function withCase(original: string, replacement: string): string {
  if (original.length > 1 && original === original.toUpperCase() && /\p{L}/u.test(original)) return replacement.toUpperCase();
  return /^\p{Lu}/u.test(original) ? replacement[0]!.toUpperCase() + replacement.slice(1) : replacement;
}

/** Replaces text[start, end) keeping its casing, and fixes an "a"/"an" right before it ("an decreased" -> "a decreased"). */
function splice(text: string, start: number, end: number, insert: string): string {
  let head = text.slice(0, start);
  const word = withCase(text.slice(start, end), insert);
  const art = /\b([Aa])(n?) $/.exec(head);
  if (art && /^\p{L}/u.test(word)) {
    const vowel = /^[aeiou]/i.test(word);
    head = head.slice(0, art.index) + art[1] + (vowel ? 'n ' : ' ');
  }
  return head + word + text.slice(end);
}

/**
 * wink tags verbs after a subject poorly ("Alendronate increases bone density": increases/NOUN, "Statins
 * lower cholesterol": lower/ADJ). A change word between a noun and a noun phrase is read as a verb.
 */
function verbLike(words: Word[], i: number): boolean {
  const w = words[i]!;
  if (w.pos === 'VERB') return true;
  const prev = words[i - 1];
  const next = words[i + 1];
  const changeWord = FLIP.has(w.form) || !!changeOf(w.lemma);
  return !!prev && !!next && changeWord && (prev.pos === 'NOUN' || prev.pos === 'PROPN') && ['NOUN', 'PROPN', 'DET', 'ADJ', 'NUM'].includes(next.pos) && (w.pos === 'NOUN' || w.pos === 'ADJ') && /(s|ed)$|^lower$|^raise$/.test(w.form);
}

/** Inflected forms that flip to each other, both ways unless marked. */
const FLIP_PAIRS: [string, string][] = [];
function verb(a: string[], b: string[]): void {
  a.forEach((f, i) => FLIP_PAIRS.push([f, b[i]!]));
}
verb(['increase', 'increases', 'increased', 'increasing'], ['decrease', 'decreases', 'decreased', 'decreasing']);
verb(['raise', 'raises', 'raised', 'raising'], ['lower', 'lowers', 'lowered', 'lowering']);
verb(['promote', 'promotes', 'promoted', 'promoting'], ['inhibit', 'inhibits', 'inhibited', 'inhibiting']);
verb(['upregulate', 'upregulates', 'upregulated', 'upregulating'], ['downregulate', 'downregulates', 'downregulated', 'downregulating']);
verb(['up-regulate', 'up-regulates', 'up-regulated', 'up-regulating'], ['down-regulate', 'down-regulates', 'down-regulated', 'down-regulating']);
verb(['improve', 'improves', 'improved', 'improving'], ['worsen', 'worsens', 'worsened', 'worsening']);
verb(['double', 'doubles', 'doubled', 'doubling'], ['halve', 'halves', 'halved', 'halving']);
verb(['higher', 'more', 'greater', 'larger', 'positive', 'positively', 'beneficial', 'better', 'faster', 'longer', 'elevated', 'gain', 'improvement', 'high', 'enhanced'],
  ['lower', 'less', 'smaller', 'smaller', 'negative', 'negatively', 'harmful', 'worse', 'slower', 'shorter', 'reduced', 'loss', 'deterioration', 'low', 'impaired']);
/** One way only: several words flip to the same word. */
const ONE_WAY: Record<string, string> = {
  reduce: 'increase', reduces: 'increases', reduced: 'increased', reducing: 'increasing', reduction: 'increase', reductions: 'increases',
  enhance: 'reduce', enhances: 'reduces', enhancing: 'reducing', activate: 'inhibit', activates: 'inhibits', activated: 'inhibited',
  suppress: 'promote', suppresses: 'promotes', suppressed: 'promoted', decline: 'increase', declines: 'increases', declined: 'increased',
  prevent: 'cause', prevents: 'causes', prevented: 'caused', accelerates: 'slows', accelerated: 'slowed', impairs: 'improves', impaired: 'improved',
  fewer: 'more', lowest: 'highest', highest: 'lowest', decreased: 'increased',
};
const FLIP = new Map<string, string>();
for (const [a, b] of FLIP_PAIRS) {
  FLIP.set(a, b);
  FLIP.set(b, a);
}
for (const [a, b] of Object.entries(ONE_WAY)) FLIP.set(a, b);
/** "lower" as a verb flips to "raise", as an adjective to "higher". */
const VERB_FLIP: Record<string, string> = { lower: 'raise', lowers: 'raises', lowered: 'raised', lowering: 'raising', increase: 'decrease', decrease: 'increase' };
const NOUN_FLIP: Record<string, string> = { increase: 'decrease', decrease: 'increase', lower: 'higher' };

export function flipDirection(text: string, a: AlignAnalysis, rng: Rng): string | undefined {
  const words = wordsOf(text, a);
  if (!words) return undefined;
  const cands = words.filter((w) => FLIP.has(w.form) && !(w.form === 'more' && words[words.indexOf(w) + 1]?.form === 'than'));
  if (!cands.length) return undefined;
  const w = cands[rng.int(cands.length)]!;
  const asVerb = verbLike(words, words.indexOf(w));
  const to = (asVerb ? VERB_FLIP[w.form] : w.pos === 'NOUN' ? NOUN_FLIP[w.form] : undefined) ?? FLIP.get(w.form)!;
  return splice(text, w.start, w.end, to);
}

const AUX_NEGATABLE = new Set(['is', 'are', 'was', 'were', 'can', 'could', 'may', 'might', 'will', 'would', 'should', 'must', 'has', 'have', 'had']);

/** Third-person singular of a verb lemma ("cause" -> "causes", "carry" -> "carries"). */
function thirdPerson(lemma: string): string {
  if (/(s|x|z|ch|sh|o)$/.test(lemma)) return `${lemma}es`;
  if (/[^aeiou]y$/.test(lemma)) return `${lemma.slice(0, -1)}ies`;
  return `${lemma}s`;
}

export function toggleNegation(text: string, a: AlignAnalysis): string | undefined {
  const words = wordsOf(text, a);
  if (!words) return undefined;
  // Remove: "is not" -> "is", "does not cause" -> "causes", "do not cause" -> "cause", "cannot" -> "can".
  const neg = words.findIndex((w) => w.form === 'not' || w.form === "n't");
  if (neg >= 0) {
    const aux = words[neg - 1];
    const next = words[neg + 1];
    if (!aux) return undefined;
    if (aux.form === 'does' && next?.pos === 'VERB') return text.slice(0, aux.start) + thirdPerson(next.lemma) + text.slice(next.end);
    if (aux.form === 'do' && next) return text.slice(0, aux.start) + text.slice(next.start);
    if (AUX_NEGATABLE.has(aux.form)) return (text.slice(0, aux.end) + text.slice(words[neg]!.end)).replace(/ {2,}/g, ' ');
    return undefined;
  }
  const cannot = words.find((w) => w.form === 'cannot');
  if (cannot) return splice(text, cannot.start, cannot.end, 'can');
  if (words.some((w) => w.form === 'no' || w.form === 'never' || w.form === 'without')) return undefined;
  // Add: "not" after the first auxiliary, else "does/do/did not" before the first finite verb.
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.pos === 'AUX' && AUX_NEGATABLE.has(w.form)) {
      if ((w.form === 'has' || w.form === 'have' || w.form === 'had') && words[i + 1]?.pos !== 'VERB' && words[i + 1]?.pos !== 'AUX') continue;
      return `${text.slice(0, w.end)} not${text.slice(w.end)}`;
    }
    if (verbLike(words, i) && i > 0 && !w.form.endsWith('ing')) {
      const prev = words[i - 1]!;
      if (prev.form === 'to' || prev.pos === 'DET' || prev.pos === 'ADP') continue;
      let aux: string;
      if (w.form === w.lemma) aux = 'do';
      else if (w.form === thirdPerson(w.lemma)) aux = 'does';
      else if (/ed$/.test(w.form) || w.form !== w.lemma) aux = 'did';
      else continue;
      return `${text.slice(0, w.start)}${aux} not ${w.lemma}${text.slice(w.end)}`;
    }
  }
  return undefined;
}

/** Antonyms that make a claim about another kind of thing rather than a false one (single -> multiple). */
const ANTONYM_SKIP = new Set(['single', 'multiple', 'human', 'other', 'specific', 'general', 'common', 'particular', 'certain', 'first', 'last', 'many', 'few', 'several', 'own', 'such', 'same', 'new', 'present']);
const HAND_ANTONYMS: Record<string, string> = {
  effective: 'ineffective', ineffective: 'effective', safe: 'unsafe', benign: 'malignant', malignant: 'benign', present: 'absent', absent: 'present',
  significant: 'insignificant', sufficient: 'insufficient', necessary: 'unnecessary', associated: 'unassociated', likely: 'unlikely', unlikely: 'likely',
  stable: 'unstable', active: 'inactive', inactive: 'active', common: 'rare', rare: 'common', strong: 'weak', weak: 'strong', essential: 'dispensable',
};

export function swapAntonym(text: string, a: AlignAnalysis, rng: Rng): string | undefined {
  const words = wordsOf(text, a);
  if (!words) return undefined;
  const wn = wordNet();
  const cands: { w: Word; to: string }[] = [];
  for (const w of words) {
    if (w.pos !== 'ADJ' || w.form !== w.lemma || ANTONYM_SKIP.has(w.form) || FLIP.has(w.form)) continue;
    const hand = HAND_ANTONYMS[w.form];
    const ant = hand ?? [...wn.relations(w.lemma).antonyms].find((x) => /^[a-z-]+$/.test(x) && !ANTONYM_SKIP.has(x));
    if (ant) cands.push({ w, to: ant });
  }
  if (!cands.length) return undefined;
  const c = cands[rng.int(cands.length)]!;
  return splice(text, c.w.start, c.w.end, c.to);
}

export function changeNumber(text: string, a: AlignAnalysis, rng: Rng): string | undefined {
  const words = wordsOf(text, a);
  if (!words || !a.quantities.length) return undefined;
  const q = a.quantities[rng.int(a.quantities.length)]!;
  const w = words[q.at]!;
  const v = q.value;
  let to: number;
  if (Number.isInteger(v) && v >= 1900 && v <= 2100 && !q.unit) to = v + (rng.int(2) ? 1 : -1) * (2 + rng.int(8));
  else if (v === 0) to = 1 + rng.int(9);
  else to = v < 50 || q.unit === 'fold' ? v * 2 : v / 2;
  const decimals = (w.form.split('.')[1] ?? '').length;
  const s = decimals ? to.toFixed(decimals) : String(Math.round(to));
  if (s === w.form.replace(/,/g, '')) return undefined;
  return text.slice(0, w.start) + s + text.slice(w.end);
}

/** Names: capitalised words after the first, or mixed-case words (IL-6, mTOR). */
export function namesIn(text: string): { start: number; end: number; name: string }[] {
  const out: { start: number; end: number; name: string }[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu)) {
    const s = m[0];
    if (m.index === 0) continue;
    if (/^\p{Lu}/u.test(s) || /\p{Ll}\p{Lu}/u.test(s) || (/\p{Lu}/u.test(s) && /\d/.test(s))) out.push({ start: m.index!, end: m.index! + s.length, name: s });
  }
  return out;
}

/** Gene-like codes (DGKK, IL-6, Ly49Q) and capitalised words (Paris) are swapped only for their own kind. */
function nameShape(name: string): 'code' | 'word' {
  return /\d/.test(name) || name === name.toUpperCase() || /\p{Ll}\p{Lu}/u.test(name) ? 'code' : 'word';
}

/** Replaces a name the premise also mentions by a name of the same shape from `pool` that neither text mentions. */
export function swapEntity(text: string, premise: string, pool: readonly string[], rng: Rng): string | undefined {
  const lowerPremise = premise.toLowerCase();
  const names = namesIn(text).filter((n) => lowerPremise.includes(n.name.toLowerCase()));
  if (!names.length || !pool.length) return undefined;
  const n = names[rng.int(names.length)]!;
  const lower = text.toLowerCase();
  const same = pool.filter((p) => nameShape(p) === nameShape(n.name));
  for (let tries = 0; tries < 8 && same.length; tries++) {
    const to = same[rng.int(same.length)]!;
    if (lower.includes(to.toLowerCase()) || lowerPremise.includes(to.toLowerCase())) continue;
    return text.slice(0, n.start) + to + text.slice(n.end);
  }
  return undefined;
}

/** Applies one rule; undefined when it does not apply or the text would not change. */
export function applyRule(rule: ContrastRule, claim: string, premise: string, rng: Rng, namePool: readonly string[], analysis = analyseForAlignment(claim)): string | undefined {
  let out: string | undefined;
  switch (rule) {
    case 'direction':
      out = flipDirection(claim, analysis, rng);
      break;
    case 'negation':
      out = toggleNegation(claim, analysis);
      break;
    case 'antonym':
      out = swapAntonym(claim, analysis, rng);
      break;
    case 'number':
      out = changeNumber(claim, analysis, rng);
      break;
    case 'entity':
      out = swapEntity(claim, premise, namePool, rng);
      break;
  }
  return out !== undefined && out !== claim ? out : undefined;
}
