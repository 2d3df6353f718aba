/**
 * The `veracite` command. Each sub-command lives in its own file and registers itself here.
 */
import { Command } from 'commander';
import { MissingIndexError } from '../store/missing-index.js';
import { WriterLockError } from '../store/writer-lock.js';
import { SettingsError } from '../util/settings-error.js';
import { NotTextError } from '../util/not-text.js';
import { ClaimTextError, MAX_CLAIM_CHARS } from '../verify/claim-text.js';
import { flagOf } from './options.js';
import { addExamples } from './examples.js';
import { runProgram } from './run-program.js';
import { registerIndexCommand } from './command-index.js';
import { registerSearchCommand } from './command-search.js';
import { registerEvalCommand } from './command-eval.js';
import { registerDemoCommand } from './command-demo.js';
import { registerVerifyCommand } from './command-verify.js';
import { registerServeCommand } from './command-serve.js';
import { registerAuditCommand } from './command-audit.js';
import { registerCheckCommand } from './command-check.js';
import { registerCalibrateCommand } from './command-calibrate.js';
import { registerTrainCommand } from './command-train.js';
import { registerTuneVerdictCommand } from './command-tune-verdict.js';
import { registerTrainRankerCommand } from './command-ranker.js';
import { registerModelsCommand } from './command-models.js';

export function buildProgram(): Command {
  const program = new Command();
  program.name('veracite').description('check claims against evidence: index, search, verify, audit').version('0.1.0');
  registerIndexCommand(program);
  registerSearchCommand(program);
  registerVerifyCommand(program);
  registerEvalCommand(program);
  registerAuditCommand(program);
  registerCheckCommand(program);
  registerCalibrateCommand(program);
  registerTrainCommand(program);
  registerTuneVerdictCommand(program);
  registerTrainRankerCommand(program);
  registerModelsCommand(program);
  registerServeCommand(program);
  registerDemoCommand(program);
  addExamples(program);
  return program;
}

/**
 * Longest single command-line argument accepted. onnxruntime-node 1.30 crashes at start-up (SIGSEGV) when
 * the process has a ~30 KB argument, so a long claim is refused before any model loads and the user is
 * told to give it on stdin instead.
 */
export const MAX_ARGUMENT_CHARS = 8192;

export function tooLongArgument(argv: readonly string[]): string | undefined {
  const long = argv.slice(2).find((a) => a.length > MAX_ARGUMENT_CHARS);
  if (long === undefined) return undefined;
  return `an argument of ${long.length} characters is longer than the command line allows (${MAX_ARGUMENT_CHARS}); a claim may have at most ${MAX_CLAIM_CHARS} characters, and a source or an article goes in a file (--source page.txt) or on stdin (--source -)`;
}

export async function main(argv: string[]): Promise<void> {
  const tooLong = tooLongArgument(argv);
  if (tooLong) {
    console.error(`veracite: ${tooLong}`);
    process.exitCode = 2;
    return;
  }
  await runProgram(buildProgram(), argv, () => ({ messageOf, exitCodeOf }));
}

/**
 * sysexits(3) codes where a script may want to tell the cases apart: the input data is wrong (65,
 * EX_DATAERR: a binary file given as a page or an article, an empty or too long claim), no index there (66,
 * EX_NOINPUT), another process is writing the index (75, EX_TEMPFAIL: try again later); 1 otherwise.
 */
export function exitCodeOf(e: Error): number {
  if (e instanceof NotTextError || e instanceof ClaimTextError) return 65;
  if (e instanceof MissingIndexError) return 66;
  if (e instanceof WriterLockError) return 75;
  return 1;
}

/** Errors from the core name settings (`retrieval.mode`); the user typed flags (`--mode`). */
export function messageOf(e: Error): string {
  if (e instanceof SettingsError) return `${flagOf(e.setting) ?? e.setting}: ${e.detail}`;
  return e.message;
}
