/**
 * Direction-of-change and negation findings, in words, from the alignment analysis
 * (models/align/analyse.ts: each change word with its axis, direction, what it changes and whether it is
 * negated): "the source says tumor metastasis decreased; the claim says it increases", "the source says
 * "did not lower resting blood pressure"; the claim says "lowers resting blood pressure"".
 *
 * A change is compared with its cause, as the alignment features compose it ("smoking cessation reduces
 * the risk" says smoking raises it), but the cause is read here from the first conjunct of the clause's
 * subject: in "Reduction of Orai1 or STIM1 ... or treatment with an inhibitor decreased metastasis" the
 * subject is a list of alternatives that all act the same way, and the analysis (which reads the eight
 * words before the change word) sees only "inhibitor"; in "Reducing Orai1 or STIM1 increases metastasis"
 * it stops at "or" and misses "Reducing".
 *
 * Only changes of the same thing (a shared head noun) in a claim whose other words the evidence mostly
 * names count: "alendronate decreased the risk of fractures" says nothing against "vitamin D deficiency
 * increases the risk of fractures".
 */
import { CAUSE_REVERSERS, type AlignAnalysis, type AlignToken, type Change } from '../../models/align/analyse.js';
import { changeOf } from '../../models/align/lexicon.js';

/** Share of the claim's subject words (content words but its change words) the evidence must name for a finding at all. */
export const SUBJECT_MIN = 0.5;
/**
 * ... and for the finding to decide the verdict: two of three subject words named ("aerobic training" for
 * "regular aerobic exercise" names two of its three words, and the same change of the same thing is stated).
 */
export const DECISIVE_SUBJECT = 0.65;

export interface StatedOpposition {
  kind: 'direction' | 'negation';
  message: string;
  claimText: string;
  evidenceText: string;
  decisive: boolean;
}

