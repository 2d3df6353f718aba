/** Helpers for commands that save results: JSON files and the command line that regenerates them. */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';

export async function saveJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value, null, 2) + '\n');
}

/** The command line as typed (the root program's raw arguments), for "how to regenerate this file". */
export function commandLine(cmd: Command): string {
  let root = cmd;
  while (root.parent) root = root.parent;
  // commander keeps the argv it parsed in `rawArgs` (not in its typings).
  const raw = (root as unknown as { rawArgs?: string[] }).rawArgs ?? process.argv;
  return ['veracite', ...raw.slice(2)].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

/**
 * `--json` for commands whose result is a saved object: with `json`, the human summary goes to stderr and
 * the result (what `run` returns) to stdout as JSON, so `veracite eval ... --json | jq` works.
 */
export async function withJsonOutput<T>(json: boolean | undefined, run: () => Promise<T>): Promise<void> {
  if (!json) {
    await run();
    return;
  }
  const log = console.log;
  console.log = (...a: unknown[]) => console.error(...a);
  let result: T;
  try {
    result = await run();
  } finally {
    console.log = log;
  }
  console.log(JSON.stringify(result, null, 2));
}
