/**
 * Plain bands: what a person reads about each checked citation, one of
 *
 *   supported            the probability of support is at or above SUPPORTED_FROM (the only green badge)
 *   partly supported     between PARTLY_FROM and SUPPORTED_FROM: the source supports part of the claim (WiCE's
 *                        partially_supported, which these bands were fitted to)
 *   needs review         between NOT_SUPPORTED_BELOW and PARTLY_FROM, where the bands were wrong most often; or
 *                        conflicting signals (evidence that contradicts the claim with a probability that says
 *                        partly or fully supported); or a score without a probability to band on
 *   not supported        below NOT_SUPPORTED_BELOW, or contradicted with a low probability
 *   could not check      the source was not read: why, and what to do (`howToCheck`)
 *
 * The thresholds are on the audit's probability of support (`verification.probability`, the calibrated scale of
 * report-scale.ts). They were fitted by scripts/learn/citation-bands.ts on WiCE dev (src/learn/bands.ts: the
 * cost of each confusion, a fixed cost per citation sent to review), and judged only out of fold by article
 * (every citation banded by thresholds, support-signal weights and probability curve fitted without its
 * article): docs/RESULTS-HISTORY.md "Plain bands", eval-results/citation-bands.json.
 */
import { CITATION_BANDS, type BandInfo, type CitationAudit, type CitationBand, type Verification } from './types.js';
import { citationStatus } from './citation-status.js';
import { BAND_THRESHOLDS, bandOfProbability as decisionBandOf, decidePair, type DecisionThresholds, type PairDecision } from '../verify/decision.js';

export { CITATION_BANDS, type BandInfo, type CitationBand };

export const BAND_LABELS: Record<CitationBand, string> = {
  supported: 'supported',
  'partly-supported': 'partly supported',
  'needs-review': 'needs review',
  'not-supported': 'not supported',
  'could-not-check': 'could not check',
};

/** The thresholds of the one decision (verify/decision.ts); the tag threshold is part of them. */
export type BandThresholds = Pick<DecisionThresholds, 'supportedFrom' | 'partlyFrom' | 'notSupportedBelow'> & Partial<Pick<DecisionThresholds, 'tagBelow'>>;
export { BAND_THRESHOLDS };

/** Fitted on all of WiCE dev (349 citations) by scripts/learn/citation-bands.ts; out-of-fold figures in docs/RESULTS-HISTORY.md. */
/** Citations per band, bands with none left out, in CITATION_BANDS order. */
export function countByBand(citations: readonly Pick<CitationAudit, 'source' | 'verification' | 'error' | 'band'>[]): Partial<Record<CitationBand, number>> {
  const counts: Partial<Record<CitationBand, number>> = {};
  for (const b of CITATION_BANDS) {
    const n = citations.filter((c) => (c.band ?? citationBand(c)).band === b).length;
    if (n) counts[b] = n;
  }
  return counts;
}

const full = (t: BandThresholds): DecisionThresholds => ({ ...BAND_THRESHOLDS, ...t });

/** The band of a probability of support (no contradiction, no source problem). */
export function bandOfProbability(p: number, t: BandThresholds = BAND_THRESHOLDS): Exclude<CitationBand, 'could-not-check'> {
  return decisionBandOf(p, full(t));
}

/**
 * The one decision (verify/decision.ts) for a checked citation: a decisive finding of the cited source sets
 * not supported; a contradiction the entailment model reads without a finding is a conflicting signal.
 */
export function decisionOf(v: Pick<Verification, 'probability' | 'contradicted' | 'findings'> & Partial<Pick<Verification, 'review'>>, t: BandThresholds = BAND_THRESHOLDS): PairDecision {
  const decisive = v.findings?.find((f) => f.decisive);
  const judge = v.review?.reason === 'judge' ? { judgeReview: v.review.message } : {};
  return decidePair({ ...(v.probability !== undefined ? { probability: v.probability } : {}), ...(decisive ? { decisiveFinding: decisive } : {}), modelContradiction: !!v.contradicted && !decisive, ...judge }, full(t));
}

