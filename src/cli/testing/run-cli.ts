/** Runs the `veracite` program in this process, as a user would type `args`, and returns what it printed on stdout. */
import type { Command } from 'commander';
import { buildProgram } from '../main.js';

export async function runCli(args: string[], program: Command = buildProgram()): Promise<string> {
  program.exitOverride();
  const out: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => void out.push(a.join(' '));
  try {
    await program.parseAsync(['node', 'veracite', ...args]);
  } finally {
    console.log = log;
  }
  return out.join('\n');
}
