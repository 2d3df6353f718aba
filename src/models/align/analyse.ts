/**
 * One text read for alignment: wink-nlp tokens with lemma, part of speech and negation scope, plus what the
 * features compare: content words, changes stated (direction + what changes), quantities (number + unit,
 * identifiers such as "type 2" or "T-helper 17" left out), quantifiers and negation cues.
 *
 * The text is lower-cased before wink reads it: wink tags a capitalised sentence-initial word as a proper
 * noun and does not lemmatise it ("Higher", "Patients"). Names are found from the original casing by the
 * lexical features instead (lexical.ts `entities`).
 */
import { createRequire } from 'node:module';
import type winkNLP from 'wink-nlp';
import type model from 'wink-eng-lite-web-model';
import { changeOf, phrasalChangeOf, EXTRA_NEGATION_CUES, IDENTIFIER_PREFIXES, NEGATION_CUES, quantifierOf, unitOf, type Axis, type QuantifierKind } from './lexicon.js';

type Wink = ReturnType<typeof winkNLP>;
let nlp: Wink | undefined;
function wink(): Wink {
  if (!nlp) {
    // Required on first use, not imported: the model's data costs start-up time to every process that
    // merely imports this module (the CLI's --help, issue 31). Both packages are CommonJS.
    const require = createRequire(import.meta.url);
    const load = require('wink-nlp') as typeof winkNLP;
    nlp = load(require('wink-eng-lite-web-model') as typeof model, ['sbd', 'negation', 'pos']);
  }
  return nlp;
}

export interface AlignToken {
  /** Lower-cased surface form. */
  form: string;
  lemma: string;
  /** Porter stem of the form: one word family ("improves", "improvement") whatever the part of speech. */
  stem: string;
  pos: string;
  /** Inside a negation scope (wink's, or one opened by "lack", "absence", "fail"...). */
  negated: boolean;
  /** A content word: what the alignment must find in the other text. */
  content: boolean;
}

export interface Change {
  axis: Axis;
  dir: 1 | -1;
  /** Token index of the change word. */
  at: number;
  negated: boolean;
  /** Lemmas of the nearest content nouns around it: what it changes ("risk", "fracture"). */
  heads: string[];
  /**
   * The direction of its cause, read from change words before it in the same clause: -1 in "smoking
   * reduction reduces the risk" or "reduced intake of salt lowers blood pressure" (so these say that
   * smoking raises the risk and salt raises blood pressure), 1 when nothing modifies the cause.
   */
  cause: 1 | -1;
}

export interface Quantity {
  value: number;
  /** Normalised unit ("percent", "mg", ...) or "" when none follows. */
  unit: string;
  at: number;
}

export interface AlignAnalysis {
  tokens: AlignToken[];
  /** Indices of content tokens. */
  content: number[];
  changes: Change[];
  quantities: Quantity[];
  quantifiers: Set<QuantifierKind>;
  negationCues: number;
}

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'ADV', 'NUM', 'X']);
const NOUNISH = new Set(['NOUN', 'PROPN']);
/** Frequent verbs and adverbs that carry no content of their own in claims. */
const LIGHT = new Set(['be', 'have', 'do', 'also', 'however', 'thus', 'therefore', 'show', 'find', 'suggest', 'report', 'associate', 'use', 'may', 'can', 'well']);
const NUMBER = /^\d+(?:[.,]\d+)*$/;

function parseNumber(form: string): number | undefined {
  if (!NUMBER.test(form)) return undefined;
  // "1,000" is a thousand; "2,5" (decimal comma) is rare in English text and read as 25 here.
  const v = Number(form.includes('.') ? form.replace(/,/g, '') : form.replace(/,/g, ''));
  return Number.isFinite(v) ? v : undefined;
}

/**
 * wink-nlp's tokenizer learns: a word it has read once is kept in its cache, and later a string such as
 * "alzheimer's" may stay one token where it was split before. To make the analysis of a text independent
 * of what the process read earlier, the text is split at punctuation, clitics and hyphens before wink sees
 * it, so wink only ever meets plain space-separated words (decimals such as 2.5 and thousands such as
 * 12,345 stay whole: split at the comma, "12,345 patients" read as 12 and 345 patients).
 */
