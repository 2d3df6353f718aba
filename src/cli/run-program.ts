/**
 * Runs a built `veracite` program as the process does (main.ts, and models-entry.ts for `veracite models`):
 * a reader that closes stdout early (`| head`) is not an error, commander's own usage errors exit 64 (util/exit-codes.ts), and
 * any other error is one "veracite: ..." line with its exit code. `errors` gives the wording and the code
 * (main.ts's messageOf / exitCodeOf); it is called only when something failed, so a light entry can load
 * them then.
 */
import { CommanderError, type Command } from 'commander';
import { EXIT } from '../util/exit-codes.js';
import { judgeUsage, takeJudgeUsage, usageLine } from '../models/llm/usage.js';

export interface ErrorReport {
  messageOf(e: Error): string;
  exitCodeOf(e: Error): number;
}

export async function runProgram(program: Command, argv: string[], errors: () => ErrorReport | Promise<ErrorReport>): Promise<void> {
  // `veracite ... | head` closes stdout early: that is the reader's choice, not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  // On every sub-command too: commander copies the setting only into commands made after it is set, and a
  // sub-command's own usage error would otherwise exit 1 from inside commander.
  overrideExits(program);
  try {
    await program.parseAsync(argv);
  } catch (e) {
    reportJudgeUsage();
    // Commander has printed its message (or the help); a wrong command line is a usage error (64).
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
      return;
    }
    const report = await errors();
    console.error(`veracite: ${report.messageOf(e as Error)}`);
    process.exitCode = report.exitCodeOf(e as Error);
    return;
  }
  const exit = judgeExit();
  reportJudgeUsage();
  // A judge that could not answer did not answer: those pairs are needs review, and the run says so in its
  // exit status (util/exit-codes.ts): PARTIAL when some replies could not be read, UNAVAILABLE when none could.
  if (exit && !process.exitCode) {
    console.error(`veracite: ${exit.message}`);
    process.exitCode = exit.code;
  }
}

/** How the run ends for its judges' unreadable replies (read before the tallies are taken), or undefined. */
function judgeExit(): { message: string; code: number } | undefined {
  const tallies = judgeUsage().filter((t) => t.unreadable > 0);
  if (!tallies.length) return undefined;
  const unreadable = tallies.reduce((n, t) => n + t.unreadable, 0);
  const answered = tallies.reduce((n, t) => n + t.calls + t.cacheHits, 0);
  const all = unreadable >= answered;
  return {
    message: all
      ? `none of the ${answered} LLM judge replies could be read: nothing was judged (every pair needs review); check the judge's server and model (exit ${EXIT.UNAVAILABLE})`
      : `${unreadable} of the ${answered} LLM judge replies could not be read: those pairs need review, whatever their probability; check the judge's server and model (exit ${EXIT.PARTIAL})`,
    code: all ? EXIT.UNAVAILABLE : EXIT.PARTIAL,
  };
}

function overrideExits(cmd: Command): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) overrideExits(sub);
}

/** An LLM judge's calls, tokens, cache hits and cost, one line each on stderr at the end of every run that used one. */
function reportJudgeUsage(): void {
  for (const t of takeJudgeUsage()) console.error(usageLine(t));
}