const PUNCT = /^[.,;:()]$/;
const HARD_BREAK = new Set(['that', 'which', 'who', 'whom', 'whereas', 'while', 'although', 'though', 'because', 'if', 'when', 'where', 'whether', 'since', 'but', 'as', 'than', 'after', 'before']);
const AUX = new Set(['do', 'does', 'did', 'is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'could', 'can', 'may', 'might', 'will', 'would', 'should']);
/** A negation cue in a change's span (spanOf). */
const SPAN_CUE = /\b(?:no|not|never|without|none)\b|n't\b/i;
/** Words that negate a predicate through its object: "showed no difference". */
const OBJECT_CUES = new Set(['no', 'none', 'nothing', 'neither']);
const CUES = new Set(['not', "n't", 'no', 'never', 'without', 'lack', 'absence', 'absent', 'fail', 'failed', 'fails', 'neither', 'nor', 'none', 'cannot', 'unable']);

/** The start of the clause a token is in: after the last punctuation or subordinating word before it. */
function clauseStart(tokens: readonly AlignToken[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (PUNCT.test(tokens[j]!.form) || HARD_BREAK.has(tokens[j]!.lemma)) return j + 1;
  return 0;
}

/**
 * The first conjunct of what comes before the change word in its clause: its subject's first alternative,
 * ending at the clause's first verb ("Metformin lowers blood glucose ... by reducing hepatic glucose
 * production": the cause of "reducing" is metformin; a gerund that opens the clause, "Reducing Orai1", is
 * part of the subject).
 */
function causeSpan(tokens: readonly AlignToken[], i: number): [number, number] {
  const start = clauseStart(tokens, i);
  let end = i;
  for (let j = start; j < i; j++) {
    if (tokens[j]!.lemma === 'or' || tokens[j]!.lemma === 'and' || (j > start && tokens[j]!.pos === 'VERB')) {
      end = j;
      break;
    }
  }
  return [start, end];
}

/**
 * -1 when the cause is a reduction or absence of something ("reducing Orai1", "smoking cessation"), else 1.
 * A change word whose clause names no subject before it (a coordinated verb: "..., and increase the risk")
 * keeps the analysis's cause, which follows the coordination back to the shared subject.
 */
function causeSign(tokens: readonly AlignToken[], i: number, analysed: 1 | -1): 1 | -1 {
  const [a, b] = causeSpan(tokens, i);
  if (!tokens.slice(a, b).some((t) => t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'PRON')) return analysed;
  let sign: 1 | -1 = 1;
  for (let j = a; j < b; j++) {
    const t = tokens[j]!;
    const m = (changeOf(t.lemma) ?? changeOf(t.form))?.find((d) => d.axis === 'magnitude');
    if (m ? m.dir < 0 : CAUSE_REVERSERS.has(t.lemma)) sign = sign === 1 ? -1 : 1;
  }
  return sign;
}

function causeWords(tokens: readonly AlignToken[], i: number): string {
  const [a, b] = causeSpan(tokens, i);
  return joinForms(tokens.slice(a, Math.min(b, a + 6)));
}

function joinForms(ts: readonly AlignToken[]): string {
  return ts
    .map((t) => t.form)
    .join(' ')
    .replace(/ (n't|'s)\b/g, '$1')
    // "age-related", split into three tokens by the analysis, is written as one word again.
    .replace(/(\w) - (?=\w)/g, '$1-')
    .replace(/ ([,.;:)])/g, '$1')
    .replace(/\( /g, '(');
}

/** What a change changes, as the text says it: from its first head noun to its last, and the nouns right after ("risk of hip fracture"). */
function thingOf(a: AlignAnalysis, c: Change): string {
  const at = headsOf(a, c)
    .map((h) => {
      let best = -1;
      a.tokens.forEach((t, j) => {
        // At equal distance, the one after the change word ("age showed attenuation of age-related ...").
        if (t.lemma === h && (best < 0 || Math.abs(j - c.at) < Math.abs(best - c.at) || (Math.abs(j - c.at) === Math.abs(best - c.at) && j > c.at))) best = j;
      });
      return best;
    })
    .filter((j) => j >= 0);
  if (at.length === 0) return '';
  const from = Math.min(...at);
  let to = Math.max(...at) + 1;
  while (to < a.tokens.length && to < from + 6 && (a.tokens[to]!.pos === 'NOUN' || a.tokens[to]!.pos === 'PROPN')) to++;
  return joinForms(a.tokens.slice(from, to));
}

/**
 * The claim change `c` and the evidence change `e` change the same thing: a shared head noun, or a head of
 * the claim's that is the evidence change's subject ("Sales of electric cars rose 35 percent": the analysis
 * reads "percent" as what rose).
 */
function subjectNouns(a: AlignAnalysis, x: Change): string[] {
  const start = Math.max(clauseStart(a.tokens, x.at), x.at - 6);
  return a.tokens.slice(start, x.at).filter((t) => (t.pos === 'NOUN' || t.pos === 'PROPN') && t.content).map((t) => t.lemma);
}
/**
 * How many things the claim change `c` and the evidence change `e` share (0: not the same thing). Without
 * heads on one side ("extent has grown since 1979": the analysis finds no noun after the verb) their
 * subjects count instead.
 */
function sharedThings(c: Change, e: Change, claim: AlignAnalysis, evidence: AlignAnalysis): number {
  const ch = headsOf(claim, c);
  const eh = headsOf(evidence, e);
  const heads = ch.filter((h) => eh.includes(h)).length;
  if (heads) return heads;
  if (ch.length && eh.length) return ch.some((h) => subjectNouns(evidence, e).includes(h)) ? 1 : 0;
  const cs = new Set([...ch, ...subjectNouns(claim, c)]);
  return [...new Set([...eh, ...subjectNouns(evidence, e)])].filter((h) => cs.has(h)).length;
}

/**
 * What a change changes, past a hyphenated modifier: in "attenuation of age-related methylation drift" the
 * analysis stops at "age" (its four-token window spends two tokens on "-related"); the thing is the nouns
 * after the compound (issue 36: "speeds up methylation drift" against the source's attenuation of it).
 * Read here only: the trained heads' features keep the analysis's own heads.
 */
function headsOf(a: AlignAnalysis, x: Change): string[] {
  const out = [...x.heads];
  for (const h of x.heads) {
    // A head after the change word (within the analysis's window) that opens a hyphenated compound.
    const j = a.tokens.findIndex((t, k) => k > x.at && k <= x.at + 4 && t.lemma === h);
    if (j < 0 || a.tokens[j + 1]?.form !== '-') continue;
    for (let k = j + 2, n = 0; k < a.tokens.length && n < 4 && out.length < x.heads.length + 2; k++, n++) {
      const u = a.tokens[k]!;
      if (PUNCT.test(u.form)) break;
      if ((u.pos === 'NOUN' || u.pos === 'PROPN') && u.content && !changeOf(u.lemma) && !out.includes(u.lemma)) out.push(u.lemma);
    }
  }
  return out;
}


function verb(c: Change, past: boolean): string {
  if (c.axis === 'valence') return c.dir > 0 ? (past ? 'improved' : 'improves') : past ? 'worsened' : 'worsens';
  return c.dir > 0 ? (past ? 'increased' : 'increases') : past ? 'decreased' : 'decreases';
}

/**
 * Negated in so many words: inside a negation scope with its cue at most NEGATION_REACH words before it in
 * the same clause ("did not lower", "will not close", "no longer need"). wink's scope runs to the next
 * punctuation: "had no effect in altering the course of rejection of skin grafts that express little" does
 * not say that the grafts do not express.
 */
const NEGATION_REACH = 3;
function negatedHere(tokens: readonly AlignToken[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - NEGATION_REACH); j--) {
    const t = tokens[j]!;
    if (CUES.has(t.form) || CUES.has(t.lemma)) return true;
    // Only adverbs and auxiliaries stand between a cue and what it negates ("not yet identified", "no longer need").
    if (!(t.pos === 'ADV' || t.pos === 'AUX' || t.pos === 'PART' || t.form === 'longer' || t.form === 'yet')) return false;
  }
  return false;
}

/** The words of a change as they stand: its negation cue and auxiliary, the change word, and up to three words after. */
function spanOf(tokens: readonly AlignToken[], i: number): string {
  let a = i;
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
    if (PUNCT.test(tokens[j]!.form)) break;
    if (CUES.has(tokens[j]!.form) || CUES.has(tokens[j]!.lemma)) {
      a = j;
      if (j > 0 && AUX.has(tokens[j - 1]!.form)) a = j - 1;
      break;
    }
  }
  let b = i + 1;
  while (b < tokens.length && b < i + 4 && !PUNCT.test(tokens[b]!.form)) b++;
  return joinForms(tokens.slice(a, b));
}

/** Share of the claim's content words, change words aside, that the evidence names (same lemma or word family). */
export function subjectShare(claim: AlignAnalysis, evidence: AlignAnalysis): number {
  const changeAt = new Set(claim.changes.map((c) => c.at));
  const lemmas = new Set(evidence.tokens.map((t) => t.lemma));
  const stems = new Set(evidence.tokens.map((t) => t.stem));
  const subject = claim.content.filter((i) => !changeAt.has(i));
  if (subject.length === 0) return 1;
  return subject.filter((i) => lemmas.has(claim.tokens[i]!.lemma) || stems.has(claim.tokens[i]!.stem)).length / subject.length;
}

/**
 * Words of the change lexicon that state a level, not a change: "high risk", "the highest risk", "low-income
 * families", "15 or more cigarettes". A comparative ("higher risk") still states a change against something.
 */
const LEVEL = /^(high|low|large|small|great|big|highest|lowest|largest|smallest|greatest|biggest)$/;
function isChange(a: AlignAnalysis, c: Change): boolean {
  const t = a.tokens[c.at]!;
  if (LEVEL.test(t.form)) return false;
  // "DNA damage", "damage-induced", "liver injury": a valence noun naming a thing, not a change of one.
  const next = a.tokens[c.at + 1];
  const prevTok = a.tokens[c.at - 1];
  if (c.axis === 'valence' && t.pos === 'NOUN' && ((prevTok && (prevTok.pos === 'NOUN' || prevTok.pos === 'PROPN')) || next?.form === '-')) return false;
  // "the incidence of falls": the event, not a change.
  // A verb "fall" follows its subject or an auxiliary ("mortality fell", "will fall"); elsewhere "falls" is the event.
  if (t.lemma === 'fall' && (t.pos === 'NOUN' || !['NOUN', 'PROPN', 'PRON', 'AUX', 'ADV', 'PART'].includes(a.tokens[c.at - 1]?.pos ?? ''))) return false;
  const prev = a.tokens[c.at - 1];
  if ((t.form === 'more' || t.form === 'less' || t.form === 'fewer') && prev && (prev.form === 'or' || /^\d/.test(prev.form))) return false;
  return true;
}

/** Direction and negation findings of the evidence against the claim. */
export function oppositionFindings(claim: AlignAnalysis, evidence: AlignAnalysis): StatedOpposition[] {
  const share = subjectShare(claim, evidence);
  if (share < SUBJECT_MIN) return [];
  const strong = share >= DECISIVE_SUBJECT;
  const out: StatedOpposition[] = [];
  const effective = (a: AlignAnalysis, c: Change) => c.dir * causeSign(a.tokens, c.at, c.cause);
  const seenClaim = new Set<number>();
  for (const c of claim.changes) {
    if (seenClaim.has(c.at)) continue;
    if (!isChange(claim, c)) continue;
    const same = evidence.changes.filter((e) => e.axis === c.axis && sharedThings(c, e, claim, evidence) > 0 && isChange(evidence, e));
    const shared = (e: Change) => sharedThings(c, e, claim, evidence);
    if (same.length === 0) continue;
    const cDir = effective(claim, c);
    const cNeg = negatedHere(claim.tokens, c.at);
    const neg = (e: Change) => negatedHere(evidence.tokens, e.at);
    // The evidence states the claim's change as the claim does somewhere, of something as close to the
    // claim's: an opposite statement is then not decisive.
    const agreeing = same.filter((e) => neg(e) === cNeg && effective(evidence, e) === cDir);
    for (const e of same) {
      const eDir = effective(evidence, e);
      const thing = thingOf(evidence, e) || thingOf(claim, c) || subjectNouns(evidence, e).join(' ') || 'it';
      const causes = causeSign(claim.tokens, c.at, c.cause) !== causeSign(evidence.tokens, e.at, e.cause) || causeSign(evidence.tokens, e.at, e.cause) < 0;
      const withCause = (a: AlignAnalysis, x: Change) => (causes && causeWords(a.tokens, x.at) ? ` (with ${causeWords(a.tokens, x.at)})` : '');
      if (!cNeg && !neg(e) && !c.negated && !e.negated && eDir !== cDir) {
        out.push({
          kind: 'direction',
          message: `the source says ${thing} ${verb(e, true)}${withCause(evidence, e)}; the claim says it ${verb(c, false)}${withCause(claim, c)}`,
          claimText: spanOf(claim.tokens, c.at),
          evidenceText: spanOf(evidence.tokens, e.at),
          decisive: strong && !agreeing.some((a) => shared(a) >= shared(e)),
        });
      } else if (cNeg !== neg(e) && eDir === cDir && !(SPAN_CUE.test(spanOf(claim.tokens, c.at)) && SPAN_CUE.test(spanOf(evidence.tokens, e.at)))) {
        // (Both spans carry a cue, "no significant difference" / "did not show any significant difference": both deny it.)
        out.push({
          kind: 'negation',
          message: `the source says "${spanOf(evidence.tokens, e.at)}"; the claim says "${spanOf(claim.tokens, c.at)}"`,
          claimText: spanOf(claim.tokens, c.at),
          evidenceText: spanOf(evidence.tokens, e.at),
          decisive: strong && !agreeing.some((a) => shared(a) >= shared(e)),
        });
      } else continue;
      seenClaim.add(c.at);
      break;
    }
  }
  // Other predicates negated in one text only: "is not associated with" against "is associated with".
  const changeAt = new Set([...claim.changes.map((c) => c.at)]);
  const reported = new Set(out.map((f) => f.claimText));
  for (let i = 0; i < claim.tokens.length; i++) {
    const t = claim.tokens[i]!;
    if (changeAt.has(i) || !(t.pos === 'VERB' || t.pos === 'ADJ') || AUX.has(t.form) || t.lemma === 'be' || t.lemma === 'have' || t.lemma === 'do') continue;
    if (!/\p{L}{3,}/u.test(t.form) || changeOf(t.lemma)) continue;
    const matches = evidence.tokens.map((u, j) => ({ u, j })).filter(({ u }) => u.lemma === t.lemma);
    // "showed no significant difference" says what "did not show any significant difference" says: a
    // predicate whose object is negated ("no", "none", "nothing") is negated too (issue 36).
    const objectNegated = (ts: readonly AlignToken[], k: number) => OBJECT_CUES.has(ts[k + 1]?.form ?? '');
    const tNeg = negatedHere(claim.tokens, i) || objectNegated(claim.tokens, i);
    if (matches.length === 0 || matches.some(({ j }) => (negatedHere(evidence.tokens, j) || objectNegated(evidence.tokens, j)) === tNeg)) continue;
    const j = matches[0]!.j;
    // "not only ... but also" negates nothing.
    if (evidence.tokens.slice(Math.max(0, j - 3), j).some((u) => u.form === 'only')) continue;
    const evidenceText = spanOf(evidence.tokens, j);
    const claimText = spanOf(claim.tokens, i);
    if ([...reported].some((r) => r.includes(claimText) || claimText.includes(r))) continue;
    // Both deny it, in other words: "no significant difference" / "did not show any significant difference".
    if (SPAN_CUE.test(claimText) && SPAN_CUE.test(evidenceText)) continue;
    reported.add(claimText);
    out.push({ kind: 'negation', message: `the source says "${evidenceText}"; the claim says "${claimText}"`, claimText, evidenceText, decisive: strong });
    break;
  }
  return out;
}
