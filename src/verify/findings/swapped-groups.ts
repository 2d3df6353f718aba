/**
 * Findings where the source and the claim say the same things about two groups, but give them to the
 * groups the other way round (issue 36: swapped groups; the words and the figures are all there, so neither a
 * changed number nor a negation shows it):
 *
 *   - swapped figures: the claim gives two figures to two named things ("68% had vivax infection and 32%
 *     falciparum malaria"), the source the same two figures to the same two things crossed ("82 patients (68%)
 *     had falciparum malaria while 39 patients (32%) had vivax infection").
 *   - swapped threshold groups: the claim and the source make the same comparison (both "twice the odds",
 *     "higher", "more") with a group on one side of the same threshold as its subject, the claim the group
 *     above it ("Patients older than 35 had twice the odds ... of younger patients"), the source the group
 *     below it ("Patients <35 yrs of age have shown a two times higher odds ratio ... than those aged >35").
 *     The same fact said from the other side ("those under 35 had lower odds") has the opposite comparison
 *     and is no finding.
 *
 *   - a comparison the other way round: "Compliance was better among chloroquine plus proguanil users than
 *     among mefloquine users" against "Compliance was significantly better in mefloquine users with 83.3% ...
 *     compared to 76.3% in chloroquine plus proguanil users" (or the same groups with the opposite comparative).
 *
 * All three are decisive: the conflict is stated in so many words. Self-contained (own tokens), so the quantity
 * reader (quantities.ts) is not involved.
 */
import { stemWord } from './quantities.js';

export interface GroupFinding {
  kind: 'direction';
  message: string;
  claimText: string;
  evidenceText: string;
  decisive: boolean;
}

/** Words between a figure and the thing it is about: verbs, articles, units, the people counted. */
const SKIP = new Set(
  'a an the of in on at to for with from as by and or were was had have has been being is are who which that those these patients people participants cases subjects individuals women men children persons percent per cent of them'.split(' '),
);
const WORD = /[\p{L}][\p{L}'’-]*/uy;

interface Named {
  value: string;
  percent: boolean;
  /** Stem of the first content word after the figure (the thing it is about). */
  name: string;
  text: string;
}

/** Each figure of a text with the first content word after it in its clause: "68% had vivax infection" -> 68% vivax. */
export function figuresWithNames(text: string): Named[] {
  const out: Named[] = [];
  for (const m of text.matchAll(/(?<![\d.,])(\d+(?:\.\d+)?)\s*(%|percent\b|per cent\b)?/g)) {
    let at = m.index + m[0].length;
    let name: string | undefined;
    for (let n = 0; n < 6 && at < text.length; n++) {
      const rest = text.slice(at);
      const space = /^[\s)\]]*/.exec(rest)![0].length;
      at += space;
      WORD.lastIndex = at;
      const w = WORD.exec(text);
      if (!w) break; // a clause mark, a bracket opening, another figure: the figure names nothing here
      at += w[0].length;
      const lw = w[0].toLowerCase();
      if (SKIP.has(lw)) continue;
      name = stemWord(lw);
      break;
    }
    // Said without the brackets it was read across: "68% had falciparum", not "68%) had falciparum".
    if (name) out.push({ value: m[1]!, percent: !!m[2], name, text: text.slice(m.index, at).replace(/[()[\]]/g, '').replace(/\s+/g, ' ').trim() });
  }
  return out;
}

/** The claim's two figures given to two things the other way round in the evidence. */
export function swappedFigures(claim: string, evidence: string): GroupFinding | undefined {
  const cs = figuresWithNames(claim);
  if (cs.length < 2) return undefined;
  const es = figuresWithNames(evidence);
  for (let i = 0; i < cs.length; i++)
    for (let j = i + 1; j < cs.length; j++) {
      const [a, b] = [cs[i]!, cs[j]!];
      if (a.value === b.value || a.name === b.name || a.percent !== b.percent) continue;
      const ea = es.find((e) => e.value === a.value && e.percent === a.percent);
      const eb = es.find((e) => e.value === b.value && e.percent === b.percent);
      // Both figures in the source, each given to the claim's other thing.
      if (ea && eb && ea.name === b.name && eb.name === a.name) {
        return { kind: 'direction', message: `the source says "${ea.text}" and "${eb.text}"; the claim says "${a.text}" and "${b.text}" (the figures are swapped between the two)`, claimText: `${a.text}; ${b.text}`, evidenceText: `${ea.text}; ${eb.text}`, decisive: true };
      }
    }
  return undefined;
}

type Side = 'above' | 'below';
const ABOVE = /(?:\b(?:older than|over|above|more than|greater than|at least|aged over)\s+|[>≥]\s*=?\s*)(\d+(?:\.\d+)?)/gi;
const BELOW = /(?:\b(?:younger than|under|below|less than|fewer than|aged under)\s+|[<≤]\s*=?\s*)(\d+(?:\.\d+)?)/gi;
/** A comparison stated about the subject group: higher (twice, more, increased) or lower. */
const HIGHER = /\b(?:twice|two times|three times|double|doubled|triple|tripled|\d+(?:\.\d+)?[- ]?(?:fold|times)|higher|greater|more likely|increased|elevated)\b/i;
const LOWER = /\b(?:half|halved|lower|less likely|reduced|decreased)\b/i;

