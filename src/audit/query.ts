/**
 * The text the verification engine compares with source passages. SIDE's verification engine reads the
 * claim with its context; our trained scorer was trained on bare (claim, sentence) pairs, so how much
 * context helps is measured (eval citation-detection) rather than assumed:
 *   none     = the claim alone;
 *   previous = the sentence before the claim + the claim (resolves "he", "the album");
 *   full     = the article title + all context sentences + the claim, cut from the left to `maxWords`.
 */
import type { ClaimInContext } from '../retrieve/query-building.js';

export const QUERY_CONTEXTS = ['none', 'previous', 'full'] as const;
export type QueryContext = (typeof QUERY_CONTEXTS)[number];

export function verificationQuery(c: ClaimInContext, mode: QueryContext, maxWords = 128): string {
  const context = c.context ?? [];
  if (mode === 'none' || context.length === 0) return c.claim;
  if (mode === 'previous') return `${context[context.length - 1]} ${c.claim}`;
  const words = [...(c.articleTitle ? [c.articleTitle + '.'] : []), ...context, c.claim].join(' ').split(/\s+/).filter(Boolean);
  return words.slice(Math.max(0, words.length - maxWords)).join(' ');
}
