/**
 * Checking, before any work, that the documents an evaluation file refers to (SciFact cited abstracts,
 * qrels, WiCE gold pages) are in the index: a claim whose gold document is missing cannot be scored, and
 * finding out one claim at a time after minutes of verifying wastes the run.
 */
import type { Store } from '../store/types.js';
import type { DataProblem } from './data-problems.js';

/** Which of these ids exist (in an index, a corpus file...). */
export type DocIdLookup = (ids: readonly string[]) => Promise<Set<string>>;

/** Ids present in a store, looked up in batches. */
export function storeDocIds(store: Pick<Store, 'getDocuments'>, batch = 500): DocIdLookup {
  return async (ids) => {
    const found = new Set<string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += batch) {
      for (const d of await store.getDocuments(unique.slice(i, i + batch))) found.add(d.id);
    }
    return found;
  };
}

/** Ids present in a fixed set (a corpus read into memory, tests). */
export function setDocIds(known: Iterable<string>): DocIdLookup {
  const set = new Set(known);
  return async (ids) => new Set(ids.filter((id) => set.has(id)));
}

export interface DocReference {
  id: string;
  file: string;
  line: number;
  field: string;
}

/**
 * One problem per missing id (with the first record that refers to it and how many records do), so the error lists
 * every missing id at once.
 */
export async function missingDocProblems(refs: readonly DocReference[], lookup: DocIdLookup, where: string): Promise<DataProblem[]> {
  const first = new Map<string, { ref: DocReference; lines: Set<string> }>();
  for (const r of refs) {
    const seen = first.get(r.id);
    if (seen) seen.lines.add(`${r.file}:${r.line}`);
    else first.set(r.id, { ref: r, lines: new Set([`${r.file}:${r.line}`]) });
  }
  const present = await lookup([...first.keys()]);
  const out: DataProblem[] = [];
  for (const [id, { ref, lines }] of first) {
    if (present.has(id)) continue;
    out.push({ file: ref.file, line: ref.line, field: ref.field, problem: `document ${JSON.stringify(id)} is not in ${where}${lines.size > 1 ? ` (${lines.size} records refer to it)` : ''}` });
  }
  return out;
}
