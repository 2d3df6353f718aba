/**
 * A small JSONL file read whole (labelled samples, claims, a corpus sample): one value a non-empty line,
 * the first `limit` of them. A line that is not JSON is named by file and line. Large corpora are read
 * streaming instead (corpus/read-jsonl.ts).
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';

function parseLines<T>(text: string, path: string, limit?: number): T[] {
  const lines = text.split('\n').filter((l) => l.trim());
  return lines.slice(0, limit ?? lines.length).map((l, i) => {
    try {
      return JSON.parse(l) as T;
    } catch (e) {
      throw new Error(`${path}:${i + 1}: ${(e as Error).message}`);
    }
  });
}

export function readJsonlFileSync<T>(path: string, limit?: number): T[] {
  return parseLines<T>(readFileSync(path, 'utf8'), path, limit);
}

export async function readJsonlFile<T>(path: string, limit?: number): Promise<T[]> {
  return parseLines<T>(await readFile(path, 'utf8'), path, limit);
}
