/**
 * Findings: what, in so many words, sets a piece of evidence against the claim, said for a person to read
 * ("the source says 28 percent, the claim says 58 percent"; "the source says tumor metastasis decreased;
 * the claim says it increases"; "the source says "did not lower resting blood pressure"; ..."). Three kinds:
 * a different quantity about the same thing (align.ts), a change of the same thing the other way, and a
 * statement negated in one text only (direction.ts).
 *
 * How they are used, everywhere (verify, the audit's support judgement, check):
 *   - a sentence with a finding is never read as support: its entailment is capped at its contradiction
 *     (`readWithFindings`), and the highlighting rule never colours it "supports" (highlight/evidence-role.ts);
 *   - a decisive finding (the alignment is unambiguous: one value about the same thing, or the same change
 *     of a claim whose subject the evidence names) is read as a contradiction, and decides REFUTES for the
 *     document it is in when that document passes the relevance gate (verifier.ts).
 */
import { analyseForAlignment, type AlignAnalysis } from '../../models/align/analyse.js';
import type { EntailmentProbs } from '../../models/types.js';
import { quantityMismatches, sameMeasure, within } from './align.js';
import { oppositionFindings } from './direction.js';
import { statedQuantities, wordStems, type StatedQuantity } from './quantities.js';
import { noEffectAgainstEffect, noEffectCover, sameContrast, swappedContrast } from './contrast.js';
import { swappedGroups } from './swapped-groups.js';

export type FindingKind = 'quantity' | 'direction' | 'negation';

export interface Finding {
  kind: FindingKind;
  /** In words, for people: what the source says against what the claim says. */
  message: string;
  /** The words of the claim it is about ("58%", "increases"). */
  claimText: string;
  /** The words of the evidence it is about ("28%", "decreased tumor metastasis"). */
  evidenceText: string;
  /** Unambiguous: the verdict may rest on it (REFUTES). */
  decisive: boolean;
}

interface Read {
  align: AlignAnalysis;
  quantities: StatedQuantity[];
  words: Set<string>;
  /** Stems of its words (quantities.ts stemWord). */
  stems: Set<string>;
}

/** Analyses of recent texts: the claim is read against every sentence, a sentence against the claim and its counter-claims. */
const MEMO_SIZE = 512;
const memo = new Map<string, Read>();
/** Texts known to be sentences joined by spaces (a document's evidence read as one premise), with their parts. */
const joinedParts = new Map<string, readonly string[]>();

/**
 * Says that `parts` joined by spaces is one premise (a document's evidence read as one): its findings are
 * then its sentences' own, each sentence read once.
 */
export function noteJoined(parts: readonly string[]): void {
  if (parts.length < 2) return;
  const joined = parts.join(' ');
  if (joinedParts.size >= MEMO_SIZE) joinedParts.delete(joinedParts.keys().next().value!);
  joinedParts.set(joined, parts);
}

/** Whether `text` was noted as sentences joined (a document's evidence read as one premise). */
export function isJoined(text: string): boolean {
  return joinedParts.has(text);
}

function read(text: string): Read {
  let r = memo.get(text);
  if (r) return r;
  const align = analyseForAlignment(text);
  const quantities = statedQuantities(text);
  const words = new Set<string>();
  for (const t of align.tokens) {
    words.add(t.lemma);
    words.add(t.form);
  }
  r = { align, quantities, words, stems: wordStems(text) };
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(text, r);
  return r;
}

const pairMemo = new Map<string, Finding[]>();

/** The findings of `evidence` against `claim`, decisive ones first. */
export function findingsOf(claim: string, evidence: string): Finding[] {
  const key = `${claim}\u0000${evidence}`;
  const known = pairMemo.get(key);
  if (known) return known;
  const out: Finding[] = [];
  // Sentences joined into one premise: the findings of each sentence, read alone (read over the whole
  // document, a claim's subject words found in other sentences would make one sentence's finding decisive).
  const parts = joinedParts.get(evidence);
  if (parts) {
    const seen = new Set<string>();
    for (const fs of documentFindings(claim, parts)) for (const f of fs) if (!seen.has(f.message)) (seen.add(f.message), out.push(f));
    out.sort((a, b) => Number(b.decisive) - Number(a.decisive));
    pairMemo.set(key, out);
    return out;
  }
  const c = read(claim);
  const e = read(evidence);
  if (c.quantities.length && e.quantities.length) {
    for (const m of quantityMismatches(c.quantities, e.quantities, e.stems)) {
      out.push({ kind: 'quantity', message: m.message, claimText: m.claim.text, evidenceText: m.evidence.map((q) => q.text).join(', '), decisive: m.decisive });
    }
  }
  if (c.align.changes.length || c.align.negationCues || e.align.negationCues) out.push(...oppositionFindings(c.align, e.align));
  // Phrasing (contrast.ts): "X but not Y" against "Y but not X"; "no association" against an effect. The
  // same contrast in both texts ("length, rather than weight" / "length, not weight") negates nothing.
  // Swapped groups (swapped-groups.ts): two figures given to two things crossed; the same comparison made
  // of the group on the other side of the same threshold.
  const phrased = swappedContrast(claim, evidence) ?? noEffectAgainstEffect(claim, evidence) ?? swappedGroups(claim, evidence);
  if (phrased) out.unshift(phrased);
  if (!phrased && sameContrast(claim, evidence)) out.splice(0, out.length, ...out.filter((f) => f.kind !== 'negation'));
  out.sort((a, b) => Number(b.decisive) - Number(a.decisive));
  if (pairMemo.size >= MEMO_SIZE) pairMemo.delete(pairMemo.keys().next().value!);
  pairMemo.set(key, out);
  return out;
}

