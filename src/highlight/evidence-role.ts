/**
 * One highlighting rule for every view (CLI text, HTML report, web page): an evidence sentence is
 * coloured by its ROLE for the claim, and the claim's words are marked inside it.
 *
 * The role comes from per-sentence probabilities, whichever the caller has:
 *   - support and/or contradiction probabilities (verify's per-sentence entailment; a support-aware audit
 *     engine): the sentence SUPPORTS, CONTRADICTS or is NEUTRAL by the verdict rule of
 *     src/verify/aggregate.ts `labelOf`, applied to the one sentence: supports when P(support) reaches its
 *     threshold and is at least P(contradict); otherwise contradicts when P(contradict) reaches its
 *     threshold; otherwise neutral. Pass the verdict's own thresholds so that the colours agree with the
 *     verdict; the default is 0.5 (more likely than not).
 *   - only a relevance probability (today's audit engine scores how well a sentence matches the claim,
 *     not whether it agrees): RELEVANT or NOT RELEVANT at 0.5. These two roles never claim agreement or
 *     disagreement, and they look different from the three above (see ROLE_LEGEND).
 *
 * A sentence with a finding (src/verify/findings: another figure than the claim's, the same thing changing
 * the other way, a negation of what the claim states) is never coloured "supports": with a decisive finding
 * it contradicts the claim, with another it is at most neutral, whatever its probabilities.
 *
 * src/web/evidence-role.js mirrors this file for the browser (the page has no build step); both are run
 * on the cases in cases.json by evidence-role.test.ts, so they cannot drift apart.
 */

import { contentTokens } from '../text/tfidf.js';

export const ROLES = ['supports', 'contradicts', 'neutral', 'relevant', 'not-relevant'] as const;
export type EvidenceRole = (typeof ROLES)[number];

/** Probabilities on the 0..1 scale; any may be missing. */
export interface RoleProbabilities {
  support?: number;
  contradict?: number;
  relevance?: number;
  /** What the sentence states against the claim (src/verify/findings): 'decisive', or 'stated' (a finding that decides nothing). */
  finding?: 'decisive' | 'stated';
}

export interface RoleThresholds {
  support: number;
  contradict: number;
  relevance: number;
}

export const DEFAULT_ROLE_THRESHOLDS: RoleThresholds = { support: 0.5, contradict: 0.5, relevance: 0.5 };

function isProbability(x: number | undefined): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** The sentence's role, or undefined when no probability is known (show it plain). */
export function evidenceRole(p: RoleProbabilities, thresholds: Partial<RoleThresholds> = {}): EvidenceRole | undefined {
  const t = { ...DEFAULT_ROLE_THRESHOLDS, ...thresholds };
  if (isProbability(p.support) || isProbability(p.contradict)) {
    const s = isProbability(p.support) ? p.support : 0;
    const c = isProbability(p.contradict) ? p.contradict : 0;
    if (p.finding === 'decisive') return 'contradicts';
    if (s >= t.support && s >= c) return p.finding ? 'neutral' : 'supports';
    if (c >= t.contradict) return 'contradicts';
    return 'neutral';
  }
  if (isProbability(p.relevance)) return p.relevance >= t.relevance ? 'relevant' : 'not-relevant';
  return undefined;
}

/**
 * A verify evidence sentence (src/verify/types.ts EvidenceSentence): its entailment read alone when the
 * verifier computed it (support = entailment, contradict = contradiction), else its evidence score as
 * relevance. Under the columbia rule pass its thresholds (AggregateConfig) so the colours agree with it.
 */
export function verifyEvidenceRole(e: VerifyEvidence, thresholds?: Partial<RoleThresholds>): EvidenceRole | undefined {
  if (e.entailment) return evidenceRole({ support: e.entailment.entailment, contradict: e.entailment.contradiction, ...findingOf(e) }, thresholds);
  return evidenceRole({ relevance: e.score }, thresholds);
}

/** What the highlighting reads of a verify evidence sentence (src/verify/types.ts EvidenceSentence). */
export interface VerifyEvidence {
  score: number;
  entailment?: { entailment: number; contradiction: number };
  findings?: readonly { decisive: boolean }[];
}

/** A sentence's findings as the rule reads them. */
export function findingOf(e: { findings?: readonly { decisive: boolean }[] }): Pick<RoleProbabilities, 'finding'> {
  if (!e.findings?.length) return {};
  return { finding: e.findings.some((f) => f.decisive) ? 'decisive' : 'stated' };
}

/** The verdict settings a verify result carries in its provenance (`provenance.config.verdict`). */
export interface VerdictDisplayConfig {
  rule?: string;
  across?: string;
  supportThreshold?: number;
  refuteThreshold?: number;
  relevanceThreshold?: number;
  /** The verdict's probability calibrator, when it has one: its thresholds then apply to calibrated probabilities. */
  calibrator?: unknown;
}

