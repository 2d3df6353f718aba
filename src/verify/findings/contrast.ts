/**
 * Two findings read from how a sentence is phrased, not from its change words:
 *
 *   - swapped contrast: the claim says "X but not Y" ("for postmenopausal but not for premenopausal breast
 *     cancer") where the source says "Y but not X" ("premenopausal, but not postmenopausal, breast cancer").
 *     The same contrast in both ("birth length, rather than birth weight" / "length, not weight") is no
 *     negation of the claim: `sameContrast` tells findings.ts to drop a negation that is the contrast's own.
 *     Markers: "but not", "and not", ", not", "rather than", "instead of", "as opposed to".
 *   - no effect against an effect: the source states that there is none ("No association was detected
 *     between bariatric surgery and fractures, cancer, or stroke"; "Low-level FQ resistance had no
 *     unfavorable effect on treatment outcome") where the claim states one ("bariatric surgery reduced the
 *     incidence of cancer"), about the same things: the sentence names CLAIM_NOUNS_NAMED of the claim's
 *     content words (generic ones such as "study", "incidence", "risk" aside).
 *
 * Both are decisive: they state the conflict in so many words (issue 36).
 */
import { stemWord, wordStems } from './quantities.js';

export interface PhraseFinding {
  kind: 'direction' | 'negation';
  message: string;
  claimText: string;
  evidenceText: string;
  decisive: boolean;
}

const MARKER = /(?:,\s*)?\b(but not|and not|rather than|instead of|as opposed to)\b|,\s*(not)\b/gi;
const FILLER = new Set(['for', 'in', 'the', 'a', 'an', 'of', 'with', 'among', 'those', 'that', 'on', 'at', 'to', 'by', 'from']);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

interface Contrast {
  /** Stem of the word right before the marker (the side stated). */
  x: string;
  /** Stems of the first two words after it (the side denied). */
  y: string[];
  text: string;
}

/** The contrasts a text states: "X but not Y", "X, not Y", "X rather than Y". */
export function contrastsOf(text: string): Contrast[] {
  const out: Contrast[] = [];
  for (const m of text.matchAll(MARKER)) {
    const before = [...text.slice(0, m.index).matchAll(WORD)].map((w) => w[0].toLowerCase()).filter((w) => !FILLER.has(w));
    const after = [...text.slice(m.index + m[0].length).matchAll(WORD)].map((w) => w[0].toLowerCase()).filter((w) => !FILLER.has(w)).slice(0, 2);
    const x = before.at(-1);
    if (!x || after.length === 0) continue;
    const from = Math.max(0, text.lastIndexOf(' ', Math.max(0, m.index - x.length - 1)));
    out.push({ x: stemWord(x), y: after.map(stemWord), text: text.slice(from, m.index + m[0].length + 30).trim().replace(/\s+\S*$/, '') });
  }
  return out;
}

/** The claim's contrast stated the other way round in the evidence ("Y but not X"), as a finding. */
export function swappedContrast(claim: string, evidence: string): PhraseFinding | undefined {
  for (const c of contrastsOf(claim)) {
    for (const e of contrastsOf(evidence)) {
      if (c.x !== e.x && c.y.includes(e.x) && e.y.includes(c.x)) {
        return { kind: 'direction', message: `the source says "${e.text}"; the claim says "${c.text}" (the two sides are swapped)`, claimText: c.text, evidenceText: e.text, decisive: true };
      }
    }
  }
  return undefined;
}

/** Whether the evidence states the claim's contrast the same way round, or names its stated side without the denied one. */
export function sameContrast(claim: string, evidence: string): boolean {
  const cs = contrastsOf(claim);
  if (cs.length === 0) return false;
  const es = contrastsOf(evidence);
  const stems = wordStems(evidence);
  return cs.every((c) => es.some((e) => e.x === c.x) || (stems.has(c.x) && !es.some((e) => e.y.includes(c.x))));
}

/** "no association / effect / difference ... between|with|on", "had no (unfavourable) effect on", "unrelated to", "did not differ", "little evidence that". */
const NO_EFFECT =
  /\b(?:no|little|without)\s+(?:\w+\s+){0,2}?(?:association|associations|effect|effects|difference|differences|relationship|link|correlation|impact|influence|evidence|benefit)\b|\b(?:was|were|is|are)\s+not\s+(?:significantly\s+)?(?:associated|related|linked|correlated|affected|changed|altered)\b|\bdid\s+not\s+(?:significantly\s+)?(?:affect|alter|change|differ|influence|reduce|increase|lower|raise|improve|worsen|vary)\b|\b(?:unrelated|unaffected|unchanged)\b|\bdo\s+not\s+(?:significantly\s+)?vary\b/i;
