/**
 * What a claim may be, in one place: every edge that takes one (the CLI's verify and check, their batch
 * files, `Veracite.verify` / `Veracite.check`, the HTTP schemas) asks this module, so they refuse the same
 * claims with the same words. A claim is the statement to check: not empty once trimmed, and at most
 * MAX_CLAIM_CHARS characters (a sentence or two; a passage is a source, not a claim, and the models read
 * a claim whole).
 */

/** Longest claim, in characters after trimming. */
export const MAX_CLAIM_CHARS = 2000;

export const EMPTY_CLAIM_MESSAGE = 'the claim is empty: give the statement to check';

export function claimTooLongMessage(chars: number): string {
  return `the claim has ${chars} characters; a claim may have at most ${MAX_CLAIM_CHARS}: give the statement to check, not a passage`;
}

/** What is wrong with `claim`, or undefined when it can be checked. */
export function claimTextProblem(claim: unknown): string | undefined {
  if (typeof claim !== 'string') return `the claim must be text, not ${claim === null ? 'null' : Array.isArray(claim) ? 'an array' : typeof claim}`;
  const text = claim.trim();
  if (!text) return EMPTY_CLAIM_MESSAGE;
  if (text.length > MAX_CLAIM_CHARS) return claimTooLongMessage(text.length);
  // Only NULs, zero-width spaces or punctuation: nothing a model can read, which it answered NOT ENOUGH INFO
  // at confidence 1.00 (a tester's finding). A claim has at least one letter or digit.
  if (!/[\p{L}\p{N}]/u.test(text)) return `${EMPTY_CLAIM_MESSAGE} (it has no letter or digit)`;
  // Control characters (NUL, ESC, ...) are not part of a statement, and a terminal would act on ESC.
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u.exec(text);
  if (control) return `the claim contains a control character (U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}): give the statement as plain text`;
  return undefined;
}

/** A claim that cannot be checked: empty, too long, not text. `where` names the record in a batch file. */
export class ClaimTextError extends Error {
  constructor(
    readonly problem: string,
    readonly where?: string,
  ) {
    super(where ? `${where}: ${problem}` : problem);
    this.name = 'ClaimTextError';
  }
}

/** The claim trimmed, or ClaimTextError. `where` prefixes the message ("claims.jsonl:3 field \"claim\""). */
export function checkedClaim(claim: unknown, where?: string): string {
  const problem = claimTextProblem(claim);
  if (problem) throw new ClaimTextError(problem, where);
  return (claim as string).trim();
}
