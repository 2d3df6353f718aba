/**
 * Queries from a claim (SAFE and SIDE both search with more than the sentence alone): a search engine
 * matches words, and a whole sentence often asks for too many at once, so each claim gives several:
 *   1. its content words, with the article's title when the claim does not name it (SIDE's sparse query:
 *      claim + title; the title carries the subject a sentence calls "he" or "the band");
 *   2. its names and figures alone (capitalised phrases, numbers): what an encyclopedia's title search finds;
 *   3. the sentence itself (web engines read sentences well).
 * Duplicates (case-insensitive) are dropped; the caller takes as many as its budget allows.
 */
import type { ClaimInContext } from '../retrieve/query-building.js';
import { contentTokens } from '../text/tfidf.js';

/** Words kept in a keyword query: engines AND their terms, so a long list finds nothing. */
const MAX_KEYWORDS = 10;
const MAX_SENTENCE_CHARS = 300;

/** The sentence without citation marks ("[12]", "[citation needed]") and its final stop. */
export function cleanClaim(text: string): string {
  return text.replace(/\[[^\]]{0,40}\]/g, ' ').replace(/\s+/g, ' ').trim().replace(/[.;:]+$/, '');
}

function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
}

function keywords(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of words(text)) {
    const key = w.toLowerCase();
    if (seen.has(key) || contentTokens(w).length === 0) continue;
    seen.add(key);
    out.push(w);
  }
  return out;
}

/** Capitalised phrases not at the sentence start alone, and numbers: "Marie Curie", "Warsaw", "1867". */
function namesAndFigures(text: string): string[] {
  const toks = words(text);
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length) out.push(run.join(' '));
    run = [];
  };
  toks.forEach((t, i) => {
    const capital = /^\p{Lu}/u.test(t) && (i > 0 || /^\p{Lu}/u.test(toks[1] ?? '') || contentTokens(t).length > 0);
    if (capital && contentTokens(t).length) run.push(t);
    else {
      flush();
      if (/^\d[\d.,]*$/.test(t)) out.push(t);
    }
  });
  flush();
  return [...new Set(out)];
}

export function searchQueries(c: ClaimInContext | string, max: number): string[] {
  const claim = cleanClaim(typeof c === 'string' ? c : c.claim);
  const title = typeof c === 'string' ? '' : cleanClaim(c.articleTitle ?? '').replace(/\s*\(.*\)$/, '');
  const kw = keywords(claim).slice(0, MAX_KEYWORDS);
  const lower = claim.toLowerCase();
  const titleMissing = title && !lower.includes(title.toLowerCase());
  const first = (titleMissing ? [title, ...kw.slice(0, MAX_KEYWORDS - 1)] : kw).join(' ');
  const names = namesAndFigures(claim);
  const second = (titleMissing ? [title, ...names] : names).join(' ');
  const out: string[] = [];
  const seen = new Set<string>();
  for (const q of [first, second, claim.slice(0, MAX_SENTENCE_CHARS)]) {
    const key = q.toLowerCase().trim();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(q.trim());
  }
  return out.slice(0, Math.max(1, max));
}
