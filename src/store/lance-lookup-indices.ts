/**
 * Scalar (B-tree) indices on the columns the store looks rows up by. Without them every lookup by id,
 * title key, URL or document id scans the whole column: at 80k passages getPassages took 8 ms, and the
 * cost grows with the table (at FEVER's 7M passages it would be ~0.7 s a call, and the verifier makes
 * several a claim). Upsert's merge inserts (a re-index or resume) match rows on `id` through the same
 * index. Rows added after a build are scanned until the next build, which the ingest runs at its end with
 * the BM25 index.
 */
import * as lancedb from '@lancedb/lancedb';

export const PASSAGE_LOOKUP_COLUMNS = ['id', 'doc_id'] as const;
export const DOCUMENT_LOOKUP_COLUMNS = ['id', 'title_key', 'norm_url'] as const;

export async function buildLookupIndices(passages: lancedb.Table | undefined, documents: lancedb.Table | undefined): Promise<void> {
  for (const [table, columns] of [
    [passages, PASSAGE_LOOKUP_COLUMNS],
    [documents, DOCUMENT_LOOKUP_COLUMNS],
  ] as const) {
    if (!table) continue;
    for (const column of columns) await table.createIndex(column, { config: lancedb.Index.btree(), replace: true });
  }
}

/**
 * IVF partitions for the HNSW-SQ index: one HNSW graph per partition, each of at most ~1M vectors, so the
 * build never holds one graph over the whole table (5M 512-d vectors -> 5 graphs). The default nprobes (20)
 * still visits every partition up to 20.
 */
export function hnswPartitions(vectors: number): number {
  return Math.max(1, Math.ceil(vectors / 1_000_000));
}
