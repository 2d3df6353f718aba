/** The missing-index error, apart from the LanceDB store so that the CLI can tell it (exit 66) without loading LanceDB. */

/** Thrown by read opens of a missing or empty index; the message says how to build one. */
export class MissingIndexError extends Error {
  readonly code = 'ENOINDEX';
  constructor(
    readonly dir: string,
    message: string,
  ) {
    super(message);
    this.name = 'MissingIndexError';
  }
}
