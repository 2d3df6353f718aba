/**
 * Entity mentions of a claim, for title-matching document retrieval (ColumbiaNLP's FEVER system):
 *  - named entities (people, places, organisations, topics) from compromise's tagger;
 *  - the claim prefix before the first lower-case verb ("Fox 2000 Pictures" in "Fox 2000 Pictures
 *    released the film Soul Food"): FEVER claims usually start with the page title;
 *  - maximal runs of capitalised words ("Soul Food", "National Football League").
 * Mentions are returned longest first, de-duplicated, with a leading "The" also tried without it.
 */
import { nlp } from '../text/tagger.js';

export interface Mention {
  text: string;
  kind: 'entity' | 'prefix' | 'capitalised';
}

interface TermJson {
  text: string;
  pre: string;
  post: string;
  tags: string[];
}

const JOINERS = new Set(['of', 'the', 'de', 'and', 'for', 'in', 'on', 'la', 'le', 'von', 'van', 'da', 'del', '&']);

function clean(s: string): string {
  // Possessives name the same entity: "Damon Albarn's debut album" -> "Damon Albarn".
  return s.replace(/['’]s\b.*$/, '').replace(/^[\s"'“”‘’(]+|[\s"'“”‘’).,;:!?]+$/g, '').replace(/\s+/g, ' ').trim();
}

function isCapitalised(word: string): boolean {
  return /^[\p{Lu}\p{N}]/u.test(word);
}

function capitalisedRuns(terms: TermJson[]): string[] {
  const runs: string[] = [];
  let current: string[] = [];
  const close = () => {
    while (current.length && JOINERS.has(current[current.length - 1]!.toLowerCase())) current.pop();
    if (current.length && current.some((w) => /^\p{Lu}/u.test(w))) runs.push(current.join(' '));
    current = [];
  };
  terms.forEach((t, i) => {
    const w = t.text;
    const sentenceStart = i === 0;
    if (isCapitalised(w) && !(sentenceStart && t.tags.includes('Determiner'))) current.push(w);
    else if (current.length && JOINERS.has(w.toLowerCase())) current.push(w);
    else close();
    // Punctuation after a word ends a run ("Paris, France" is two mentions).
    if (/[,;:()]/.test(t.post)) close();
  });
  close();
  return runs;
}

function prefixBeforeVerb(terms: TermJson[]): string | undefined {
  const i = terms.findIndex((t, idx) => idx > 0 && t.tags.includes('Verb') && /^\p{Ll}/u.test(t.text));
  if (i <= 0) return undefined;
  return terms.slice(0, i).map((t) => t.text).join(' ');
}

export function extractMentions(claim: string): Mention[] {
  const doc = nlp(claim);
  const terms = (doc.json({ terms: { text: true, tags: true } }) as { terms: TermJson[] }[]).flatMap((s) => s.terms);
  const found: Mention[] = [];
  const add = (text: string | undefined, kind: Mention['kind']) => {
    const c = text ? clean(text) : '';
    if (c.length < 2) return;
    found.push({ text: c, kind });
    if (/^the\s/i.test(c)) found.push({ text: c.replace(/^the\s+/i, ''), kind });
  };
  for (const e of [...doc.people().out('array'), ...doc.places().out('array'), ...doc.organizations().out('array'), ...doc.topics().out('array')] as string[]) add(e, 'entity');
  add(prefixBeforeVerb(terms), 'prefix');
  for (const r of capitalisedRuns(terms)) add(r, 'capitalised');
  const seen = new Set<string>();
  return found
    .filter((m) => {
      const k = m.text.toLowerCase();
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => b.text.length - a.text.length);
}
