/**
 * Scores an audit against per-citation labels the way issue 36 states its targets: how many bands match
 * the labels (supported -> supported, partially_supported -> partly supported, not_supported -> not
 * supported; "needs review" matches none), how many not-supported citations (and, of those, the
 * contradicted and changed-number ones) are banded supported, and how many citations labelled supported
 * get a {{failed verification}} tag proposed. Used by scripts/eval-citation-sets.ts (the labelled sets of
 * data/samples) and by the tests that hold the shipped sample to its figures.
 */
import type { SupportLabel } from './label-aliases.js';

/** One line of a label file (data/samples/audit/labels.jsonl, data/samples/citation-set/*.labels.jsonl). */
export interface SetLabel {
  citation: number;
  label: SupportLabel;
  /** What is wrong, where the set says (contradiction, direction, number, wrong-page, partial, supported). */
  kind?: string;
  claim: string;
  note?: string;
}

/** The fields of an audited citation the score reads. */
export interface ScoredCitation {
  index: number;
  claim?: string;
  band?: { band: string };
  verification?: { flagged?: boolean; probability?: number };
  /** The one decision (verify/decision.ts), when the report carries it: its tag is what the worklist proposes. */
  decision?: { band: string; tag?: unknown; finding?: string };
}

export interface SetScore {
  citations: number;
  bandsRight: number;
  /** Citations labelled not_supported banded supported. */
  notSupportedBandedSupported: number;
  /** Of those labelled not_supported with kind contradiction / direction / number: banded supported. */
  contradictedOrNumberBandedSupported: number;
  contradictedOrNumber: number;
  /** {{failed verification}} tags proposed on citations labelled supported. */
  tagsOnSupported: number;
  tags: number;
  /** label -> band -> count. */
  confusion: Record<string, Record<string, number>>;
  rows: { citation: number; label: SupportLabel; kind?: string; band: string; probability?: number; tag: boolean; stated: boolean; right: boolean }[];
}

const BAND_OF_LABEL: Record<SupportLabel, string> = { supported: 'supported', partially_supported: 'partly-supported', not_supported: 'not-supported' };
const EXPLICIT_KINDS = new Set(['contradiction', 'direction', 'number']);

/** Whether a citation gets a tag: the decision's tag when the report has decisions, else the flag (older reports). */
export function proposesTag(c: ScoredCitation): boolean {
  return c.decision ? c.decision.tag !== undefined : !!c.verification?.flagged;
}

export function scoreCitationSet(citations: readonly ScoredCitation[], labels: readonly SetLabel[]): SetScore {
  const byIndex = new Map(citations.map((c) => [c.index, c]));
  const rows = labels.map((l) => {
    const c = byIndex.get(l.citation - 1);
    if (!c) throw new Error(`label for citation ${l.citation}: the audit has no such citation`);
    if (c.claim !== undefined && c.claim !== l.claim) throw new Error(`label for citation ${l.citation}: its claim is not the audited claim ("${c.claim}")`);
    const band = c.decision?.band ?? c.band?.band ?? 'could-not-check';
    return { citation: l.citation, label: l.label, ...(l.kind ? { kind: l.kind } : {}), band, ...(c.verification?.probability !== undefined ? { probability: c.verification.probability } : {}), tag: proposesTag(c), stated: c.decision?.finding !== undefined, right: band === BAND_OF_LABEL[l.label] };
  });
  const confusion: SetScore['confusion'] = {};
  for (const r of rows) (confusion[r.label] ??= {})[r.band] = (confusion[r.label]?.[r.band] ?? 0) + 1;
  const explicit = rows.filter((r) => r.label === 'not_supported' && EXPLICIT_KINDS.has(r.kind ?? ''));
  return {
    citations: rows.length,
    bandsRight: rows.filter((r) => r.right).length,
    notSupportedBandedSupported: rows.filter((r) => r.label === 'not_supported' && r.band === 'supported').length,
    contradictedOrNumberBandedSupported: explicit.filter((r) => r.band === 'supported').length,
    contradictedOrNumber: explicit.length,
    tagsOnSupported: rows.filter((r) => r.label === 'supported' && r.tag).length,
    tags: rows.filter((r) => r.tag).length,
    confusion,
    rows,
  };
}
