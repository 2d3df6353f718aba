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
import { nlp } from '../text/tagger.js';

const PRONOUNS: Record<string, 'subject' | 'possessive'> = { he: 'subject', she: 'subject', they: 'subject', his: 'possessive', her: 'possessive', their: 'possessive' };
const NOUNS = 'company|corporation|firm|band|group|duo|trio|city|town|village|film|movie|album|song|single|book|novel|novella|series|show|programme|program|university|college|school|team|club|game|museum|church|organisation|organization|party|ship|station|airport|magazine|newspaper|journal|species|building|bridge|river|district|region|county|province|state|country|island|hospital|network|channel|label|brand|product|restaurant|hotel';
const NOUN_SUBJECT = new RegExp(`^The (${NOUNS})\\b`);
/** A capitalised word ending in a letter, or an initial ("W."): a name never runs across a sentence's end. */
const WORD = "(?:[A-Z]\\.|[A-Z][\\p{L}'’-]*\\p{L})";
/** Two or more such words ("Marie Curie", "W. S. Gilbert", "Ludwig van Beethoven"). */
const NAME = new RegExp(`\\b${WORD}(?:\\s+(?:(?:de|van|von|der|da|di|le|la)\\s+)?${WORD})+`, 'gu');
/** Words that open sentences and are no surname. */
const NOT_SURNAMES = new Set(['The', 'It', 'This', 'That', 'These', 'Those', 'In', 'On', 'At', 'A', 'An', 'As', 'By', 'For', 'From', 'After', 'Before', 'During', 'When', 'While', 'There', 'Here', 'Its', 'We', 'You', 'I', 'One', 'Some', 'Many', 'Most', 'All', 'Both', 'Each', 'Such', 'Other', 'Another', 'However', 'Although', 'Since', 'Because', 'If', 'Then', 'Today', 'Later', 'Also', 'Other']);

/** Works: "The book" in a person's article is one of their books, so these need the noun in the title ("The Atlas (newspaper)"). */
const WORKS = new Set(['film', 'movie', 'album', 'song', 'single', 'book', 'novel', 'novella', 'series', 'show', 'programme', 'program', 'game', 'magazine', 'newspaper', 'journal', 'label', 'brand', 'product', 'ship', 'species']);

const PLACES = new Set(['city', 'town', 'village', 'country', 'island', 'district', 'region', 'county', 'province', 'state']);

/** "The <noun>" stands for the subject: never for a person; a work only when the title (or its qualifier) says so. */
function nounIsSubject(noun: string, subject: string, title: string): boolean {
  const norm = (x: string) => x.toLowerCase().replace(/[^\p{L}]+/gu, ' ').trim();
  if ((nlp(subject).people().out('array') as string[]).some((p) => norm(p) === norm(subject))) return false;
  if (WORKS.has(noun.toLowerCase())) return new RegExp(`\\b${noun}\\b`, 'i').test(title);
  // In a place's article, "The club" is a club of that place: only a place noun stands for a place.
  const place = (nlp(subject).places().out('array') as string[]).some((p) => norm(p) === norm(subject));
  if (place && !PLACES.has(noun.toLowerCase())) return new RegExp(`\\b${noun}\\b`, 'i').test(title);
  return true;
}

const titleCase = (x: string) => x.replace(/\b\p{Ll}/gu, (c) => c.toUpperCase());
const normName = (x: string) => x.toLowerCase().replace(/[^\p{L}]+/gu, ' ').trim();

/** compromise reads the whole name (title-cased: file names give "julia kristeva") as a person's. */
function isPerson(name: string): boolean {
  const t = titleCase(name);
  return (nlp(t).people().out('array') as string[]).some((p) => normName(p) === normName(t));
}

/**
 * A subject a "he" or "she" may stand for: not a place or an organisation (compromise, title-cased), no
 * qualifier naming a thing ("(band)", "(company)"), and, in a title written with capitals, no common noun
 * ("Goryeo ware", "Chemical biology"). compromise alone misses many people ("W. S. Gilbert", "Altimont Butler").
 */
function mayBePerson(subject: string, title: string): boolean {
  if (isPerson(subject)) return true;
  const qualifier = /\(([^)]*)\)\s*$/.exec(title)?.[1];
  if (qualifier && /\b(?:band|company|club|group|newspaper|magazine|film|album|song|ship|team|organi[sz]ation|city|town|village|river|book|novel|software|game|party)\b/i.test(qualifier)) return false;
  const t = titleCase(subject);
  const doc = nlp(t);
  if ((doc.places().out('array') as string[]).length || (doc.organizations().out('array') as string[]).length) return false;
  if (subject !== subject.toLowerCase() && subject.split(/\s+/).some((w) => /^\p{Ll}/u.test(w) && !/^(?:al|el|de|da|di|du|van|von|der|den|bin|ibn|la|le)$/.test(w))) return false;
  return true;
}