/**
 * The roles of a verdict's evidence sentences, as the verdict reads them:
 *   - a sentence whose document (or, pooled, whose whole evidence) does not reach the verdict's relevance
 *     gate is NOT RELEVANT whatever its entailment: the verdict cannot take a side on it, so colouring it
 *     "contradicts" would show a disagreement that does not count ("The Eiffel Tower is located in Berlin"
 *     against a BRCA1 sentence about "located" cluster regions);
 *   - otherwise its entailment read alone, at the plain 0.5 that the legend's "more likely than not"
 *     states. An uncalibrated columbia rule's own thresholds are used instead, since they apply to these
 *     raw probabilities; a calibrated rule's thresholds apply to the calibrator's output, which leans on
 *     relevance (raw entailment 0.16 against contradiction 0.34 on a relevant sentence can come out
 *     SUPPORTS), and the concat rule's to the sentences joined: read against the raw sentence they would
 *     colour "contradicts" a sentence that decided a SUPPORTS verdict.
 *
 * `reading` (the verdict's label and the document that decided it): a sentence is marked "supports" or
 * "contradicts" only when the decision used it and in the direction the engine read: in the deciding
 * document (or pooled, anywhere), "supports" only under SUPPORTS, "contradicts" only under REFUTES; any other
 * agreement reading is shown "neutral" (the verdict did not read it so). A NOT ENOUGH INFO verdict marks none.
 */
export function verifyEvidenceRoles(evidence: readonly (VerifyEvidence & { docId: string })[], verdict: VerdictDisplayConfig = {}, reading?: VerdictReading): (EvidenceRole | undefined)[] {
  const own = verdict.rule !== 'concat' && !verdict.calibrator;
  const thresholds: Partial<RoleThresholds> = own
    ? { ...(verdict.supportThreshold !== undefined ? { support: verdict.supportThreshold } : {}), ...(verdict.refuteThreshold !== undefined ? { contradict: verdict.refuteThreshold } : {}) }
    : {};
  // Only a verdict with a relevance gate sets sentences aside; without one, relevance roles are read at 0.5.
  const gated = isProbability(verdict.relevanceThreshold) && verdict.relevanceThreshold > 0;
  const gate = verifyRelevanceThreshold(verdict);
  const best = new Map<string, number>();
  const groupOf = (e: { docId: string }) => (verdict.across === 'pooled' ? '' : e.docId);
  for (const e of evidence) best.set(groupOf(e), Math.max(best.get(groupOf(e)) ?? -Infinity, e.score));
  return evidence.map((e) => {
    if (gated && e.entailment && best.get(groupOf(e))! < gate) return 'not-relevant';
    return asRead(verifyEvidenceRole(e, { ...thresholds, relevance: gate }), e, verdict, reading);
  });
}

/** What the verdict read: its label and the document that decided it (absent pooled, or with no side). */
export interface VerdictReading {
  label: string;
  docId?: string;
}

/** An agreement role kept only where the verdict used the sentence and read it that way (see verifyEvidenceRoles). */
function asRead(role: EvidenceRole | undefined, e: { docId: string }, verdict: VerdictDisplayConfig, reading: VerdictReading | undefined): EvidenceRole | undefined {
  if (!reading || (role !== 'supports' && role !== 'contradicts')) return role;
  const used = verdict.across === 'pooled' || reading.docId === undefined || reading.docId === e.docId;
  const direction = role === 'supports' ? 'SUPPORTS' : 'REFUTES';
  return used && reading.label === direction ? role : 'neutral';
}

/** The relevance threshold a verdict's evidence roles use (its gate, else 0.5): what its legend states. */
export function verifyRelevanceThreshold(verdict: VerdictDisplayConfig = {}): number {
  const gate = verdict.relevanceThreshold;
  return isProbability(gate) && gate > 0 ? gate : DEFAULT_ROLE_THRESHOLDS.relevance;
}

/**
 * An audit evidence sentence (src/audit/score-document.ts EvidenceSentence, or the API's source view):
 * support / contradict when a support-aware engine gives them, else its score as relevance, but only
 * when that score is a probability (the trained head's; the lexical scorer's word share is not).
 */
export function auditEvidenceRole(e: { score?: number; support?: number; contradict?: number }, scoreIsProbability: boolean, thresholds?: Partial<RoleThresholds>): EvidenceRole | undefined {
  const p: RoleProbabilities = {};
  if (e.support !== undefined) p.support = e.support;
  if (e.contradict !== undefined) p.contradict = e.contradict;
  if (scoreIsProbability && e.score !== undefined) p.relevance = e.score;
  return evidenceRole(p, thresholds);
}