/** A claim states an effect: a change, an association or a dependence, unnegated. */
const EFFECT =
  /\b(?:increas|decreas|reduc|lower|rais|rose|rise|fell|fall|improv|worsen|impair|prevent|caus|protect|associat|link|predict|affect|vary|varies|depend|higher|greater|more|less|fewer|shorten|lengthen|extend|boost|cut|halv|doubl|persist)\w*/i;
const CLAIM_NEGATED = /\b(?:no|not|never|without|unrelated|neither|nor|little)\b|n't\b/i;
/** Content words that name no particular thing: a no-effect sentence need not repeat them. */
const GENERIC = new Set(
  'year years month months week weeks day days time times same study studies found find show showed shown report reported review trial analysis data evidence result results effect effects association risk risks rate rates incidence level levels use used patients people women men group groups use also strongly significantly overall both each other'
    .split(' ')
    .map(stemWord),
);
const STOP = new Set('one two three four five six seven eight nine ten a an the of and or to in on at by for with from as is are was were be been it its this that these those which who than then there also has have had do does did not no'.split(' '));
/** Share of the claim's own content words (generic ones aside) the no-effect sentence must name. */
export const CLAIM_NOUNS_NAMED = 0.75;

function claimThings(claim: string): string[] {
  return [...new Set([...claim.matchAll(WORD)].map((w) => w[0].toLowerCase()).filter((w) => !STOP.has(w) && !EFFECT.test(w) && w.length > 2).map(stemWord))].filter((s) => !GENERIC.has(s));
}

/**
 * The claim's things a no-effect sentence names, with what it says; undefined when it states no absence of
 * effect or the claim states none. `subject`: the things before the claim's effect word, whose effect the
 * claim states: a no-effect sentence must name each ("Birth order, prematurity, and maternal smoking were
 * unrelated to breast cancer risk" denies nothing of "Birth weight is associated with breast cancer risk").
 */
function noEffectNames(claim: string, evidence: string): { named: string[]; things: string[]; subject: string[]; said: string } | undefined {
  if (CLAIM_NEGATED.test(claim) || !EFFECT.test(claim)) return undefined;
  const m = NO_EFFECT.exec(evidence);
  if (!m) return undefined;
  const things = claimThings(claim);
  if (things.length < 2) return undefined;
  const stems = wordStems(evidence);
  // "low-level" is one word of the claim and two of a stem set: read hyphenated words by their parts too.
  const named = things.filter((t) => stems.has(t) || t.split('-').every((p) => stems.has(stemWord(p))));
  const subject = claimThings(claim.slice(0, EFFECT.exec(claim)!.index));
  return { named, things, subject, said: evidence.slice(m.index, m.index + 80).replace(/\s+\S*$/, '').replace(/[.;]\s.*$/, '') };
}

function noEffectFinding(claim: string, said: string): PhraseFinding {
  // The verb that states the effect, not the "associated with" that names the risks ("The risks associated with X vary ...").
  const effects = [...claim.matchAll(new RegExp(EFFECT.source, 'gi'))];
  const effect = effects.find((e) => !/^associat/i.test(e[0])) ?? effects[0]!;
  const claimSaid = claim.slice(effect.index, effect.index + 40).replace(/\s+\S*$/, '');
  return { kind: 'negation', message: `the source says "${said}"; the claim says "${claimSaid}" (no effect against an effect)`, claimText: claimSaid, evidenceText: said, decisive: true };
}

/** The source says there is no effect (association, difference) of what the claim says changes or is linked. */
export function noEffectAgainstEffect(claim: string, evidence: string): PhraseFinding | undefined {
  const r = noEffectNames(claim, evidence);
  if (!r || r.named.length / r.things.length < CLAIM_NOUNS_NAMED || !r.subject.every((t) => r.named.includes(t))) return undefined;
  return noEffectFinding(claim, r.said);
}

/** Share of the claim's things each no-effect sentence must name to count towards `noEffectCover`. */
export const SENTENCE_NOUNS_NAMED = 0.5;

/**
 * Several no-effect sentences of one source that together name the claim's things (each at least half of
 * them): the source denies the effect the claim states, in parts.
 */
export function noEffectCover(claim: string, sentences: readonly string[]): PhraseFinding | undefined {
  const covered = new Set<string>();
  const said: string[] = [];
  let things: string[] = [];
  let subject: string[] = [];
  for (const s of sentences) {
    const r = noEffectNames(claim, s);
    if (!r || r.named.length / r.things.length < SENTENCE_NOUNS_NAMED) continue;
    things = r.things;
    subject = r.subject;
    for (const t of r.named) covered.add(t);
    said.push(r.said);
  }
  if (said.length < 2 || covered.size / things.length < CLAIM_NOUNS_NAMED || !subject.every((t) => covered.has(t))) return undefined;
  return noEffectFinding(claim, said.join('" and "'));
}