export function presplit(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’]/g, "'")
    .replace(/(\p{L})('s|n't|'re|'ve|'ll|'d|'m)(?=\P{L}|$)/gu, '$1 $2')
    .replace(/(\d)\.(?=\d)/g, '$1\u0000')
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1\u0001')
    .replace(/([^\p{L}\p{N}\s'\u0000\u0001])/gu, ' $1 ')
    .replace(/\u0000/g, '.')
    .replace(/\u0001/g, ',')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Analyses of recent texts, least recently used out: a source's sentences are read against every claim
 * that cites it, and candidate documents recur across an article's citations. wink's analysis is most of an
 * audit's CPU on the calling thread (issue 35). Analyses are never modified by their readers.
 */
const MEMO_SIZE = 4096;
const memo = new Map<string, AlignAnalysis>();

export function analyseForAlignment(text: string): AlignAnalysis {
  const hit = memo.get(text);
  if (hit) {
    memo.delete(text);
    memo.set(text, hit);
    return hit;
  }
  const a = analyseUncached(text);
  memo.set(text, a);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value!);
  return a;
}

function analyseUncached(text: string): AlignAnalysis {
  const doc = wink().readDoc(presplit(text));
  const its = wink().its;
  // wink's typings do not accept every `its` helper on a token collection; the values are as documented.
  const toks = doc.tokens();
  const out = (f?: unknown): unknown[] => (toks.out as (f?: unknown) => unknown[]).call(toks, f);
  const forms = out() as string[];
  const lemmas = out(its.lemma) as string[];
  const stems = out(its.stem) as string[];
  const poses = out(its.pos) as string[];
  const negs = out(its.negationFlag) as boolean[];
  const types = out(its.type) as string[];
  const tokens: AlignToken[] = [];
  let extraScope = false;
  let negationCues = 0;
  for (let i = 0; i < forms.length; i++) {
    const form = forms[i]!;
    const lemma = (lemmas[i] ?? form).toLowerCase();
    const pos = poses[i] ?? 'X';
    if (types[i] === 'punctuation') extraScope = false;
    const cue = NEGATION_CUES.has(lemma) || NEGATION_CUES.has(form);
    if (cue) negationCues++;
    const negated = !!negs[i] || extraScope;
    if (EXTRA_NEGATION_CUES.has(lemma)) extraScope = true;
    const isWord = types[i] === 'word' && /\p{L}/u.test(form) && form.length > 1;
    const content = isWord && !cue && CONTENT_POS.has(pos) && !LIGHT.has(lemma) && !quantifierOf(lemma);
    tokens.push({ form, lemma, stem: (stems[i] ?? form).toLowerCase(), pos, negated, content });
  }
  const content = tokens.map((t, i) => (t.content ? i : -1)).filter((i) => i >= 0);

  const changes: Change[] = [];
  tokens.forEach((t, i) => {
    // A phrasal verb ("speeds up the drift") changes what follows its particle; passive ("was sped up by"), what comes before.
    const phrasal = phrasalChangeOf(t.lemma, tokens[i + 1]?.form);
    const dirs = phrasal ?? changeOf(t.lemma) ?? changeOf(t.form);
    if (!dirs) return;
    const passive = [tokens[i - 1], tokens[i - 2]].some((p) => p && BE.has(p.lemma) && p.pos === 'AUX');
    const heads = phrasal && !passive ? headsAround(tokens, i + 1) : headsAround(tokens, i);
    const cause = causeDirection(tokens, i);
    for (const d of dirs) changes.push({ axis: d.axis, dir: d.dir, at: i, negated: t.negated, heads, cause });
  });

  const quantities: Quantity[] = [];
  tokens.forEach((t, i) => {
    if (types[i] !== 'number') return;
    const value = parseNumber(t.form);
    if (value === undefined) return;
    const prev = tokens[i - 1];
    const prev2 = tokens[i - 2];
    // Identifiers: "type 2", "phase 3", "T-helper 17" (a hyphenated word before), "IL-6" (kept whole by wink).
    if (prev && (IDENTIFIER_PREFIXES.has(prev.lemma) || prev.form === '-' || prev.form.includes('-') || /^\p{L}$/u.test(prev.form))) return;
    if (prev2?.form === '-' && prev) return;
    const next = tokens[i + 1];
    const unit = next ? unitOf(next.lemma) ?? unitOf(next.form) ?? '' : '';
    quantities.push({ value, unit, at: i });
  });

  const quantifiers = new Set<QuantifierKind>();
  for (const t of tokens) {
    const q = quantifierOf(t.lemma);
    if (q) quantifiers.add(q);
  }
  return { tokens, content, changes, quantities, quantifiers, negationCues };
}

/** Words that end a clause: a change word before one of them does not modify the cause of one after it. */
const CLAUSE_BREAK = new Set(['and', 'but', 'or', 'while', 'whereas', 'which', 'that', 'who', 'whom', 'when', 'where', 'although', 'though', 'because', 'if', 'than', 'as', 'whether', 'since', 'after', 'before', 'with']);
/** Nouns that turn their modifier's presence into its absence ("smoking cessation", "vitamin D deficiency"). */
export const CAUSE_REVERSERS = new Set(['cessation', 'discontinuation', 'withdrawal', 'deficiency', 'deficit', 'deprivation', 'removal', 'quitting', 'knockout', 'knockdown', 'deletion', 'ablation', 'silencing', 'interruption', 'disruption', 'inhibitor', 'antagonist']);
const CAUSE_WINDOW = 8;

/** Breaks after which a verb with no subject of its own shares the subject of the verb before. */
const COORDINATION = new Set([',', 'and', 'or', 'but']);
/** How far back (tokens) the verb that a coordinated verb shares its subject with may be. */
const COORDINATION_WINDOW = 12;

/**
 * The direction of what causes the change at `i`: the product of the magnitude change words (and
 * reversers) before it in its clause, so "X reduction reduces Y" composes to "X raises Y". A verb
 * coordinated with an earlier one and without a subject of its own ("Vitamin D deficiency exacerbates
 * osteoporosis, causes osteomalacia, and increases the risk of fractures") has that verb's cause: the
 * subject they share.
 */
function causeDirection(tokens: AlignToken[], i: number, depth = 0): 1 | -1 {
  let sign: 1 | -1 = 1;
  let ownSubject = false;
  let breakAt = -1;
  for (let j = i - 1, k = 0; j >= 0 && k < CAUSE_WINDOW; j--, k++) {
    const u = tokens[j]!;
    if (/^[.,;:()]$/.test(u.form) || CLAUSE_BREAK.has(u.lemma)) {
      breakAt = j;
      break;
    }
    if (NOUNISH.has(u.pos) || u.pos === 'PRON') ownSubject = true;
    const dirs = changeOf(u.lemma) ?? changeOf(u.form);
    const magnitude = dirs?.find((d) => d.axis === 'magnitude');
    if (magnitude && magnitude.dir < 0) sign = sign === 1 ? -1 : 1;
    else if (!magnitude && CAUSE_REVERSERS.has(u.lemma)) sign = sign === 1 ? -1 : 1;
  }
  if (tokens[i]!.pos !== 'VERB' || ownSubject || breakAt < 0 || depth >= 4 || !COORDINATION.has(tokens[breakAt]!.lemma)) return sign;
  for (let j = breakAt - 1; j >= 0 && j >= breakAt - COORDINATION_WINDOW; j--) {
    const u = tokens[j]!;
    if (/^[.;:()]$/.test(u.form)) break;
    if (u.pos === 'VERB') return causeDirection(tokens, j, depth + 1) === sign ? 1 : -1;
  }
  return sign;
}

const BE = new Set(['be', 'is', 'are', 'was', 'were', 'been', 'being', 'get', 'got']);

/**
 * What a change word changes: up to two content nouns within four tokens on one side. After an active
 * transitive verb or an adjective/noun followed by its noun ("increases the risk", "higher risk",
 * "reduction in mortality"); before a passive or intransitive verb or a predicate ("the risk was reduced",
 * "mortality fell in", "risk was higher"). Taking both sides would make the shared subject of "X raises A"
 * and "X lowers B" look like one thing changing both ways.
 */
function headsAround(tokens: AlignToken[], i: number): string[] {
  const t = tokens[i]!;
  const next = tokens[i + 1];
  const passive = [tokens[i - 1], tokens[i - 2]].some((p) => p && BE.has(p.lemma) && p.pos === 'AUX');
  const nextIsBoundary = !next || /^[.,;:()]$/.test(next.form);
  const forward = t.pos === 'VERB' ? !passive && !nextIsBoundary && next!.pos !== 'ADP' : !nextIsBoundary;
  const out: string[] = [];
  const step = forward ? 1 : -1;
  for (let j = i + step, k = 0; j >= 0 && j < tokens.length && k < 4 && out.length < 2; j += step, k++) {
    const u = tokens[j]!;
    if (/^[.,;:()]$/.test(u.form)) break;
    if (NOUNISH.has(u.pos) && u.content && !changeOf(u.lemma)) out.push(u.lemma);
  }
  return out;
}