/** The first group a text names by a threshold (the subject side) and the comparison it states, if one. */
function thresholdSubject(text: string): { side: Side; n: string; at: string; comparison: 'higher' | 'lower' } | undefined {
  const first = (re: RegExp) => {
    re.lastIndex = 0;
    return re.exec(text) ?? undefined;
  };
  const a = first(ABOVE);
  const b = first(BELOW);
  const m = a && (!b || a.index < b.index) ? { side: 'above' as const, m: a } : b ? { side: 'below' as const, m: b } : undefined;
  if (!m) return undefined;
  // The comparison after the subject group: "had twice the odds", "have shown a two times higher odds ratio".
  const after = text.slice(m.m.index + m.m[0].length);
  const hi = HIGHER.exec(after);
  const lo = LOWER.exec(after);
  if (!hi && !lo) return undefined;
  const comparison = hi && (!lo || hi.index < lo.index) ? 'higher' : 'lower';
  return { side: m.side, n: m.m[1]!, at: text.slice(m.m.index, m.m.index + m.m[0].length).trim(), comparison };
}

/** The claim's subject group on the other side of the same threshold in the evidence, with the same comparison. */
export function swappedThresholdGroups(claim: string, evidence: string): GroupFinding | undefined {
  const c = thresholdSubject(claim);
  const e = c && thresholdSubject(evidence);
  if (!c || !e || c.n !== e.n || c.side === e.side || c.comparison !== e.comparison) return undefined;
  return { kind: 'direction', message: `the source says the group ${e.at} has the ${e.comparison} figure; the claim gives it to the group ${c.at} (the groups are swapped)`, claimText: c.at, evidenceText: e.at, decisive: true };
}

/** Comparatives by the direction they state (better and higher both say "more of the measure"). */
const COMPARATIVE: Record<string, 'up' | 'down'> = { better: 'up', higher: 'up', greater: 'up', more: 'up', larger: 'up', worse: 'down', lower: 'down', less: 'down', fewer: 'down', smaller: 'down' };
/**
 * "<measure> was (significantly) <comparative> in|among|for <group A> than|compared to|versus (in|among) <group B>":
 * "Compliance was better among chloroquine plus proguanil users than among mefloquine users".
 */
const COMPARISON = /\b([\p{L}-]+)\s+(?:was|were|is|are)\s+(?:\w+ly\s+)?(better|worse|higher|lower|greater|more|less|fewer|larger|smaller)\s+(?:in|among|for|with)\s+(.+?)\s+(?:than|compared (?:to|with)|versus|vs\.?)\s+(.+?)(?=[.;](?:\s|$)|$)/iu;

function comparisonOf(text: string): { measure: string; way: 'up' | 'down'; a: Set<string>; b: Set<string>; text: string } | undefined {
  const m = COMPARISON.exec(text);
  if (!m) return undefined;
  const words = (s: string) => new Set((s.match(/[\p{L}][\p{L}-]*/gu) ?? []).map((w) => stemWord(w.toLowerCase())).filter((w) => w.length > 2 && !SKIP.has(w)));
  return { measure: stemWord(m[1]!.toLowerCase()), way: COMPARATIVE[m[2]!.toLowerCase()]!, a: words(m[3]!), b: words(m[4]!), text: m[0].replace(/\s+/g, ' ').slice(0, 120) };
}

/** Words of `x` the other side does not have: what names the group ("mefloquine", not "users"). */
const own = (x: Set<string>, y: Set<string>) => [...x].filter((w) => !y.has(w));

/**
 * The claim's comparison of two groups stated the other way round: the same comparative with the groups
 * swapped, or the opposite comparative with the same groups order ("better in mefloquine users ... compared
 * to ... chloroquine plus proguanil users" against "better among chloroquine plus proguanil users than among
 * mefloquine users"). The opposite comparative with the groups swapped says the same and is no finding.
 */
export function swappedComparison(claim: string, evidence: string): GroupFinding | undefined {
  const c = comparisonOf(claim);
  const e = c && comparisonOf(evidence);
  if (!c || !e || c.measure !== e.measure) return undefined;
  const [ca, cb] = [own(c.a, c.b), own(c.b, c.a)];
  if (!ca.length || !cb.length) return undefined;
  const names = (side: Set<string>, ws: string[]) => ws.some((w) => side.has(w));
  // Where the evidence puts the claim's groups: each on one side only, or no reading.
  const same = names(e.a, ca) && !names(e.a, cb) && names(e.b, cb) && !names(e.b, ca);
  const swapped = names(e.a, cb) && !names(e.a, ca) && names(e.b, ca) && !names(e.b, cb);
  if (!same && !swapped) return undefined;
  if (same === (c.way === e.way)) return undefined;
  return { kind: 'direction', message: `the source says "${e.text}"; the claim says "${c.text}" (the comparison is the other way round)`, claimText: c.text, evidenceText: e.text, decisive: true };
}

/** Any of the three, swapped figures first. */
export function swappedGroups(claim: string, evidence: string): GroupFinding | undefined {
  return swappedFigures(claim, evidence) ?? swappedThresholdGroups(claim, evidence) ?? swappedComparison(claim, evidence);
}
