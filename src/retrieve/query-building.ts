/**
 * SIDE's query construction for a claim in its article context.
 *
 * - Dense query: article title + section + the text before the citation (preceding sentences and the
 *   claim itself), truncated FROM THE LEFT so the words nearest the citation survive the length limit.
 * - Sparse query: the claim (the last sentence before the citation) + the article title (+ expansion
 *   terms when the caller has them). BM25 rewards exact terms, and the title carries the entity the
 *   claim is about even when the sentence says "he" or "the band".
 * A plain claim (no context) is used as is for both.
 */

export interface ClaimInContext {
  /** The sentence (or clause) the citation supports. */
  claim: string;
  /** Text before the claim (preceding sentences / paragraph), oldest first. */
  context?: string;
  /** Article title. */
  title?: string;
  /** Section path, e.g. "Career > Later years". */
  section?: string;
  /** Extra terms for the sparse query (e.g. from query expansion). */
  expansion?: string[];
}

export interface BuiltQueries {
  sparse: string;
  dense: string;
}

/** Default dense length limit in words (the offline encoder and MiniLM-size models read ~128-256 tokens). */
export const DENSE_QUERY_WORDS = 128;

function words(text: string | undefined): string[] {
  return text ? text.split(/\s+/).filter(Boolean) : [];
}

function cleanSection(section: string | undefined): string {
  // WiCE / KILT sections end with "." and may be paths; keep the words only.
  return (section ?? '').replace(/\.\s*$/, '').trim();
}

export function buildDenseQuery(c: ClaimInContext, maxWords = DENSE_QUERY_WORDS): string {
  const head = [...words(c.title), ...words(cleanSection(c.section))];
  const tail = [...words(c.context), ...words(c.claim)];
  // Title and section are short and always kept; the context gives way, from its oldest words.
  const budget = Math.max(0, maxWords - head.length);
  const kept = tail.length > budget ? tail.slice(tail.length - budget) : tail;
  return [...head, ...kept].join(' ');
}

export function buildSparseQuery(c: ClaimInContext): string {
  return [c.claim, c.title ?? '', ...(c.expansion ?? [])].filter((s) => s.trim()).join(' ');
}

export function buildQueries(input: string | ClaimInContext, maxDenseWords = DENSE_QUERY_WORDS): BuiltQueries {
  if (typeof input === 'string') return { sparse: input, dense: input };
  if (!input.context && !input.title && !input.section && !input.expansion?.length) return { sparse: input.claim, dense: input.claim };
  return { sparse: buildSparseQuery(input), dense: buildDenseQuery(input, maxDenseWords) };
}
