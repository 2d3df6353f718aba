/**
 * `veracite models ...` without the rest of the CLI: the other commands' modules load the pipeline
 * (LanceDB, the model runtimes, settings), seconds of start-up that `models list`, `info`, `use` and
 * `remove` never need. Calibration (pull, calibrate, import) loads its pipeline when it runs
 * (command-models.ts). Errors are reported as main.ts reports them (loaded only then).
 */
import { Command } from 'commander';
import { registerModelsCommand } from './command-models.js';
import { addExamples } from './examples.js';
import { runProgram } from './run-program.js';

export function isModelsCommand(argv: readonly string[]): boolean {
  return argv[2] === 'models';
}

export async function modelsMain(argv: string[]): Promise<void> {
  const program = new Command();
  program.name('veracite').description('check claims against evidence: index, search, verify, audit').version('0.1.0');
  registerModelsCommand(program);
  addExamples(program);
  await runProgram(program, argv, () => import('./main.js'));
}