export interface RoleLegendEntry {
  role: EvidenceRole;
  /** Short name shown in legends and as the sentence's tooltip. */
  label: string;
  /** What it means, in a sentence. */
  description: string;
  /** Symbol shown before the label (the colour is never the only cue). */
  symbol: string;
  /** Background and border colours (the web's styles.css uses the same values). */
  background: string;
  border: string;
}

export const ROLE_LEGEND: readonly RoleLegendEntry[] = [
  { role: 'supports', label: 'supports', description: 'more likely than not, the sentence states the claim', symbol: '✓', background: '#d3f2dc', border: '#1d7a3a' },
  { role: 'contradicts', label: 'contradicts', description: 'the sentence states the opposite of the claim', symbol: '✗', background: '#fde0dd', border: '#b42318' },
  { role: 'neutral', label: 'neutral', description: 'related, but neither states nor denies the claim', symbol: '–', background: '#eceff3', border: '#5d6b78' },
  { role: 'relevant', label: 'relevant', description: relevanceWords('relevant', 0.5), symbol: '●', background: '#fff1a8', border: '#9a7b00' },
  { role: 'not-relevant', label: 'not relevant', description: relevanceWords('not-relevant', 0.5), symbol: '○', background: 'transparent', border: '#9aa5b1' },
];

/** The relevance roles' descriptions name the threshold they were given at (a verdict's gate, or 0.5). */
function relevanceWords(role: 'relevant' | 'not-relevant', threshold: number): string {
  const t = Number(threshold.toFixed(3));
  return role === 'relevant' ? `matches the claim (relevance ≥ ${t}); agreement not assessed` : `chosen as best available, but relevance < ${t}`;
}

function withThreshold(e: RoleLegendEntry, relevance: number): RoleLegendEntry {
  return e.role === 'relevant' || e.role === 'not-relevant' ? { ...e, description: relevanceWords(e.role, relevance) } : e;
}

/** `relevance`: the threshold the relevance roles were given at (DEFAULT_ROLE_THRESHOLDS.relevance unless said). */
export function legendEntry(role: EvidenceRole, relevance = DEFAULT_ROLE_THRESHOLDS.relevance): RoleLegendEntry {
  return withThreshold(ROLE_LEGEND.find((e) => e.role === role)!, relevance);
}

/** The roles a view can show: the support/contradict set when any sentence has those probabilities, else the relevance set. */
export function legendFor(roles: Iterable<EvidenceRole | undefined>, relevance = DEFAULT_ROLE_THRESHOLDS.relevance): RoleLegendEntry[] {
  const seen = new Set(roles);
  const agreement = seen.has('supports') || seen.has('contradicts') || seen.has('neutral');
  const relevant = seen.has('relevant') || seen.has('not-relevant');
  return ROLE_LEGEND.filter((e) => (agreement && ['supports', 'contradicts', 'neutral'].includes(e.role)) || (relevant && ['relevant', 'not-relevant'].includes(e.role))).map((e) => withThreshold(e, relevance));
}

/**
 * Tokens for marking: a run of letters and digits holding at least one letter ("CYP2D6", "1100delC"), or
 * a number with its decimal and thousands separators ("1,325", "0.7"), so that "7" in a claim does not
 * light up the 7 of "0.7" or of "1,577".
 */
const TOKEN = /[\p{L}\p{N}]*\p{L}[\p{L}\p{N}]*|\p{N}+(?:[.,]\p{N}+)*/gu;

/** The claim's words worth marking, lower case: numbers, and words that are not stop words (src/verify/tfidf.ts's list). */
export function claimTerms(claim: string): Set<string> {
  return new Set((claim.toLowerCase().match(TOKEN) ?? []).filter((t) => /^\p{N}/u.test(t) || contentTokens(t).length > 0));
}

export interface TextSegment {
  text: string;
  /** A word of the claim. */
  term: boolean;
}

/** `text` cut into runs, each a claim word or the text between: concatenated, they give `text` back. */
export function splitTerms(text: string, terms: ReadonlySet<string>): TextSegment[] {
  const out: TextSegment[] = [];
  const push = (part: string, term: boolean) => {
    if (!part) return;
    const last = out[out.length - 1];
    if (last && !last.term && !term) last.text += part;
    else out.push({ text: part, term });
  };
  let at = 0;
  for (const m of text.matchAll(TOKEN)) {
    push(text.slice(at, m.index), false);
    push(m[0], terms.has(m[0].toLowerCase()));
    at = m.index + m[0].length;
  }
  push(text.slice(at), false);
  return out;
}
