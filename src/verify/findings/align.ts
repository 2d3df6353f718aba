/**
 * A claim's quantities against the evidence's: each claim quantity is aligned to the evidence quantities
 * of a comparable kind that are about the same thing (they share words of their clause, quantities.ts
 * `about`). A claim quantity the evidence states within tolerance is confirmed; one the evidence gives
 * another value for is a finding ("the source says 28 percent, the claim says 58 percent"); one the
 * evidence says nothing comparable about is neither.
 *
 * The finding is decisive (the verdict may rest on it: REFUTES) only when the alignment is unambiguous:
 * every evidence quantity about the same thing gives one value, and the two share most of what they are
 * about. "58% of patients" against a source giving "28% of patients" is decisive; against a source giving
 * 28% and 41% of two groups it is a finding that lowers support but decides nothing.
 */
import { quantityWords, type QuantityKind, type StatedQuantity } from './quantities.js';

/**
 * Relative difference within which two values are the same value: claims restate figures rounded ("28.4%"
 * as "28%", 1,934 as "about 1,900"); rounding to two significant digits moves a value by at most 5%, and a
 * 10% margin also lets "30%" stand for a source's 28%. Below that, a different figure is a different claim.
 */
export const RELATIVE_TOLERANCE = 0.1;
/** The same for a value the claim hedges ("about 30%", "nearly 2,000"): a round figure for a nearby one. */
export const HEDGED_TOLERANCE = 0.25;
/** Percentages within half a point of each other are one value whatever their ratio (0.7% and 1%: rounding of a small share). */
export const PERCENT_POINTS = 0.5;
/** Years are exact: "1887" against "1889" is another date; a hedged year ("around 1890") may be 5 years off. */
export const HEDGED_YEARS = 5;
/** Share of a claim quantity's context words the evidence quantity must share to be about the same thing. */
export const ABOUT_MIN = 0.34;
/** ... and to make a mismatch decisive (with one value about it in the evidence). */
export const DECISIVE_ABOUT = 0.5;
/**
 * A quantity in the same unit as the claim's, the only one of that unit in the evidence, is about the same
 * thing when the evidence names this share of the claim quantity's context words anywhere ("the total length
 * of all its sections at 21,196 kilometres" for "The Great Wall of China is 2,196 kilometres long").
 */
export const SAME_UNIT_SENTENCE_ABOUT = 0.6;

/** Share of a claim figure's context words its sentence must name for a decimal shift (7% against 0.7%) to count. */
export const SHIFTED_SENTENCE_ABOUT = 0.25;

/** The same digits with the decimal point moved one place: 7 and 0.7, 24 and 2.4 (not a range, not a year). */
export function decimalShift(c: StatedQuantity, e: StatedQuantity): boolean {
  if (c.kind !== e.kind || c.kind === 'year' || c.upper !== undefined || e.upper !== undefined || c.bound || e.bound || c.value <= 0 || e.value <= 0) return false;
  const r = c.value / e.value;
  return Math.abs(r - 10) < 1e-6 || Math.abs(r - 0.1) < 1e-9;
}

/** How much closer (share of the claim figure's context words) one evidence figure must be than the next for the alignment to be that one. */
export const AMBIGUITY_MARGIN = 0.3;

export interface QuantityMismatch {
  claim: StatedQuantity;
  /** The evidence quantities about the same thing, none matching. */
  evidence: StatedQuantity[];
  decisive: boolean;
  message: string;
}

/** Kinds that can be compared: a fold and a relative change are one scale (doubled = +100%). */
function comparable(a: QuantityKind, b: QuantityKind): boolean {
  if (a === b) return true;
  return (a === 'fold' && b === 'change') || (a === 'change' && b === 'fold');
}

/** A fold as a relative change in percent, or a change as itself. */
const asChange = (q: StatedQuantity): number => (q.kind === 'fold' ? (q.value - 1) * 100 : q.value);

/** The same measure: comparable kinds, and for a count or a ratio the same unit or measure ("12 patients" is no "12 mg"). */
export function sameMeasure(c: StatedQuantity, e: StatedQuantity): boolean {
  return comparable(c.kind, e.kind) && !((c.kind === 'count' || c.kind === 'ratio') && c.unit !== e.unit);
}