/**
 * Whether `sentence` states the claim's figure that `finding` is about (the same kind of quantity, within its
 * tolerance): then the source gives the claim's figure too, and another figure elsewhere in it is about
 * something else as often as not ("15.3% of athletes at the 1996 Games" against a sentence on the 1984 Games).
 */
export function statesClaimFigure(claim: string, finding: Finding, sentence: string): boolean {
  if (finding.kind !== 'quantity') return false;
  const c = read(claim).quantities.find((q) => q.text === finding.claimText);
  if (!c) return false;
  return read(sentence).quantities.some((e) => sameMeasure(c, e) && within(c, e));
}

/**
 * The findings of a document's evidence sentences read together: a quantity finding stays decisive only when
 * no other of its sentences states the claim's figure (the alignment is then ambiguous, and the finding is
 * shown as such). `sentences` are one document's, in order; returns each one's findings.
 */
export function documentFindings(claim: string, sentences: readonly string[]): Finding[][] {
  const each = sentences.map((s) => findingsOf(claim, s));
  return each.map((fs, i) =>
    fs.map((f) => (f.decisive && sentences.some((s, j) => j !== i && statesClaimFigure(claim, f, s)) ? { ...f, decisive: false, message: `${f.message} (it also states the claim's figure elsewhere)` } : f)),
  );
}

/**
 * The findings of a source's best evidence sentences read as one text (a sentence's subject may be named in
 * the one before it: "The Great Wall of China ..." / "... at 21,196 km"), except that a decisive change or
 * negation must be stated by one sentence on its own: read across sentences, "lower risk" (of pre-eclampsia)
 * against "Increased risk ... with increased birthweight" looked decisive because "pre-eclampsia" was named
 * in another sentence.
 */
export function evidenceFindings(claim: string, sentences: readonly string[]): Finding[] {
  const joined = findingsOf(claim, sentences.join(' '));
  if (sentences.length < 2 || !joined.some((f) => f.decisive && f.kind !== 'quantity')) return joined;
  const single = new Set(sentences.flatMap((s) => findingsOf(claim, s).filter((f) => f.decisive).map((f) => f.kind)));
  return joined.map((f) => (f.decisive && f.kind !== 'quantity' && !single.has(f.kind) ? { ...f, decisive: false } : f)).sort((a, b) => Number(b.decisive) - Number(a.decisive));
}

/** Sentences that share less than this share of the claim's word stems are not read for findings across a whole source. */
const SOURCE_SENTENCE_OVERLAP = 0.3;

/**
 * The findings of a whole source (every sentence, not only its best evidence), decisive ones first: a source
 * may state the conflict in a sentence the evidence scorer ranks low ("No association was detected between
 * bariatric surgery and fractures, cancer, or stroke"). Sentences sharing few of the claim's words are
 * skipped (cost, and findings about other things). The claim's things denied an effect across several
 * sentences count as one finding ("... do not vary significantly with these ten factors" and "little
 * evidence that ... were affected by use of hormone replacement therapy").
 */
export function sourceFindings(claim: string, sentences: readonly string[]): Finding[] {
  const claimStems = wordStems(claim);
  const near = sentences.filter((s) => {
    const st = wordStems(s);
    let n = 0;
    for (const w of claimStems) if (st.has(w)) n++;
    return n / Math.max(1, claimStems.size) >= SOURCE_SENTENCE_OVERLAP;
  });
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const fs of documentFindings(claim, near)) for (const f of fs) if (!seen.has(f.message)) (seen.add(f.message), out.push(f));
  if (!out.some((f) => f.decisive)) {
    const covered = noEffectCover(claim, near);
    if (covered) out.push(covered);
  }
  return out.sort((a, b) => Number(b.decisive) - Number(a.decisive));
}

/** Raw contradiction a decisive finding is read as at least: the evidence states the opposite in so many words. */
export const DECISIVE_CONTRADICTION = 0.9;

/**
 * The entailment reading with the findings applied: with any finding, entailment is capped at contradiction
 * (the rest goes to neutral); with a decisive one, contradiction is at least DECISIVE_CONTRADICTION and
 * takes what entailment had.
 */
export function readWithFindings(p: EntailmentProbs, findings: readonly Finding[]): EntailmentProbs {
  if (findings.length === 0) return p;
  if (findings.some((f) => f.decisive)) {
    const contradiction = Math.max(p.contradiction, p.entailment, DECISIVE_CONTRADICTION);
    const entailment = Math.min(p.entailment, p.contradiction, 1 - contradiction);
    return { entailment, neutral: Math.max(0, 1 - contradiction - entailment), contradiction };
  }
  if (p.entailment <= p.contradiction) return p;
  return { entailment: p.contradiction, neutral: p.neutral + p.entailment - p.contradiction, contradiction: p.contradiction };
}

/** The findings of one piece of evidence said in one line each, decisive ones marked. */
export function findingLines(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.message}${f.decisive ? '' : ' (not decisive)'}`);
}
