/**
 * Which exit code (util/exit-codes.ts, the one table) an error ends the run with. An error that carries
 * its code (ExitError and its kinds) is taken at its word; the errors the modules already had are told
 * by name, not by class, so that this file loads nothing (it runs only when something failed) and an
 * error re-thrown from a worker thread (WorkerTaskError keeps the name) still gets its code.
 */
import { CommanderError } from 'commander';
import { EXIT, ownExitCode, type ExitCode } from '../util/exit-codes.js';

/** Error class names of the modules and how a run that failed with one ends. */
const BY_NAME: Record<string, ExitCode> = {
  // The input is there but wrong.
  NotTextError: EXIT.DATA,
  ClaimTextError: EXIT.DATA,
  RecordError: EXIT.DATA,
  SourceReadError: EXIT.DATA,
  FieldError: EXIT.DATA,
  PdfLimitError: EXIT.DATA,
  WikitextLimitError: EXIT.DATA,
  DataProblemsError: EXIT.DATA,
  BudgetError: EXIT.DATA,
  CalibrationRefusedError: EXIT.DATA,
  HubChecksumError: EXIT.DATA,
  BadUrlError: EXIT.DATA,
  BlockedAddressError: EXIT.DATA,
  // Not there.
  MissingIndexError: EXIT.NO_INPUT,
  // A service that did not answer.
  SearchError: EXIT.UNAVAILABLE,
  LlmHttpError: EXIT.UNAVAILABLE,
  MalformedReplyError: EXIT.UNAVAILABLE,
  HubError: EXIT.UNAVAILABLE,
  DnsError: EXIT.UNAVAILABLE,
  // The command line (or the settings it names) is wrong.
  SettingsError: EXIT.USAGE,
  LlmConfigError: EXIT.USAGE,
  ProfileError: EXIT.USAGE,
  ExposureError: EXIT.USAGE,
  CorsOriginError: EXIT.USAGE,
  // Try again later.
  WriterLockError: EXIT.TEMP_FAIL,
};

/** Node's errno codes: a file that is not there or cannot be opened, a host that does not answer. */
const BY_ERRNO: Record<string, ExitCode> = {
  ENOENT: EXIT.NO_INPUT,
  ENOTDIR: EXIT.NO_INPUT,
  EISDIR: EXIT.DATA,
  EACCES: EXIT.NO_INPUT,
  EPERM: EXIT.NO_INPUT,
  ECONNREFUSED: EXIT.UNAVAILABLE,
  ECONNRESET: EXIT.UNAVAILABLE,
  ENOTFOUND: EXIT.UNAVAILABLE,
  EAI_AGAIN: EXIT.UNAVAILABLE,
  ETIMEDOUT: EXIT.UNAVAILABLE,
  EADDRINUSE: EXIT.UNAVAILABLE,
};

/** A model that is not there is a missing input; one that is there and will not load is veracite's fault. */
const MODEL_MISSING = new Set(['folder-missing', 'config-missing', 'tokenizer-missing', 'onnx-missing', 'weights-missing']);

/** How a run that failed with `e` ends. An error nobody classified is a fault of veracite's (70). */
export function exitCodeOf(e: unknown): ExitCode {
  if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  const own = ownExitCode(e);
  if (own !== undefined) return own;
  if (!(e instanceof Error)) return EXIT.INTERNAL;
  const code = (e as NodeJS.ErrnoException).code;
  if (e.name === 'ModelLoadError' || e.name === 'TrainedModelError') return typeof code === 'string' && MODEL_MISSING.has(code) ? EXIT.NO_INPUT : EXIT.INTERNAL;
  const byName = BY_NAME[e.name];
  if (byName !== undefined) return byName;
  if (typeof code === 'string' && BY_ERRNO[code] !== undefined) return BY_ERRNO[code];
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return EXIT.UNAVAILABLE;
  return EXIT.INTERNAL;
}
