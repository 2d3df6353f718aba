/**
 * Embedding cache: vectors keyed by (model id + version, text hash), kept in a LanceDB table of the
 * index directory, one table per model. Re-indexing a corpus (or re-ingesting after a crash) never
 * re-embeds text it has embedded before with the same model.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Schema, Table, Utf8 } from 'apache-arrow';
import { fixedSizeVectors, utf8Vector } from './arrow-batch.js';
import { openCommittedTable } from './lance-tables.js';
import type { Embedder, ModelInfo } from '../models/types.js';

export function textKey(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function tableName(info: ModelInfo): string {
  return `embcache_${createHash('sha1').update(`${info.id}@${info.version}`).digest('hex').slice(0, 16)}`;
}

/**
 * Lookups are `key IN (...)` per batch; without an index each one scans every cached key, which made a
 * cache of millions of vectors cost O(n) a batch (O(n^2) an ingest). A B-tree on `key` is (re)built once
 * the rows added since the last build reach a quarter of the indexed ones (at least 100k): lookups touch
 * the index plus a bounded unindexed tail, and rebuilds cost O(n log n) in total.
 */
const MIN_REINDEX_ROWS = 100_000;
const KEY_INDEX = 'key_idx';

export class EmbeddingCache {
  hits = 0;
  misses = 0;
  private indexedRows = 0;
  private unindexedRows = 0;
  private constructor(
    private readonly dir: string,
    private db: lancedb.Connection | undefined,
    private readonly name: string,
    private readonly dimension: number,
    private table: lancedb.Table | undefined,
  ) {}

  /**
   * Opens the cache in `dir` without creating anything (the directory appears at the first stored
   * vector). A cache table whose first commit never finished (kill -9) is treated as empty.
   */
  static async open(dir: string, embedder: Embedder): Promise<EmbeddingCache> {
    const name = tableName(embedder.info);
    const db = existsSync(dir) ? await lancedb.connect(dir) : undefined;
    const table = db ? await openCommittedTable(db, dir, name, await db.tableNames()) : undefined;
    const cache = new EmbeddingCache(dir, db, name, embedder.dimension, table);
    if (table) {
      const stats = await table.indexStats(KEY_INDEX);
      cache.indexedRows = stats?.numIndexedRows ?? 0;
      cache.unindexedRows = (await table.countRows()) - cache.indexedRows;
    }
    return cache;
  }

  private async createTable(data: Table): Promise<lancedb.Table> {
    this.db ??= await lancedb.connect(this.dir);
    const names = await this.db.tableNames();
    const committed = await openCommittedTable(this.db, this.dir, this.name, names);
    if (committed) {
      await committed.add(data);
      return committed;
    }
    // A folder left by a kill inside a first createTable is written over (LanceDB commits version 1 over
    // it); it is not deleted, since the cache has no writer lock and another process may be creating it.
    try {
      return await this.db.createTable(this.name, data, { mode: 'create', existOk: false });
    } catch (e) {
      // Another process created it meanwhile (two audits sharing a cache directory): add to theirs.
      const t = await openCommittedTable(this.db, this.dir, this.name, await this.db.tableNames());
      if (!t) throw e;
      await t.add(data);
      return t;
    }
  }

  private async maybeIndex(added: number): Promise<void> {
    this.unindexedRows += added;
    if (!this.table || this.unindexedRows < Math.max(MIN_REINDEX_ROWS, this.indexedRows / 4)) return;
    await this.table.createIndex('key', { config: lancedb.Index.btree(), name: KEY_INDEX, replace: true });
    this.indexedRows += this.unindexedRows;
    this.unindexedRows = 0;
  }

  private async lookup(keys: string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    if (!this.table || keys.length === 0) return found;
    for (let i = 0; i < keys.length; i += 1000) {
      const list = keys.slice(i, i + 1000).map((k) => `'${k}'`).join(',');
      const t = await this.table.query().where(`key IN (${list})`).select(['key', 'vector']).toArrow();
      const kc = t.getChild('key')!;
      const vc = t.getChild('vector')!;
      for (let r = 0; r < t.numRows; r++) {
        const v = vc.get(r) as { toArray(): Float32Array } | null;
        if (v) found.set(kc.get(r) as string, Float32Array.from(v.toArray()));
      }
    }
    return found;
  }

  private async store(keys: string[], vectors: Float32Array[]): Promise<void> {
    if (keys.length === 0) return;
    const type = new FixedSizeList(this.dimension, new Field('item', new Float32(), true));
    const schema = new Schema([new Field('key', new Utf8(), false), new Field('vector', type, false)]);
    const data = new Table(schema, { key: utf8Vector(keys), vector: fixedSizeVectors(type, vectors.length, vectors) } as never);
    if (!this.table) this.table = await this.createTable(data);
    else await this.table.add(data);
    await this.maybeIndex(keys.length);
  }

  /** Vectors for `texts`, embedding only those not cached (duplicates within the call embedded once). */
  async embed(embedder: Embedder, texts: string[]): Promise<Float32Array[]> {
    const keys = texts.map(textKey);
    const cached = await this.lookup([...new Set(keys)]);
    const missingKeys: string[] = [];
    const missingTexts: string[] = [];
    const pending = new Set<string>();
    keys.forEach((k, i) => {
      if (!cached.has(k) && !pending.has(k)) {
        pending.add(k);
        missingKeys.push(k);
        missingTexts.push(texts[i]!);
      }
    });
    this.hits += texts.length - missingTexts.length;
    this.misses += missingTexts.length;
    if (missingTexts.length) {
      const vectors = await embedder.embed(missingTexts);
      missingKeys.forEach((k, i) => cached.set(k, vectors[i]!));
      await this.store(missingKeys, vectors);
    }
    return keys.map((k) => cached.get(k)!);
  }

  close(): void {
    this.table?.close();
    this.db?.close();
  }
}
