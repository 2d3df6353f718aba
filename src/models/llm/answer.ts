/**
 * Reading a judge's answer: the label (first line), P(support) from the label token's log-probabilities
 * when the server gave them, else the discrete answer (its probabilities mean something only after the
 * profile's calibration), and the quotes, each kept only when it is found in the source text. Anything
 * else (no label, an empty answer) is a reading that needs review, with the reason: never an exception.
 */
import type { EntailmentProbs } from '../types.js';
import { LABELS, unescapeData, type JudgeLabel } from './prompt.js';

export interface TopLogprob {
  token: string;
  logprob: number;
}

/** One generated token with its alternatives (OpenAI `logprobs.content[]`, Ollama `logprobs[]`). */
export interface TokenLogprob extends TopLogprob {
  top: TopLogprob[];
}

export interface JudgeReading {
  probs: EntailmentProbs;
  label?: JudgeLabel;
  /** Where the probabilities come from. */
  from: 'logprobs' | 'answer' | 'none';
  /** Quotes found verbatim (up to spacing and case) in the source. */
  quotes: string[];
  /** Quotes the judge gave that are not in the source: dropped. */
  dropped: string[];
  /** Set when the reading cannot be trusted as it is: why. */
  review?: string;
}

/** Below this share of the first token's probability on the three labels, the log-probabilities are not read. */
const MIN_LABEL_MASS = 0.5;
/** The discrete answer's reading before calibration (a floor keeps every class possible). */
const DISCRETE = 0.98;

const PROB_KEY: Record<JudgeLabel, keyof EntailmentProbs> = { SUPPORTED: 'entailment', CONTRADICTED: 'contradiction', NOT_ENOUGH_INFO: 'neutral' };
const UNREAD: EntailmentProbs = { entailment: 1 / 3, neutral: 1 / 3, contradiction: 1 / 3 };

/**
 * Binary judges trained to answer Yes / No (the MiniCheck family, e.g. Bespoke-MiniCheck on Ollama, whose
 * own template overrides the format asked for): Yes is SUPPORTED; No means "not supported", which cannot
 * tell a contradiction from missing information, so it is read as NOT_ENOUGH_INFO (such a judge never
 * reads REFUTES on its own: docs/MODELS.md).
 */
const BINARY: Record<string, JudgeLabel> = { YES: 'SUPPORTED', NO: 'NOT_ENOUGH_INFO' };

function labelOfWord(word: string): JudgeLabel | undefined {
  const w = word.replace(/[\s-]+/g, '_').replace(/[^A-Z_]/gi, '').toUpperCase();
  if (!w) return undefined;
  return LABELS.find((l) => w.startsWith(l)) ?? BINARY[w] ?? (w === 'NOT_ENOUGH_INFORMATION' ? 'NOT_ENOUGH_INFO' : undefined);
}

/** The label on the answer's first non-empty line (markdown emphasis, quotes and "Answer:" tolerated). */
export function labelOf(content: string): JudgeLabel | undefined {
  const line = content.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
  if (!line) return undefined;
  const bare = line.replace(/^(answer|label|verdict)\s*:\s*/i, '').replace(/^[\s*#_`"'“]+/, '');
  const m = /^(not[\s_-]+enough[\s_-]+info(?:rmation)?|[A-Za-z_]+)/i.exec(bare);
  // "No" and "Not ..." differ: only the exact words (or a label) are read.
  return m ? labelOfWord(m[1]!) : undefined;
}

/** A token's label when it can only begin that label (S, C, N start exactly one each). */
function labelOfToken(token: string): JudgeLabel | undefined {
  const t = token.replace(/^[^A-Za-z]+/, '').replace(/[^A-Za-z_ ]+$/, '').replace(/ /g, '_').toUpperCase();
  if (!t) return undefined;
  return BINARY[t] ?? LABELS.find((l) => l.startsWith(t) || t.startsWith(l));
}

/** Class probabilities at the label's token: the first token holding a letter. */
export function probsFromLogprobs(tokens: readonly TokenLogprob[]): EntailmentProbs | undefined {
  const at = tokens.find((t) => /[A-Za-z]/.test(t.token));
  if (!at) return undefined;
  const alternatives = at.top.length ? at.top : [at];
  const mass: Record<JudgeLabel, number> = { SUPPORTED: 0, CONTRADICTED: 0, NOT_ENOUGH_INFO: 0 };
  const seen = new Set<string>();
  for (const a of alternatives) {
    if (seen.has(a.token) || !Number.isFinite(a.logprob)) continue;
    seen.add(a.token);
    const l = labelOfToken(a.token);
    if (l) mass[l] += Math.exp(a.logprob);
  }
  const total = mass.SUPPORTED + mass.CONTRADICTED + mass.NOT_ENOUGH_INFO;
  if (!(total >= MIN_LABEL_MASS)) return undefined;
  const floor = 1e-4;
  const raw = LABELS.map((l) => Math.max(mass[l] / total, floor));
  const z = raw.reduce((a, b) => a + b, 0);
  return { entailment: raw[0]! / z, contradiction: raw[1]! / z, neutral: raw[2]! / z };
}

const fold = (s: string) =>
  s
    .normalize('NFKC')
    .replace(/[“”«»„]/g, '"')
    .replace(/[‘’]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** The QUOTE lines of an answer, unescaped, without their quotation marks. */
export function quotesOf(content: string): string[] {
  const out: string[] = [];
  for (const m of content.matchAll(/^\s*[*_]*quote[*_]*\s*:\s*(.+?)\s*$/gim)) {
    const q = unescapeData(m[1]!).replace(/^["“'‘]+/, '').replace(/["”'’]+$/, '').trim();
    if (q) out.push(q);
  }
  return out;
}

export function readAnswer(content: string, tokens: readonly TokenLogprob[] | undefined, source: string): JudgeReading {
  const label = labelOf(content);
  const quotes: string[] = [];
  const dropped: string[] = [];
  const haystack = fold(source);
  for (const q of quotesOf(content)) (haystack.includes(fold(q)) ? quotes : dropped).push(q);
  if (!label) {
    const shown = content.trim().slice(0, 80).replace(/\s+/g, ' ');
    return { probs: UNREAD, from: 'none', quotes, dropped, review: content.trim() ? `the judge's answer does not start with ${LABELS.join(', ')}: "${shown}"` : "the judge's answer is empty" };
  }
  const fromTokens = tokens?.length ? probsFromLogprobs(tokens) : undefined;
  const probs = fromTokens ?? { entailment: (1 - DISCRETE) / 2, neutral: (1 - DISCRETE) / 2, contradiction: (1 - DISCRETE) / 2, [PROB_KEY[label]]: DISCRETE };
  const reading: JudgeReading = { probs, label, from: fromTokens ? 'logprobs' : 'answer', quotes, dropped };
  if (label !== 'NOT_ENOUGH_INFO' && dropped.length && !quotes.length) reading.review = `the judge answered ${label} quoting text that is not in the source ("${dropped[0]!.slice(0, 60)}"): the quote was dropped`;
  return reading;
}
