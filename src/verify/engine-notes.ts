/**
 * What the engine behind a verdict cannot do (issue 28, item 5). Every verdict names its entailment engine;
 * for the offline one (the small heads over Universal Sentence Encoder vectors, backend `trained`) it also
 * names the known weak spots that apply to this claim and its deciding evidence:
 * - unaligned-number: a figure of the claim that no deciding evidence sentence states. The offline engine
 *   reads sentence vectors and word overlaps; it does not line figures up, so "58%" against "28%" can read
 *   as support (src/verify/findings compares the figures it can align; one it cannot is said here).
 * - long-range-negation: a negation in a long claim, or in a long evidence sentence that takes a side. The engine's features see a
 *   negation word, not what it negates; far from the words it changes it is often misread.
 * A stronger (ONNX transformer) engine reads both better; docs/MODELS.md says how to use one.
 */
import type { ModelInfo } from '../models/types.js';
import type { EngineNote, EvidenceSentence, WeakSpot, WeakSpotKind } from './types.js';

export type { EngineNote, WeakSpot, WeakSpotKind };

const NUMBER = /(?<![\w.])\d+(?:[.,]\d+)*(?:\s?%)?/g;
const NEGATION = /\b(?:not|no|never|neither|nor|without|none|cannot|fails?|failed|lacks?|lacked)\b|n't\b/i;
/** A negation in a sentence longer than this (words) is "long-range" for the offline engine. */
const LONG_SENTENCE = 15;
/** An evidence sentence read alone as entailing or contradicting the claim at least this much takes a side. */
const SIDED = 0.5;

function numbersOf(text: string): string[] {
  return [...new Set((text.match(NUMBER) ?? []).map((n) => n.replace(/\s/g, '').replace(/,(?=\d{3}\b)/g, '')))];
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

export function weakSpotsOf(claim: string, evidence: readonly Pick<EvidenceSentence, 'text' | 'entailment'>[]): WeakSpot[] {
  const out: WeakSpot[] = [];
  const stated = new Set(evidence.flatMap((e) => numbersOf(e.text)));
  const missing = numbersOf(claim).filter((n) => !stated.has(n) && !stated.has(n.replace(/%$/, '')));
  if (missing.length && evidence.length) {
    out.push({ kind: 'unaligned-number', message: `numbers it could not align: the claim's ${missing.map((n) => `"${n}"`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} in none of the deciding evidence sentences; the offline engine does not compare figures it cannot line up, so check them yourself` });
  }
  // The claim, or an evidence sentence that takes a side read alone (a misread negation flips what it says).
  const sided = evidence.filter((e) => !e.entailment || Math.max(e.entailment.entailment, e.entailment.contradiction) >= SIDED);
  const negated = [claim, ...sided.map((e) => e.text)].find((s) => NEGATION.test(s) && words(s) > LONG_SENTENCE);
  if (negated) {
    const where = negated === claim ? 'the claim' : 'an evidence sentence';
    out.push({ kind: 'long-range-negation', message: `long-range negation: ${where} negates something in a long sentence; the lite engine sees the negation word, not what it negates, and may read it the wrong way` });
  }
  return out;
}

export function engineNote(entailment: ModelInfo, claim: string, deciding: readonly Pick<EvidenceSentence, 'text' | 'entailment'>[]): EngineNote {
  const offline = entailment.backend === 'trained';
  return { name: entailment.id, offline, weakSpots: offline ? weakSpotsOf(claim, deciding) : [] };
}
