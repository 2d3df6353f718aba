/**
 * verify's label beside the one decision of its deciding document (issue 36: the output says why they take
 * different sides). Light on purpose: the CLI imports it when it starts.
 */
import type { Verdict } from './types.js';

/**
 * Why the verdict's label and its deciding document's band take different sides, when they do and no
 * finding settles it: the label is the entailment model's reading of the best evidence sentences (its
 * calibration fitted on SciFact abstracts), the band the calibrated probability of support of the whole
 * source (fitted on WiCE's Wikipedia citations), which `check`, the audit and the web page show.
 */
export function labelAgainstBand(v: Pick<Verdict, 'label' | 'decidedBy' | 'evidence' | 'documentDecisions' | 'overruled'>): string | undefined {
  if (v.overruled || v.label === 'NOT ENOUGH INFO') return undefined;
  const id = v.decidedBy?.docId ?? v.evidence[0]?.docId;
  const d = v.documentDecisions?.find((x) => x.docId === id)?.decision;
  if (!d || d.finding) return undefined;
  const against = v.label === 'SUPPORTS' ? d.band === 'not-supported' || d.band === 'needs-review' : d.band === 'supported' || d.band === 'partly-supported';
  if (!against) return undefined;
  return `the label and the deciding document's band (${d.label}) disagree: the label is the entailment model's reading of the best evidence sentences, the band the calibrated probability of support of the whole document (what check, the audit and the web page show); no finding states the conflict in words: read the source`;
}
