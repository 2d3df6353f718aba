/**
 * The `veracite` command. Each sub-command lives in its own file and registers itself here.
 */
import { Command } from 'commander';
import { SettingsError } from '../util/settings-error.js';
import { MAX_CLAIM_CHARS } from '../verify/claim-text.js';
import { EXIT, exitCodeHelp } from '../util/exit-codes.js';
import { exitCodeOf } from './exit-codes.js';
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
  program.addHelpText('before', `New here? Run "veracite demo": it builds a small index (.veracite/demo) from the shipped samples, then\ntry "veracite verify <claim> --index .veracite/demo" or "veracite audit data/samples/audit/Breast_cancer_risk_factors.txt --sources data/samples/audit/sources --index .veracite/demo".\n`);
  program.addHelpText('after', `\n${exitCodeHelp()}\n`);
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
    process.exitCode = EXIT.USAGE;
    return;
  }
  await runProgram(buildProgram(), argv, () => ({ messageOf, exitCodeOf }));
}

/** The exit code of a run that failed with `e`: the one table (util/exit-codes.ts), mapped in exit-codes.ts. */
export { exitCodeOf };

/** Errors from the core name settings (`retrieval.mode`); the user typed flags (`--mode`). */
export function messageOf(e: Error): string {
  if (e instanceof SettingsError) return `${flagOf(e.setting) ?? e.setting}: ${e.detail}`;
  return e.message;
}
