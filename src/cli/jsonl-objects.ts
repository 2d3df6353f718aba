/**
 * The records of a JSONL input file (`veracite verify --claims`, `veracite check --pairs`): one JSON object
 * a line, blank lines skipped. A line that is not a JSON object stops the read with the file and line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { BadDataError } from '../util/exit-codes.js';

export interface JsonlObject {
  /** 1-based line number in the file. */
  line: number;
  fields: Record<string, unknown>;
}

/** `path` '-' reads standard input (named "stdin" in errors). */
export async function* readJsonlObjects(path: string): AsyncGenerator<JsonlObject> {
  const rl = createInterface({ input: path === '-' ? process.stdin : createReadStream(path), crlfDelay: Infinity });
  const where = path === '-' ? 'stdin' : path;
  let line = 0;
  for await (const raw of rl) {
    line++;
    if (!raw.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch (e) {
      throw new BadDataError(`${where}:${line}: invalid JSON (${(e as Error).message})`);
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new BadDataError(`${where}:${line}: expected a JSON object`);
    yield { line, fields: v as Record<string, unknown> };
  }
}
