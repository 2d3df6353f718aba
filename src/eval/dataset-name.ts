/**
 * The name an evaluation result carries: the one the user gives (`--name`), else the data file's name
 * without folder and extension ("my-claims.jsonl.gz" -> "my-claims"). Never a built-in data set's name:
 * a result must describe the data it was computed on.
 */
import { basename } from 'node:path';

export function datasetName(path: string, explicit?: string): string {
  const given = explicit?.trim();
  if (given) return given;
  const base = basename(path.replace(/[\\/]+$/, ''));
  return base.replace(/\.gz$/i, '').replace(/\.(jsonl|ndjson|json|tsv|txt|csv)$/i, '') || base;
}
