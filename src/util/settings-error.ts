/**
 * An error about one setting, named by its path in the settings (`retrieval.mode`, `models.scorer`).
 * The core never names command-line flags or HTTP fields: each front end maps the setting to what its
 * user typed (the CLI to `--mode`, the server to the request field) before showing the message.
 */
import { EXIT, type ExitCode } from './exit-codes.js';

export class SettingsError extends Error {
  constructor(
    /** Dotted settings path, e.g. "retrieval.mode". */
    readonly setting: string,
    /** What is wrong and what to do, without the setting's name (the front end prefixes it). */
    readonly detail: string,
    /** How the run ends (util/exit-codes.ts): a wrong setting is a usage error; a file it names that is not there, a missing input. */
    readonly exitCode: ExitCode = EXIT.USAGE,
  ) {
    super(`${setting}: ${detail}`);
    this.name = 'SettingsError';
  }
}
