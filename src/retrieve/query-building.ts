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

/**
 * A claim as it stands in its article: the one shape every layer reads (a wiki Citation, an audit citation,
 * an evaluation query with context all are one).
 */
export interface ClaimInContext {
  /** The sentence (or clause) the citation supports. */
  claim: string;
  /** Sentences before the claim (or one string of preceding text), oldest first. */
  context?: readonly string[];
  articleTitle?: string;
  /** Section path, outermost first, e.g. ["Career", "Later years"]. */
  sectionPath?: readonly string[];
  /** Extra terms for the sparse query (e.g. from query expansion). */
  expansion?: readonly string[];
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

function cleanSection(path: readonly string[] | undefined): string {
  // WiCE / KILT sections end with "." and may be paths; keep the words only.
  return (path ?? []).join(' ').replace(/\.\s*$/, '').trim();
}

export function buildDenseQuery(c: ClaimInContext, maxWords = DENSE_QUERY_WORDS): string {
  const head = [...words(c.articleTitle), ...words(cleanSection(c.sectionPath))];
  const tail = [...words(c.context?.join(' ')), ...words(c.claim)];
  // Title and section are short and always kept; the context gives way, from its oldest words.
  const budget = Math.max(0, maxWords - head.length);
  const kept = tail.length > budget ? tail.slice(tail.length - budget) : tail;
  return [...head, ...kept].join(' ');
}

export function buildSparseQuery(c: ClaimInContext): string {
  return [c.claim, c.articleTitle ?? '', ...(c.expansion ?? [])].filter((s) => s.trim()).join(' ');
}

export function buildQueries(input: string | ClaimInContext, maxDenseWords = DENSE_QUERY_WORDS): BuiltQueries {
  if (typeof input === 'string') return { sparse: input, dense: input };
  if (!input.context?.length && !input.articleTitle && !input.sectionPath?.length && !input.expansion?.length) return { sparse: input.claim, dense: input.claim };
  return { sparse: buildSparseQuery(input), dense: buildDenseQuery(input, maxDenseWords) };
}
