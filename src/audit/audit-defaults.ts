/** The audit's default configuration, apart from the auditor so that the settings read it without loading the audit. */
import { DEFAULT_SCORING } from './score-document.js';
import type { AuditConfig } from './types.js';

export const DEFAULT_AUDIT_CONFIG: AuditConfig = {
  scoring: DEFAULT_SCORING,
  queryContext: 'none',
  // Whole sentences: with the source ranker's flags, recall and ROC AUC are higher than with SIDE's prefix
  // on both labelled articles (Bodmin: not_supported R 0.75 vs 0.25, AUC 1.000 vs 0.984; Toronto's 16
  // mid-sentence citations: R 1.00 vs 0.50, AUC 1.000 vs 0.929), and WiCE's whole sentences are what
  // every threshold was calibrated on. src/audit/README.md "Claim text" has all the figures.
  claimText: 'sentence',
  recommend: { enabled: true, mode: 'auto', candidates: 5, passagesPerCandidate: 2, suggestions: 3, firstStageWeight: 0 },
  concurrency: 2,
};
