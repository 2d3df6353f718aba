/** Runs the `veracite` program in this process, as a user would type `args`, and returns what it printed on stdout. */
import type { Command } from 'commander';
import { buildProgram } from '../main.js';

export async function runCli(args: string[], program: Command = buildProgram()): Promise<string> {
  program.exitOverride();
  const out: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => void out.push(a.join(' '));
  // A command that ends PARTIAL sets process.exitCode; in this process that would fail the whole test file
  // after its tests passed. Exit codes are asserted on the CLI run as its own process (test/exit-codes.test.ts).
  const exitCode = process.exitCode;
  try {
    await program.parseAsync(['node', 'veracite', ...args]);
  } finally {
    console.log = log;
    process.exitCode = exitCode;
  }
  return out.join('\n');
}