export function within(c: StatedQuantity, e: StatedQuantity): boolean {
  if ((c.kind === 'count' || c.kind === 'ratio') && c.kind === e.kind && c.unit !== e.unit) return false;
  const cv = c.kind === 'fold' && e.kind === 'change' ? asChange(c) : c.value;
  const ev = e.kind === 'fold' && c.kind === 'change' ? asChange(e) : e.value;
  const cu = c.upper ?? cv;
  const eu = e.upper ?? ev;
  // Ranges (either side) agree when they overlap.
  if (c.upper !== undefined || e.upper !== undefined) return cv <= eu && ev <= cu;
  if (c.bound === 'at-least') return ev >= cv * (1 - RELATIVE_TOLERANCE);
  if (c.bound === 'at-most') return ev <= cv * (1 + RELATIVE_TOLERANCE);
  const hedged = c.bound === 'about' || e.bound === 'about';
  if (c.kind === 'year') return Math.abs(cv - ev) <= (hedged ? HEDGED_YEARS : 0);
  if (c.kind === 'percent' && Math.abs(cv - ev) <= PERCENT_POINTS) return true;
  // A change in the other direction is never the same value, however small.
  if ((c.kind === 'change' || e.kind === 'change' || c.kind === 'fold') && Math.sign(c.kind === 'fold' ? asChange(c) : cv) !== Math.sign(e.kind === 'fold' ? asChange(e) : ev)) return false;
  const scale = Math.max(Math.abs(cv), Math.abs(ev));
  return scale === 0 || Math.abs(cv - ev) / scale <= (hedged ? HEDGED_TOLERANCE : RELATIVE_TOLERANCE);
}

/** Share of the claim quantity's context words the evidence quantity's context shares. */
function aboutShare(c: StatedQuantity, e: StatedQuantity): number {
  if (c.about.length === 0) return 0;
  // A count's unit is what it counts: "12 patients" is about patients.
  const ew = new Set([...e.about, ...(e.unit ? [e.unit] : [])]);
  return c.about.filter((w) => ew.has(w)).length / c.about.length;
}

/** Share of the claim quantity's context words found anywhere in the evidence. */
const sentenceShare = (c: StatedQuantity, evidenceWords: ReadonlySet<string>): number => (c.about.length ? c.about.filter((w) => evidenceWords.has(w)).length / c.about.length : 0);

/** The claim's quantities the evidence states otherwise, each with whether the mismatch is decisive. */
export function quantityMismatches(claim: readonly StatedQuantity[], evidence: readonly StatedQuantity[], evidenceWords: ReadonlySet<string> = new Set()): QuantityMismatch[] {
  const out: QuantityMismatch[] = [];
  for (const c of claim) {
    const kin = evidence.filter((e) => sameMeasure(c, e));
    // The evidence states the claim's value somewhere: whatever the context words say, that is no mismatch.
    if (kin.some((e) => within(c, e))) continue;
    // The one quantity of the claim's kind (a count: of its unit), in a sentence about the same thing: a rate
    // or a change whose own clause is filled with other words ("by half a percentage point to 5.25 percent").
    // Not a year: web pages date other events in the same words (WiCE dev lost 5 right verdicts when years were).
    const onlyOfUnit = ((c.kind === 'count' && c.unit !== '') || (c.kind !== 'count' && c.kind !== 'year')) && kin.length === 1 && sentenceShare(c, evidenceWords) >= SAME_UNIT_SENTENCE_ABOUT;
    const about = kin.map((e) => ({ e, share: onlyOfUnit ? Math.max(DECISIVE_ABOUT, aboutShare(c, e)) : aboutShare(c, e) })).filter((x) => x.share >= ABOUT_MIN);
    if (about.length === 0) {
      // A decimal point moved: "7%" where the source gives "0.7%" in a sentence about the same thing.
      const shifted = kin.find((e) => decimalShift(c, e));
      if (shifted && sentenceShare(c, evidenceWords) >= SHIFTED_SENTENCE_ABOUT) {
        out.push({ claim: c, evidence: [shifted], decisive: true, message: `the source says ${quantityWords(shifted)}, the claim says ${quantityWords(c)} (a decimal point moved)` });
      }
      continue;
    }
    if (about.some((x) => within(c, x.e))) continue;
    // One evidence figure clearly closer to what the claim's is about than any other (by AMBIGUITY_MARGIN of
    // the claim's context words): the alignment is that one ("only a third of the patients completed
    // treatment within nine months" against "only half of the patients completed treatment within 9 months;
    // however, 95% were able to complete treatment within 12 months").
    const ranked = [...about].sort((a, b) => b.share - a.share);
    if (ranked.length > 1 && ranked[0]!.share >= DECISIVE_ABOUT && ranked[0]!.share - ranked[1]!.share >= AMBIGUITY_MARGIN && !within(c, ranked[0]!.e)) about.splice(0, about.length, ranked[0]!);
    const values = new Set(about.map((x) => `${x.e.kind}:${x.e.value}:${x.e.upper ?? ''}`));
    const decisive = values.size === 1 && Math.max(...about.map((x) => x.share)) >= DECISIVE_ABOUT;
    const said = [...new Map(about.map((x) => [quantityWords(x.e), x.e])).keys()];
    const message = `the source says ${said.join(' and ')}, the claim says ${quantityWords(c)}${decisive ? '' : ' (the source gives more than one figure about it)'}`;
    out.push({ claim: c, evidence: about.map((x) => x.e), decisive: decisive && values.size === 1, message: values.size === 1 ? `the source says ${said[0]}, the claim says ${quantityWords(c)}` : message });
  }
  return out;
}
