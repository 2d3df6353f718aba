/**
 * Gold labels as people write them. SciFact derivatives, FEVER copies and citation-integrity sets spell the
 * same three verdicts in many ways (SUPPORT / SUPPORTS / SUPPORTED, CONTRADICT / REFUTES, NEI / NOT ENOUGH
 * INFO...). Each reader maps them to one canonical spelling up front; what is left is reported as unknown.
 *
 * Matching ignores case and treats spaces, underscores and hyphens alike ("not_enough_info" = "Not enough
 * info" = "NOT-ENOUGH-INFO").
 */

export type Verdict = 'SUPPORTS' | 'REFUTES' | 'NOT ENOUGH INFO';
/** A cited source's support of the claim (WiCE). */
export type SupportLabel = 'supported' | 'partially_supported' | 'not_supported';

const key = (raw: string): string => raw.trim().toUpperCase().replace(/[\s_-]+/g, ' ');

const VERDICT_ALIASES: Record<Verdict, readonly string[]> = {
  SUPPORTS: ['SUPPORTS', 'SUPPORT', 'SUPPORTED'],
  REFUTES: ['REFUTES', 'REFUTE', 'REFUTED', 'CONTRADICT', 'CONTRADICTS', 'CONTRADICTED', 'CONTRADICTION'],
  'NOT ENOUGH INFO': ['NOT ENOUGH INFO', 'NOT ENOUGH INFORMATION', 'NEI', 'NOINFO', 'NO INFO'],
};

const SUPPORT_ALIASES: Record<SupportLabel, readonly string[]> = {
  supported: ['SUPPORTED', 'SUPPORT', 'SUPPORTS', 'FULLY SUPPORTED'],
  partially_supported: ['PARTIALLY SUPPORTED', 'PARTIAL', 'PARTIALLY', 'PARTIAL SUPPORT', 'PARTLY SUPPORTED'],
  // A source that contradicts the claim, or says nothing about it, does not support it (WiCE folds both
  // into not_supported; citation-integrity sets in SciFact/FEVER spelling use REFUTES / NEI for them).
  not_supported: ['NOT SUPPORTED', 'UNSUPPORTED', 'NOT SUPPORT', 'NO SUPPORT', ...VERDICT_ALIASES.REFUTES, ...VERDICT_ALIASES['NOT ENOUGH INFO']],
};

function table<T extends string>(aliases: Record<T, readonly string[]>): Map<string, T> {
  const m = new Map<string, T>();
  for (const [canonical, names] of Object.entries(aliases) as [T, readonly string[]][]) {
    for (const n of [canonical, ...names]) m.set(key(n), canonical);
  }
  return m;
}

const VERDICTS = table(VERDICT_ALIASES);
const SUPPORTS = table(SUPPORT_ALIASES);

/** SUPPORTS / REFUTES / NOT ENOUGH INFO for any usual spelling, undefined for anything else. */
export function verdictLabel(raw: unknown): Verdict | undefined {
  return typeof raw === 'string' ? VERDICTS.get(key(raw)) : undefined;
}

/** supported / partially_supported / not_supported for any usual spelling, undefined otherwise. */
export function supportLabel(raw: unknown): SupportLabel | undefined {
  return typeof raw === 'string' ? SUPPORTS.get(key(raw)) : undefined;
}

/** SciFact's evidence labels: SUPPORT / CONTRADICT, or NOT_ENOUGH_INFO (which is no evidence at all). */
export function scifactLabel(raw: unknown): 'SUPPORT' | 'CONTRADICT' | 'NOT_ENOUGH_INFO' | undefined {
  const v = verdictLabel(raw);
  return v === 'SUPPORTS' ? 'SUPPORT' : v === 'REFUTES' ? 'CONTRADICT' : v === 'NOT ENOUGH INFO' ? 'NOT_ENOUGH_INFO' : undefined;
}

/** For error messages: the accepted spellings, canonical first. */
export const ACCEPTED_VERDICTS = Object.entries(VERDICT_ALIASES)
  .map(([c, names]) => `${c} (${(names as string[]).filter((n) => n !== c).join(', ')})`)
  .join('; ');
export const ACCEPTED_SUPPORT_LABELS = 'supported (SUPPORTED, SUPPORT, SUPPORTS), partially_supported (PARTIAL), not_supported (UNSUPPORTED, and the REFUTES / NOT ENOUGH INFO spellings)';

/** One problem line per unknown value; the accepted spellings go once into the error's hint. */
export function unknownLabel(raw: unknown): string {
  return raw === undefined ? 'missing label' : `unknown label ${JSON.stringify(raw)}`;
}

export function acceptedHint(accepted: string): string {
  return `Accepted labels (any case; spaces, _ and - alike): ${accepted}.`;
}
