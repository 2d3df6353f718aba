/**
 * audit.maxCitations: the most citations one audit checks. A reader is asked for one citation past the
 * cap (or for the caller's own limit), so a huge article is never read whole; an article that still has
 * more than the cap is refused with a message that names the setting, unless the caller chose a limit.
 * The CLI (`veracite audit`, with --limit) and the server's audit jobs share these two steps.
 */
import { SettingsError } from '../util/settings-error.js';
import type { AuditInput } from './types.js';

/** How many citations to read: the limit when one is given (never above the cap), else one past the cap. */
export function citationsToRead(maxCitations: number, limit?: number): number {
  if (limit === undefined) return maxCitations + 1;
  if (limit > maxCitations) {
    throw new SettingsError('audit.maxCitations', `a limit of ${limit} citations is above the most one audit checks (${maxCitations}): raise this setting to audit that many`);
  }
  return limit;
}

/** Refuses an input read without a limit that has more citations than the cap. */
export function checkCitationCap(input: AuditInput, maxCitations: number, limit?: number): void {
  if (limit !== undefined || input.citations.length <= maxCitations) return;
  const name = input.title ? `"${input.title}"` : 'the article';
  throw new SettingsError(
    'audit.maxCitations',
    `${name} has more than ${maxCitations} citations, the most one audit checks: audit its first n (veracite audit --limit n), or raise this setting (veracite audit / serve --max-citations)`,
  );
}