/** The band of a scored probability; `contradicted`: a decisive finding states the conflict (not supported). */
export function bandOf(p: number | undefined, contradicted: boolean, t: BandThresholds = BAND_THRESHOLDS): Exclude<CitationBand, 'could-not-check'> {
  return decidePair({ ...(p !== undefined ? { probability: p } : {}), ...(contradicted ? { decisiveFinding: { kind: 'stated', message: 'stated conflict' } } : {}) }, full(t)).band;
}

/** A citation's band, reason and (when it could not be checked) what to do: the one decision's band. */
export function citationBand(c: Pick<CitationAudit, 'source' | 'verification' | 'error'> & Partial<Pick<CitationAudit, 'language'>> & { decision?: PairDecision }, t: BandThresholds = BAND_THRESHOLDS): BandInfo {
  const v = c.verification;
  // Not read as English and not scored: the models cannot check it (text/language.ts).
  if (!v && !c.error && c.language && !c.language.scoredAnyway) {
    return { band: 'could-not-check', label: BAND_LABELS['could-not-check'], reason: `language: ${c.language.problem}`, howToCheck: 'check it by hand against the source, or run again with --any-language to score it anyway (a guess: the models read English)' };
  }
  if (c.error || !v) {
    const status = citationStatus(c);
    const howTo = howToCheck(c.source, c.error);
    // Why it could not be checked, named once: a dead link, a cited work not found, an unreadable source.
    const cause = status.status === 'dead-link' || status.status === 'not-found' || status.status === 'unreadable' ? `${status.label}: ` : '';
    return { band: 'could-not-check', label: BAND_LABELS['could-not-check'], reason: `${cause}${status.reason}`, ...(howTo ? { howToCheck: howTo } : {}) };
  }
  const d = c.decision ?? decisionOf(v, t);
  return { band: d.band, label: BAND_LABELS[d.band], reason: d.reason };
}

/**
 * What to do to check a citation whose source was not read, by why it was not: the CLI's `--fetch` and
 * `--sources FOLDER`, the web page's upload, a corrected identifier, an archived copy, a check by hand.
 */
export function howToCheck(source: Pick<CitationAudit['source'], 'status' | 'reason' | 'workNotFound' | 'ids'>, error?: string): string {
  const saved = 'save the page and give its folder (--sources FOLDER; in the web page: upload it)';
  if (error) return 'run the audit again; if it fails again, check the citation by hand';
  switch (source.status) {
    case 'not-found':
      return source.workNotFound ? 'correct the identifier in the citation (the resolver does not know it), then audit again' : `fetch the source (--fetch), or ${saved}`;
    case 'no-url':
      return source.ids?.isbn || source.ids?.oclc ? 'check it against the book by hand (its page text is not available), or add a URL to an online copy' : 'add a URL, DOI, arXiv or PubMed id to the citation, or check it by hand';
    case 'unreachable':
      return `try again later (--fetch), or ${saved}`;
    case 'dead':
      return 'find an archived copy (archive-url) or a replacement source; or save a copy and give its folder (--sources FOLDER; in the web page: upload it)';
    case 'unreadable':
    case 'unsupported':
      return /OCR|text layer/i.test(source.reason ?? '') ? 'run OCR on the PDF and give the text (--sources FOLDER; in the web page: upload it)' : `give the text of the source (--sources FOLDER; in the web page: upload it)`;
    case 'blocked':
      // A snapshot folder's entry refused (a link out, a FIFO, a device, over the cap): the folder needs mending.
      if (/^snapshot file /.test(source.reason ?? '')) return 'replace that entry of the snapshot folder with the page saved as an ordinary file inside the folder (under --max-bytes), then audit again';
      return `pages on private addresses are never fetched: ${saved}`;
    case 'found':
      return 'the source has no text to score: give its text (--sources FOLDER; in the web page: upload it)';
  }
}
