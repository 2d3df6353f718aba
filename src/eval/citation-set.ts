/**
 * Scores an audit against per-citation labels the way issue 36 states its targets: how many bands match
 * the labels (supported -> supported, partially_supported -> partly supported, not_supported -> not
 * supported; "needs review" matches none), how many not-supported citations (and, of those, the
 * contradicted and changed-number ones) are banded supported, and how many citations labelled supported
 * get a {{failed verification}} tag proposed. Used by scripts/eval-citation-sets.ts (the labelled sets of
 * data/samples) and by the tests that hold the shipped sample to its figures.
 */
import type { SupportLabel } from './label-aliases.js';
import { separationAuc } from './separation-auc.js';

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
  /** `probability`: the probability of support the audit shows (the one scale); `support`: the entailment verdict's P(SUPPORTS). */
  verification?: { flagged?: boolean; probability?: number; support?: number };
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
  rows: ScoredRow[];
}

export interface ScoredRow { citation: number; label: SupportLabel; kind?: string; band: string; probability?: number; support?: number; tag: boolean; stated: boolean; right: boolean }

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
    return { citation: l.citation, label: l.label, ...(l.kind ? { kind: l.kind } : {}), band, ...(c.verification?.probability !== undefined ? { probability: c.verification.probability } : {}), ...(c.verification?.support !== undefined ? { support: c.verification.support } : {}), tag: proposesTag(c), stated: c.decision?.finding !== undefined, right: band === BAND_OF_LABEL[l.label] };
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

/** One separation figure: the ROC AUC of a score, citations labelled supported against one kind of failure. */
export interface Separation { auc?: number; supported: number; other: number }

/**
 * How well a per-citation score separates the citations labelled supported from the contradicted ones
 * (kinds contradiction + direction), the changed-number ones (kind number) and the wrong-source ones
 * (kind wrong-page), as issue 43 states its targets; plus the share of not-supported citations banded
 * supported. Citations without the score are left out (and counted in `unscored`). Pool the rows of all
 * of a set's articles before calling it: an AUC is not the sum of its parts.
 */
export function separationOfSupport(rows: readonly ScoredRow[], score: 'probability' | 'support' = 'probability') {
  const scored = rows.filter((r) => r[score] !== undefined);
  const of = (pred: (r: ScoredRow) => boolean) => scored.filter(pred).map((r) => r[score]!);
  const supported = of((r) => r.label === 'supported');
  const vs = (kinds: string[]): Separation => {
    const other = of((r) => r.label === 'not_supported' && kinds.includes(r.kind ?? ''));
    const auc = separationAuc(supported, other);
    return { ...(auc !== undefined ? { auc } : {}), supported: supported.length, other: other.length };
  };
  const notSupported = rows.filter((r) => r.label === 'not_supported');
  return {
    score,
    unscored: rows.length - scored.length,
    vsContradicted: vs(['contradiction', 'direction']),
    vsChangedNumber: vs(['number']),
    vsWrongSource: vs(['wrong-page']),
    notSupported: notSupported.length,
    notSupportedBandedSupported: notSupported.filter((r) => r.band === 'supported').length,
    shareNotSupportedBandedSupported: notSupported.length ? notSupported.filter((r) => r.band === 'supported').length / notSupported.length : undefined,
  };
}
