/**
 * Runs `veracite` as a user does: its own process (src/cli/entry.ts through tsx, as bin/veracite.js runs the
 * compiled copy), so that nothing of the test keeps its event loop alive. A command awaiting a timer that was
 * unref()ed, or a promise nothing will settle, then ends as it would for a user: exit code 13 ("unsettled
 * top-level await") and no output. `assertSettled` fails on exactly that, and on any non-zero exit that
 * printed nothing: a command must never end without saying why.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { cliEntryArgs } from './cli-entry.js';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  args: string[];
}

/** Asynchronous (a synchronous spawn would block the loopback fakes the child talks to, in this process). */
export function runCliProcess(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...cliEntryArgs(), ...args],
      { env: { ...process.env, NO_COLOR: '1', ...opts.env }, timeout: opts.timeoutMs ?? 300_000, maxBuffer: 32 << 20, ...(opts.cwd ? { cwd: opts.cwd } : {}) },
      (e, stdout, stderr) => {
        const err = e as (NodeJS.ErrnoException & { code?: number | string; signal?: NodeJS.Signals }) | null;
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, signal: err?.signal ?? null, stdout, stderr, args });
      },
    );
  });
}

/** The run ended as a command must: not by an unsettled await (13), not killed, and not silently with an error. */
export function assertSettled(r: CliRun): void {
  const said = `${r.stdout}${r.stderr}`.trim();
  const what = `veracite ${r.args.join(' ')}\nexit ${r.code} signal ${r.signal}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`;
  assert.notEqual(r.code, 13, `ended with an unsettled await (exit 13):\n${what}`);
  assert.equal(r.signal, null, `killed (${r.signal}): a hang?\n${what}`);
  if (r.code !== 0) assert.ok(said.length > 0, `exit ${r.code} with no output:\n${what}`);
}
