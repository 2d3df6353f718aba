// The highlighting rule for the page: a mirror of src/highlight/evidence-role.ts (the page has no build
// step, so it cannot import TypeScript). src/highlight/evidence-role.test.ts runs both files on the
// cases in src/highlight/cases.json, so a change to one that is not made to the other fails the tests.
// Read the TypeScript file for the rule's reasons.

export const ROLES = ['supports', 'contradicts', 'neutral', 'relevant', 'not-relevant'];

export const DEFAULT_ROLE_THRESHOLDS = { support: 0.5, contradict: 0.5, relevance: 0.5 };

function isProbability(x) {
  return typeof x === 'number' && Number.isFinite(x);
}

/**
 * p: { support?, contradict?, relevance? } on 0..1, and finding ('decisive' | 'stated': what the sentence
 * states against the claim) -> a role, or undefined when none is known. A sentence with a finding is never
 * "supports".
 */
export function evidenceRole(p, thresholds = {}) {
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
 * Roles of a verdict's evidence sentences: not relevant when the sentence's document (pooled: the whole
 * evidence) misses the verdict's relevance gate, else its entailment read alone at the plain 0.5; at an
 * uncalibrated columbia rule's own thresholds, which apply to raw probabilities (a calibrated rule's apply
 * to the calibrator's output, concat's to the sentences joined). verdict = provenance.config.verdict.
 */
export function verifyEvidenceRoles(evidence, verdict = {}, reading) {
  const own = verdict.rule !== 'concat' && !verdict.calibrator;
  const thresholds = own
    ? { ...(verdict.supportThreshold !== undefined ? { support: verdict.supportThreshold } : {}), ...(verdict.refuteThreshold !== undefined ? { contradict: verdict.refuteThreshold } : {}) }
    : {};
  // Only a verdict with a relevance gate sets sentences aside; without one, relevance roles are read at 0.5.
  const gated = isProbability(verdict.relevanceThreshold) && verdict.relevanceThreshold > 0;
  const gate = verifyRelevanceThreshold(verdict);
  const best = new Map();
  const groupOf = (e) => (verdict.across === 'pooled' ? '' : e.docId);
  for (const e of evidence) best.set(groupOf(e), Math.max(best.get(groupOf(e)) ?? -Infinity, e.score));
  return evidence.map((e) => {
    if (gated && e.entailment && best.get(groupOf(e)) < gate) return 'not-relevant';
    const p = e.entailment ? { support: e.entailment.entailment, contradict: e.entailment.contradiction, ...findingOf(e) } : { relevance: e.score };
    return asRead(evidenceRole(p, { ...thresholds, relevance: gate }), e, verdict, reading);
  });
}

/**
 * reading = { label, docId } of the verdict: "supports" / "contradicts" only on sentences the decision used
 * (the deciding document; pooled: any) and in the direction it read; otherwise "neutral".
 */
function asRead(role, e, verdict, reading) {
  if (!reading || (role !== 'supports' && role !== 'contradicts')) return role;
  const used = verdict.across === 'pooled' || reading.docId === undefined || reading.docId === e.docId;
  const direction = role === 'supports' ? 'SUPPORTS' : 'REFUTES';
  return used && reading.label === direction ? role : 'neutral';
}

/** A sentence's findings (verify's evidence[].findings) as the rule reads them. */
export function findingOf(e) {
  if (!e.findings || !e.findings.length) return {};
  return { finding: e.findings.some((f) => f.decisive) ? 'decisive' : 'stated' };
}

/** The relevance threshold a verdict's evidence roles use (its gate, else 0.5): what its legend states. */
export function verifyRelevanceThreshold(verdict = {}) {
  const gate = verdict.relevanceThreshold;
  return isProbability(gate) && gate > 0 ? gate : DEFAULT_ROLE_THRESHOLDS.relevance;
}

export const ROLE_LEGEND = [
  { role: 'supports', label: 'supports', description: 'more likely than not, the sentence states the claim', symbol: '✓', background: '#d3f2dc', border: '#1d7a3a' },
  { role: 'contradicts', label: 'contradicts', description: 'the sentence states the opposite of the claim', symbol: '✗', background: '#fde0dd', border: '#b42318' },
  { role: 'neutral', label: 'neutral', description: 'related, but neither states nor denies the claim', symbol: '–', background: '#eceff3', border: '#5d6b78' },
  { role: 'relevant', label: 'relevant', description: relevanceWords('relevant', 0.5), symbol: '●', background: '#fff1a8', border: '#9a7b00' },
  { role: 'not-relevant', label: 'not relevant', description: relevanceWords('not-relevant', 0.5), symbol: '○', background: 'transparent', border: '#9aa5b1' },
];

function relevanceWords(role, threshold) {
  const t = Number(threshold.toFixed(3));
  return role === 'relevant' ? `matches the claim (relevance ≥ ${t}); agreement not assessed` : `chosen as best available, but relevance < ${t}`;
}

function withThreshold(e, relevance) {
  return e.role === 'relevant' || e.role === 'not-relevant' ? { ...e, description: relevanceWords(e.role, relevance) } : e;
}

export function legendEntry(role, relevance = DEFAULT_ROLE_THRESHOLDS.relevance) {
  const e = ROLE_LEGEND.find((x) => x.role === role);
  return e && withThreshold(e, relevance);
}

export function legendFor(roles, relevance = DEFAULT_ROLE_THRESHOLDS.relevance) {
  const seen = new Set(roles);
  const agreement = seen.has('supports') || seen.has('contradicts') || seen.has('neutral');
  const relevant = seen.has('relevant') || seen.has('not-relevant');
  return ROLE_LEGEND.filter((e) => (agreement && ['supports', 'contradicts', 'neutral'].includes(e.role)) || (relevant && ['relevant', 'not-relevant'].includes(e.role))).map((e) => withThreshold(e, relevance));
}

// src/verify/tfidf.ts's stop words (contentTokens).
const STOP = new Set(
  'a an the of and or to in on at by for with from as is are was were be been being it its this that these those which who whom whose what when where why how not no do does did has have had he she they we you i his her their our your than then there here so such into about over under after before between during through up down out off also can could may might must shall should will would'.split(' '),
);

// Letters-and-digits runs with a letter, or numbers with their separators (see the TypeScript file).
const TOKEN = /[\p{L}\p{N}]*\p{L}[\p{L}\p{N}]*|\p{N}+(?:[.,]\p{N}+)*/gu;

export function claimTerms(claim) {
  return new Set((claim.toLowerCase().match(TOKEN) ?? []).filter((t) => /^\p{N}/u.test(t) || (!STOP.has(t) && t.length > 1)));
}

/** [{ text, term }] runs that give `text` back when joined. */
export function splitTerms(text, terms) {
  const out = [];
  const push = (part, term) => {
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
