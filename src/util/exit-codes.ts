/**
 * How a `veracite` run ends, in one table (sysexits(3) where a script may want to tell the cases apart).
 * Every command exits with one of these; `veracite --help` and the README print this table (exitCodeHelp).
 *
 * The core never exits: it throws one of the errors below (or one the CLI's exit-codes.ts maps), and the
 * CLI turns it into the code. A module that can tell why it failed throws the matching class, e.g.
 * `throw new ServiceUnavailableError('every search provider failed: ...')`, so the CLI need not know it.
 * This file imports nothing: any layer may throw these.
 */

export const EXIT = {
  /** The run did what was asked (an audit that flags citations still exits 0: flags are findings). */
  OK: 0,
  /** The run finished, but part of the input could not be used (e.g. `index` read records and indexed none). */
  PARTIAL: 1,
  /** EX_USAGE: the command line is wrong (unknown command or option, a missing argument, flags that clash). */
  USAGE: 64,
  /** EX_DATAERR: the input is there but wrong (not text, an empty claim or file, a bad JSONL line). */
  DATA: 65,
  /** EX_NOINPUT: a named input does not exist (an article, a claims file, a source, the index). */
  NO_INPUT: 66,
  /** EX_UNAVAILABLE: a service the run needs did not answer (every search provider failed, a judge, the model hub). */
  UNAVAILABLE: 69,
  /** EX_SOFTWARE: a fault in veracite itself; please report it with the message. */
  INTERNAL: 70,
  /** EX_TEMPFAIL: try again later (another process is writing the index). */
  TEMP_FAIL: 75,
  /** Stopped by Ctrl-C (128 + SIGINT); what was done is kept. */
  INTERRUPTED: 130,
} as const;

export type ExitName = keyof typeof EXIT;
export type ExitCode = (typeof EXIT)[ExitName];

/** One line per code, as `--help` and the README show them. */
export const EXIT_MEANINGS: readonly { code: ExitCode; name: ExitName; meaning: string }[] = [
  { code: EXIT.OK, name: 'OK', meaning: 'done (flagged citations and refuted claims are findings, not failures)' },
  { code: EXIT.PARTIAL, name: 'PARTIAL', meaning: 'finished, but part of the input could not be used (see the messages)' },
  { code: EXIT.USAGE, name: 'USAGE', meaning: 'the command line is wrong: unknown command or option, missing argument' },
  { code: EXIT.DATA, name: 'DATA', meaning: 'an input is wrong: empty, not text, a bad line in a JSONL file' },
  { code: EXIT.NO_INPUT, name: 'NO_INPUT', meaning: 'an input is missing: no such file, no index (veracite demo builds one)' },
  { code: EXIT.UNAVAILABLE, name: 'UNAVAILABLE', meaning: 'a service did not answer: search providers, a judge, the model hub' },
  { code: EXIT.INTERNAL, name: 'INTERNAL', meaning: 'a fault in veracite itself: please report it with the message' },
  { code: EXIT.TEMP_FAIL, name: 'TEMP_FAIL', meaning: 'another process is writing the index: try again later' },
  { code: EXIT.INTERRUPTED, name: 'INTERRUPTED', meaning: 'stopped by Ctrl-C; the work done so far is kept' },
];

/** The table as `--help` prints it. */
export function exitCodeHelp(): string {
  return ['Exit codes:', ...EXIT_MEANINGS.map((m) => `  ${String(m.code).padStart(3)}  ${m.meaning}`)].join('\n');
}

/** An error that knows how the run should end. */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = 'ExitError';
  }
}

/** The command line is wrong (64). */
export class UsageError extends ExitError {
  constructor(message: string) {
    super(message, EXIT.USAGE);
    this.name = 'UsageError';
  }
}

/** An input is there but wrong: empty, not text, malformed (65). */
export class BadDataError extends ExitError {
  constructor(message: string) {
    super(message, EXIT.DATA);
    this.name = 'BadDataError';
  }
}

/** A named input does not exist (66). */
export class MissingInputError extends ExitError {
  constructor(message: string) {
    super(message, EXIT.NO_INPUT);
    this.name = 'MissingInputError';
  }
}

/** A service the run needs did not answer (69). */
export class ServiceUnavailableError extends ExitError {
  constructor(message: string) {
    super(message, EXIT.UNAVAILABLE);
    this.name = 'ServiceUnavailableError';
  }
}

const CODES = new Set<number>(Object.values(EXIT));

/** The exit code an error carries itself (ExitError or any error with a known numeric `exitCode`), or undefined. */
export function ownExitCode(e: unknown): ExitCode | undefined {
  const code = (e as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === 'number' && CODES.has(code) && code !== EXIT.OK ? (code as ExitCode) : undefined;
}
