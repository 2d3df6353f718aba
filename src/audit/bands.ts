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
 * article): docs/RESULTS.md "Plain bands", eval-results/citation-bands.json.
 */
import { CITATION_BANDS, type BandInfo, type CitationAudit, type CitationBand } from './types.js';
import { citationStatus } from './citation-status.js';

export { CITATION_BANDS, type BandInfo, type CitationBand };

export const BAND_LABELS: Record<CitationBand, string> = {
  supported: 'supported',
  'partly-supported': 'partly supported',
  'needs-review': 'needs review',
  'not-supported': 'not supported',
  'could-not-check': 'could not check',
};

export interface BandThresholds {
  /** P(support) at or above: supported. */
  supportedFrom: number;
  /** At or above (and below supportedFrom): partly supported. */
  partlyFrom: number;
  /** Below: not supported; from here to partlyFrom: needs review. */
  notSupportedBelow: number;
}

/** Fitted on all of WiCE dev (349 citations) by scripts/learn/citation-bands.ts; out-of-fold figures in docs/RESULTS.md. */
/** Citations per band, bands with none left out, in CITATION_BANDS order. */
export function countByBand(citations: readonly Pick<CitationAudit, 'source' | 'verification' | 'error' | 'band'>[]): Partial<Record<CitationBand, number>> {
  const counts: Partial<Record<CitationBand, number>> = {};
  for (const b of CITATION_BANDS) {
    const n = citations.filter((c) => (c.band ?? citationBand(c)).band === b).length;
    if (n) counts[b] = n;
  }
  return counts;
}

export const BAND_THRESHOLDS: BandThresholds = { supportedFrom: 0.434, partlyFrom: 0.186, notSupportedBelow: 0.147 };

/** The band of a probability of support (no contradiction, no source problem). */
export function bandOfProbability(p: number, t: BandThresholds = BAND_THRESHOLDS): Exclude<CitationBand, 'could-not-check'> {
  if (p >= t.supportedFrom) return 'supported';
  if (p >= t.partlyFrom) return 'partly-supported';
  if (p >= t.notSupportedBelow) return 'needs-review';
  return 'not-supported';
}

/** The band of a scored probability, with a contradiction read as a conflicting signal when the probability says support. */
export function bandOf(p: number | undefined, contradicted: boolean, t: BandThresholds = BAND_THRESHOLDS): Exclude<CitationBand, 'could-not-check'> {
  if (p === undefined || !Number.isFinite(p)) return 'needs-review';
  const b = bandOfProbability(p, t);
  if (contradicted) return b === 'supported' || b === 'partly-supported' ? 'needs-review' : 'not-supported';
  return b;
}

/** A citation's band, reason and (when it could not be checked) what to do. */
export function citationBand(c: Pick<CitationAudit, 'source' | 'verification' | 'error'>, t: BandThresholds = BAND_THRESHOLDS): BandInfo {
  const v = c.verification;
  const out = (band: CitationBand, reason: string, howToCheck?: string): BandInfo => ({ band, label: BAND_LABELS[band], reason, ...(howToCheck ? { howToCheck } : {}) });
  if (c.error || !v) {
    const status = citationStatus(c);
    return out('could-not-check', status.reason, howToCheck(c.source, c.error));
  }
  const p = v.probability;
  const banded = bandOf(p, !!v.contradicted, t);
  // Flagged by the calibrated failed-verification threshold (another calibration than the bands' own may put
  // it above partlyFrom): the two signals disagree, an editor decides.
  if (v.flagged && !v.contradicted && p !== undefined && (banded === 'supported' || banded === 'partly-supported')) {
    return out('needs-review', `conflicting signals: probability of support ${p.toFixed(2)}, but at or below the failed-verification threshold`);
  }
  const band = banded;
  const pct = (x: number) => x.toFixed(2);
  if (p === undefined) return out(band, 'scored, but without a probability of support to band on (an explicit --threshold or an old calibration)');
  if (v.contradicted) return out(band, band === 'needs-review' ? `conflicting signals: probability of support ${pct(p)}, but its best evidence contradicts the claim` : `its best evidence contradicts the claim (probability of support ${pct(p)})`);
  const reasons: Record<typeof band, string> = {
    supported: `probability of support ${pct(p)} (supported from ${pct(t.supportedFrom)})`,
    'partly-supported': `probability of support ${pct(p)}: the source supports part of the claim (partly from ${pct(t.partlyFrom)}, supported from ${pct(t.supportedFrom)})`,
    'needs-review': `probability of support ${pct(p)}: too close to call (between ${pct(t.notSupportedBelow)} and ${pct(t.partlyFrom)})`,
    'not-supported': `probability of support ${pct(p)} (below ${pct(t.notSupportedBelow)})`,
  };
  return out(band, reasons[band]);
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
      return `pages on private addresses are never fetched: ${saved}`;
    case 'found':
      return 'the source has no text to score: give its text (--sources FOLDER; in the web page: upload it)';
  }
}
