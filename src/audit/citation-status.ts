/**
 * Why a citation's source could or could not be checked, from what the audit found (a pure function of a
 * CitationAudit). Not a label people read: the band (bands.ts) is the citation's one label; this module gives
 * the band "could not check" its reason (a dead link, a cited work not found, an unreadable source) and the
 * checked bands nothing. Its codes:
 *
 *   supported            the source was read and scored above the calibrated failed-verification threshold
 *   fails-verification   read and scored at or below that threshold ("likely fails verification"), or
 *                        its relevant evidence contradicts the claim
 *   not-found            the DOI / arXiv / PubMed resolver says the cited work does not exist
 *   dead-link            the page is gone (HTTP 404/410, or its domain has no DNS record while the archive
 *                        answered on the same run: offline, every name fails and nothing is dead)
 *   unreadable           the source was reached but has no text we can read: a scanned PDF, an encrypted
 *                        or damaged one, another content type, a page with no main text
 *   unverifiable         nothing to check against: no URL and no identifier, the page could not be
 *                        reached now (no network or DNS answer, timeout, 5xx, refused by the SSRF guard), it was not available with
 *                        live fetching off, or it was scored without a calibrated threshold to decide on
 *
 * Only `supported` and `fails-verification` come from reading the source against the claim; every other
 * status says why that could not be done, so "could not check" never reads as "does not support".
 */
import type { CitationAudit, CitationStatus, CitationStatusInfo } from './types.js';
import { CONFLICT_WORDS } from '../verify/explicit-conflict.js';
import { coverageInWords } from '../verify/coverage.js';

export type { CitationStatus, CitationStatusInfo };

export const CITATION_STATUSES: readonly CitationStatus[] = ['supported', 'fails-verification', 'not-found', 'dead-link', 'unreadable', 'unverifiable'];

/** How each status is written in reports. */
export const CITATION_STATUS_LABELS: Record<CitationStatus, string> = {
  supported: 'supported',
  'fails-verification': 'likely fails verification',
  'not-found': 'not found',
  'dead-link': 'dead link',
  unreadable: 'unreadable',
  unverifiable: 'could not check',
};

/** The citation's verdict, with the reason in words. */
export function citationStatus(c: Pick<CitationAudit, 'source' | 'verification' | 'error'>): CitationStatusInfo {
  const s = c.source;
  const v = c.verification;
  const out = (status: CitationStatus, reason: string): CitationStatusInfo => ({ status, label: CITATION_STATUS_LABELS[status], reason });
  // The audit of this citation failed (the others went on): nothing was judged.
  if (c.error) return out('unverifiable', c.error);
  if (v) {
    const score = scoreWords(v);
    if (v.flagged === true && v.contradicted) {
      // The NLI head's own P(supports), named as such: the probability of support is the one number above.
      const p = v.support !== undefined ? ` (NLI P(supports) ${v.support.toFixed(2)})` : '';
      // The finding in words when there is one ("the source says 28 percent, the claim says 58 percent").
      const stated = v.findings?.find((f) => f.decisive);
      const why = stated ? ` (${stated.message})` : v.conflict ? ` (${CONFLICT_WORDS[v.conflict]})` : '';
      return out('fails-verification', `${score}: its best evidence contradicts the claim${why}${p}, whatever the score`);
    }
    // What the source leaves out of the claim often explains a low score: say so.
    const names = v.coverage?.missing.length ? `; the source ${coverageInWords(v.coverage)}` : '';
    if (v.flagged === true) return out('fails-verification', `${score}: at or below the failed-verification threshold${names}`);
    if (v.flagged === false) return out('supported', `${score}: above the failed-verification threshold`);
    return out('unverifiable', `${score}, but no calibrated threshold to decide on (see the report's flagging line)`);
  }
  const why = s.reason ?? s.status;
  switch (s.status) {
    case 'not-found':
      return s.workNotFound ? out('not-found', why) : out('unverifiable', `source not available: ${why}`);
    case 'dead':
      return out('dead-link', why);
    case 'unreadable':
    case 'unsupported':
      return out('unreadable', why);
    case 'found':
      // Found but nothing scored: a page whose sentences were all empty.
      return out('unreadable', 'the source has no text to score');
    case 'no-url':
      return out('unverifiable', why);
    case 'unreachable':
      // The fetcher says "could not reach <host>: ..." when no server answered (offline, DNS, timeout).
      return out('unverifiable', /^could not reach /.test(why) ? why : `could not be reached now: ${why}`);
    case 'blocked':
      return out('unverifiable', `not fetched: ${why}`);
  }
}

/**
 * The scores behind a status, each with its scale: the probability of support (the one scale the flag is
 * decided on, when calibrated) first, then the raw signals it was read from, named as such.
 */
export function scoreWords(v: Pick<NonNullable<CitationAudit['verification']>, 'score' | 'rankerScore' | 'probability'>): string {
  const raw = [`evidence score ${v.score.toFixed(3)}`, ...(v.rankerScore !== undefined ? [`source-ranker score ${v.rankerScore.toFixed(3)} (linear, higher = better supported)`] : [])];
  if (v.probability !== undefined) return `probability of support ${(100 * v.probability).toFixed(0)}% (0-100%; from ${raw.join(', ')})`;
  return raw.join(', ');
}

/** Citations per status, every status present (0 when none), in CITATION_STATUSES order. */
export function countByStatus(citations: readonly Pick<CitationAudit, 'source' | 'verification'>[]): Record<CitationStatus, number> {
  const counts = Object.fromEntries(CITATION_STATUSES.map((k) => [k, 0])) as Record<CitationStatus, number>;
  for (const c of citations) counts[citationStatus(c).status]++;
  return counts;
}
