/**
 * Problems found in an evaluation's input files, collected over the WHOLE input before any work starts,
 * then reported together: a user fixing a file wants every unknown label and every missing document id
 * at once, with file and line, not the first one after minutes of verifying.
 */
import { FieldError, parseObject } from '../corpus/fields.js';
import { readLines } from '../corpus/read-lines.js';

export interface DataProblem {
  file: string;
  /** 1-based line; 0 when the problem is not tied to one line (e.g. a missing document id). */
  line: number;
  field?: string;
  problem: string;
}

/** Lines shown in the message; the full list stays on `problems`. */
const SHOWN = 40;

export function formatProblem(p: DataProblem): string {
  return `${p.file}${p.line > 0 ? `:${p.line}` : ''}${p.field ? ` field "${p.field}"` : ''}: ${p.problem}`;
}

export class DataProblemsError extends Error {
  constructor(
    /** What was being read, e.g. "SciFact claims claims_dev". */
    readonly what: string,
    readonly problems: readonly DataProblem[],
    /** What to do next, appended to the message. */
    readonly hint?: string,
  ) {
    const lines = problems.slice(0, SHOWN).map((p) => `  ${formatProblem(p)}`);
    if (problems.length > SHOWN) lines.push(`  ... and ${problems.length - SHOWN} more`);
    super(`${what}: ${problems.length} problem${problems.length === 1 ? '' : 's'} found before any work was done:\n${lines.join('\n')}${hint ? `\n${hint}` : ''}`);
    this.name = 'DataProblemsError';
  }
}

export class ProblemList {
  readonly items: DataProblem[] = [];
  add(file: string, line: number, field: string | undefined, problem: string): void {
    this.items.push({ file, line, ...(field ? { field } : {}), problem });
  }
  get size(): number {
    return this.items.length;
  }
  /** Throws a DataProblemsError listing everything collected, when anything was. */
  throwIfAny(what: string, hint?: string): void {
    if (this.items.length) throw new DataProblemsError(what, this.items, hint);
  }
}

/**
 * The JSON objects of a JSONL file (plain or .gz, via the corpus line reader), with file and line. A line
 * that is not a JSON object is recorded in `problems` and skipped, so reading goes on and every bad line
 * is reported at once. `limit` stops after that many records.
 */
export async function readJsonRecords(path: string, problems: ProblemList, limit?: number): Promise<JsonRecord[]> {
  const out: JsonRecord[] = [];
  for await (const { file, line, text } of readLines(path)) {
    try {
      out.push({ file, line, value: parseObject(text) });
    } catch (e) {
      problems.add(file, line, e instanceof FieldError ? e.field : undefined, (e as Error).message);
    }
    if (limit !== undefined && out.length >= limit) break;
  }
  return out;
}

export interface JsonRecord {
  file: string;
  line: number;
  value: Record<string, unknown>;
}
