/** Wording shared by the commands' text output: counts with their nouns, and terms a newcomer would not know. */

/** "1 document", "3 documents". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** The snapshot id with what it is: it identifies the exact content of the index (it changes on every write). */
export function snapshotText(snapshot: string): string {
  return `snapshot ${snapshot} (index id @ table versions: changes on every write)`;
}

/** What the store did about vector search at the end of an ingest. */
export function vectorIndexText(what: string): string {
  switch (what) {
    case 'exact':
      return 'vector search: exact (small index; an ANN index pays off from 50k passages)';
    case 'built':
      return 'vector search: HNSW index built';
    case 'refreshed':
      return 'vector search: HNSW index refreshed with the new passages';
    default:
      return `vector search: ${what}`;
  }
}
