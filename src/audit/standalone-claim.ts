/**
 * Claims that stand alone. A citation's sentence often names its subject only by a pronoun or a bare surname
 * ("She won the 1998 prize.", "Gilbert wrote the libretto.", "The company was founded in 1901."): read alone,
 * retrieval and the models see no subject at all. SIDE's query joins title, section and context for the same
 * reason. Before retrieval and scoring such a claim is read with its subject put back:
 *
 *   - a leading personal pronoun (He, She, They; His, Her, Their as "<subject>'s") or a leading "The company",
 *     "The band", ... -> the article's subject (its title without a "(disambiguation)" part), or, without a
 *     title, the last named entity of the context (a run of two or more capitalised words);
 *   - a leading bare surname that is the last word of the subject (or of a full name in the context) -> the
 *     full name.
 *
 * "It" is left alone (a dummy subject as often as not: "It is thought that..."). The report shows the claim
 * as read (`resolvedClaim`) beside the citation's own words.
 */

const PRONOUNS: Record<string, 'subject' | 'possessive'> = { he: 'subject', she: 'subject', they: 'subject', his: 'possessive', her: 'possessive', their: 'possessive' };
const NOUNS = 'company|corporation|firm|band|group|duo|trio|city|town|village|film|movie|album|song|single|book|novel|novella|series|show|programme|program|university|college|school|team|club|game|museum|church|organisation|organization|party|ship|station|airport|magazine|newspaper|journal|species|building|bridge|river|district|region|county|province|state|country|island|hospital|network|channel|label|brand|product|restaurant|hotel';
const NOUN_SUBJECT = new RegExp(`^The (${NOUNS})\\b`, 'i');

export interface StandaloneClaim {
  /** The claim as read (the claim itself when nothing was replaced). */
  text: string;
  /** What was replaced, and by what. */
  replaced?: { from: string; to: string };
}

/** The article's subject: its title without a trailing "(...)" qualifier. */
export function articleSubject(title: string | undefined): string | undefined {
  const t = title?.replace(/\s*\([^)]*\)\s*$/, '').trim();
  return t || undefined;
}

/** The last run of two or more capitalised words in the context (a name), e.g. "Marie Curie". */
export function lastNamedEntity(context: readonly string[]): string | undefined {
  const text = context.join(' ');
  const runs = [...text.matchAll(/\b(?:[A-Z][\p{L}'’.-]+)(?:\s+(?:(?:de|van|von|der|da|di|le|la|of)\s+)?[A-Z][\p{L}'’.-]+)+/gu)].map((m) => m[0]);
  // A run that opens a sentence may begin with an ordinary word ("The Royal Society"): kept as written.
  return runs.at(-1)?.replace(/[.,]+$/, '');
}

export function standaloneClaim(claim: string, context: readonly string[], articleTitle?: string): StandaloneClaim {
  const subject = articleSubject(articleTitle) ?? lastNamedEntity(context);
  const first = /^([A-Z][\p{L}'’-]*)\b/u.exec(claim)?.[1];
  if (!first) return { text: claim };
  const kind = PRONOUNS[first.toLowerCase()];
  if (kind && subject && !claim.includes(subject)) {
    const to = kind === 'possessive' ? `${subject}'s` : subject;
    return { text: to + claim.slice(first.length), replaced: { from: first, to } };
  }
  const noun = NOUN_SUBJECT.exec(claim);
  if (noun && subject && !claim.includes(subject)) return { text: subject + claim.slice(noun[0].length), replaced: { from: noun[0], to: subject } };
  // A bare surname: the last word of a full name in the context or of the subject, followed by a lower-case word.
  if (!/^[A-Z][\p{L}'’-]+\s+\p{Ll}/u.test(claim)) return { text: claim };
  // The nearest full name in the context first (a title may join two names: "Gilbert and Sullivan"), then the subject.
  const inContext = [...context.join(' ').matchAll(/\b[A-Z][\p{L}'’.-]+(?:\s+[A-Z][\p{L}'’.-]+)+/gu)].map((m) => m[0]).reverse();
  const names = [...inContext, subject].filter((n): n is string => !!n && /\s/.test(n));
  const full = names.find((n) => n.split(/\s+/).at(-1) === first);
  if (full && full !== first) return { text: full + claim.slice(first.length), replaced: { from: first, to: full } };
  return { text: claim };
}