/** The last full name of a person in the context (a run of capitalised words ending with a person's name). */
function lastPerson(context: readonly string[]): string | undefined {
  const people = contextPeople(context);
  return [...context.join(' ').matchAll(NAME)].map((m) => m[0]).filter((n) => people.has(n.split(/\s+/).at(-1)!.toLowerCase()) && !NOT_SURNAMES.has(n.split(/\s+/)[0]!)).at(-1);
}

/** Last words of the people compromise names in the context (lower case). */
function contextPeople(context: readonly string[]): Set<string> {
  const out = new Set<string>();
  if (!context.length) return out;
  for (const p of nlp(context.join(' ')).people().out('array') as string[]) {
    const last = p.replace(/[^\p{L}\s'’-]/gu, ' ').trim().split(/\s+/).at(-1);
    if (last) out.add(last.toLowerCase());
  }
  return out;
}

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
  // A run that opens a sentence may begin with an ordinary word ("The Royal Society"): kept as written.
  return [...text.matchAll(NAME)].map((m) => m[0]).at(-1);
}

export function standaloneClaim(claim: string, context: readonly string[], articleTitle?: string): StandaloneClaim {
  const subject = articleSubject(articleTitle) ?? lastNamedEntity(context);
  const first = /^([A-Z][\p{L}'’-]*)\b/u.exec(claim)?.[1];
  if (!first) return { text: claim };
  const kind = PRONOUNS[first.toLowerCase()];
  if (kind) {
    // He / She / His / Her name a person: the subject when it is one, else the last person the context names.
    // They / Their name a group: the subject when it is no single person.
    const personal = !/^(they|their)$/i.test(first);
    const subjectIsPerson = !!subject && mayBePerson(subject, articleTitle ?? '');
    const who = personal ? (subjectIsPerson ? subject : lastPerson(context)) : subject && !subjectIsPerson ? subject : undefined;
    if (!who || claim.includes(who)) return { text: claim };
    const to = kind.endsWith('possessive') ? `${who}'s` : who;
    return { text: to + claim.slice(first.length), replaced: { from: first, to } };
  }
  const noun = NOUN_SUBJECT.exec(claim);
  if (noun && subject && !claim.includes(subject) && nounIsSubject(noun[1]!, subject, articleTitle ?? '')) return { text: subject + claim.slice(noun[0].length), replaced: { from: noun[0], to: subject } };
  // A bare surname: the last word of a full name in the context or of the subject, followed by a lower-case word.
  if (NOT_SURNAMES.has(first) || !/^[A-Z][\p{L}'’-]+\s+\p{Ll}/u.test(claim)) return { text: claim };
  // The nearest person's full name in the context first (a title may join two names: "Gilbert and Sullivan"),
  // then the subject. Context names are the people compromise finds, read as runs of capitalised words, so a
  // place or a sentence opener ("Although Alhazen", "South Wales") is not taken for a first name.
  if (subject && subject.toLowerCase() === first.toLowerCase()) return { text: claim };
  const people = contextPeople(context);
  const inContext = [...context.join(' ').matchAll(NAME)].map((m) => m[0]).filter((n) => people.has(n.split(/\s+/).at(-1)!.toLowerCase()) && !NOT_SURNAMES.has(n.split(/\s+/)[0]!)).reverse();
  // A subject that has the surname among its words is who is meant ("Murchison" in "Clint Murchison Sr."), whoever else the context names.
  const words = subject?.split(/\s+/) ?? [];
  const subjectHas = words.indexOf(first) > 0 && !/\s(?:and|&)\s/.test(subject!) && !claim.startsWith(subject!);
  if (subjectHas && subject) return { text: subject + claim.slice(first.length), replaced: { from: first, to: subject } };
  const names = [...inContext, subject].filter((n): n is string => !!n && /\s/.test(n) && n.split(/\s+/).length <= 4);
  const full = names.find((n) => n.split(/\s+/).at(-1) === first);
  if (full && full !== first) return { text: full + claim.slice(first.length), replaced: { from: first, to: full } };
  return { text: claim };
}
