/**
 * The embedded store: LanceDB tables in a directory (no server). Passages carry a BM25 full-text index
 * over title + text (and, with dense retrieval, a vector column); documents carry their sentence lists so
 * evidence maps back to sentence ids. Every LanceDB write is an atomic commit of a new table version, which
 * is what makes an interrupted ingest safe: a kill leaves the last committed version, and the manifest's
 * checkpoint (written after the commit) tells the next run where to resume.
 */
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import type { Document, Passage } from '../corpus/types.js';
import { documentsToArrow, passageSchema, passagesToArrow } from './arrow-batch.js';
import { IdHashSet } from './id-hash-set.js';
import { buildLookupIndices, hnswPartitions } from './lance-lookup-indices.js';
import { lancePassagesWithoutVectors, lanceSetPassageVectors, vectorColumnField } from './lance-vectors.js';
import { loadManifest, newManifest, saveManifest, type Manifest } from './manifest.js';
import type { VectorBackfillStore } from './dense-backfill.js';
import type { DocumentWithPassages, IngestCheckpoint, PassageHit, StoreStats } from './types.js';
import { normalizeUrl } from './url.js';

const PASSAGES = 'passages';
const DOCUMENTS = 'documents';
const TEXT_COLUMN = 'search_text';
const PASSAGE_COLUMNS = ['id', 'doc_id', 'title', 'idx', 'sent_start', 'sent_end', 'text'];
// Asking for _score explicitly keeps LanceDB's future-behaviour warning quiet and the score in the rows.
const SCORED_COLUMNS = [...PASSAGE_COLUMNS, '_score'];

const lanceVersion: string = (() => {
  try {
    // The package's exports map hides package.json; find it beside the resolved entry point.
    const entry = createRequire(import.meta.url).resolve('@lancedb/lancedb');
    const pkg = join(entry.slice(0, entry.lastIndexOf(`${sep}dist${sep}`)), 'package.json');
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
})();

/** Tokenisation for BM25: English stemming and stop words, like the Lucene analyzer BEIR's baseline used. */
export const FTS_SETTINGS = {
  baseTokenizer: 'simple',
  language: 'English',
  lowercase: true,
  stem: true,
  removeStopWords: true,
  asciiFolding: true,
  withPosition: false,
} as const;

/** HNSW search breadth: recall@100 0.966 at 500k (bench-dense); higher buys little. */
export const DEFAULT_EF = 200;

/** Below this many vectors, exact search beats an ANN index. */
export const ANN_MIN_ROWS = 50_000;

export interface VectorSearchOptions {
  nprobes?: number;
  refineFactor?: number;
  ef?: number;
  /** Ignore the ANN index (ground truth for recall measurements). */
  exact?: boolean;
}

export interface LanceStoreOptions {
  /** Create the directory and an empty store when missing (default true). */
  create?: boolean;
  /**
   * A reader beside a writer in another process: never creates or writes anything (writes throw), and
   * sees the writer's new table versions within `refreshSeconds` (LanceDB's read consistency interval:
   * reads check for a newer version at most that often). Settings are reloaded when the snapshot changes.
   */
  readOnly?: boolean;
  /** Read-only mode: how stale a read may be, in seconds (default 1). */
  refreshSeconds?: number;
}

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function inList(ids: string[]): string {
  return ids.map(sqlString).join(',');
}

export function rowToPassage(r: Record<string, unknown>): Passage {
  return {
    id: r.id as string,
    docId: r.doc_id as string,
    title: r.title as string,
    index: r.idx as number,
    sentenceStart: r.sent_start as number,
    sentenceEnd: r.sent_end as number,
    text: r.text as string,
  };
}

/**
 * Passage hits read column by column from an Arrow result: LanceDB's toArray() builds a row proxy per
 * hit, which costs as much as the full-text query itself at top-100.
 */
export function hitsFromArrow(table: ArrowTable, scoreColumn: string, toScore: (v: number) => number): PassageHit[] {
  const n = table.numRows;
  const col = (name: string) => table.getChild(name)!;
  const [id, docId, title, idx, start, end, text, score] = ['id', 'doc_id', 'title', 'idx', 'sent_start', 'sent_end', 'text', scoreColumn].map(col);
  const hits: PassageHit[] = new Array(n);
  for (let i = 0; i < n; i++) {
    hits[i] = {
      passage: {
        id: id!.get(i) as string,
        docId: docId!.get(i) as string,
        title: title!.get(i) as string,
        index: idx!.get(i) as number,
        sentenceStart: start!.get(i) as number,
        sentenceEnd: end!.get(i) as number,
        text: text!.get(i) as string,
      },
      score: toScore(score!.get(i) as number),
    };
  }
  return hits;
}

function listToArray(v: unknown): string[] {
  if (!v) return [];
  if (Array.isArray(v)) return v as string[];
  const maybe = v as { toArray?: () => unknown[] };
  return maybe.toArray ? (maybe.toArray() as string[]) : [...(v as Iterable<string>)];
}

export class LanceStore implements VectorBackfillStore {
  readonly engine = `lancedb@${lanceVersion}`;
  /** Ids written in this session (as 64-bit hashes: flat memory at FEVER size); skips deletes on a first, append-only ingest. */
  private readonly written = new IdHashSet();
  private startedNonEmpty = false;
  /** Cached snapshot id, refreshed after every write this process makes (queries don't pay for it). */
  private snapshotId: string | undefined;
  private dimension: number | undefined;
  private readOnly = false;

  private constructor(
    readonly dir: string,
    private readonly db: lancedb.Connection,
    private manifest: Manifest,
    private passages: lancedb.Table | undefined,
    private documents: lancedb.Table | undefined,
  ) {}

  static async open(dir: string, opts: LanceStoreOptions = {}): Promise<LanceStore> {
    let manifest = await loadManifest(dir);
    if (!manifest) {
      if (opts.create === false || opts.readOnly) throw new Error(`${dir}: no veracite index here (create one with "veracite index <paths> --index ${dir}")`);
      await mkdir(dir, { recursive: true });
      manifest = newManifest({ fts: FTS_SETTINGS });
      await saveManifest(dir, manifest);
    }
    const db = await lancedb.connect(dir, opts.readOnly ? { readConsistencyInterval: opts.refreshSeconds ?? 1 } : {});
    const names = new Set(await db.tableNames());
    if (opts.readOnly && !names.has(PASSAGES)) throw new Error(`${dir}: the index has no passages yet; start readers once the writer has committed its first batch`);
    const passages = names.has(PASSAGES) ? await db.openTable(PASSAGES) : undefined;
    const documents = names.has(DOCUMENTS) ? await db.openTable(DOCUMENTS) : undefined;
    const store = new LanceStore(dir, db, manifest, passages, documents);
    store.readOnly = opts.readOnly === true;
    store.startedNonEmpty = (documents ? await documents.countRows() : 0) > 0 || (passages ? await passages.countRows() : 0) > 0;
    return store;
  }

  get storeId(): string {
    return this.manifest.storeId;
  }

  /** The vector dimension of the passages table, or undefined when it has no vector column. */
  async vectorDimension(): Promise<number | undefined> {
    if (!this.passages) return undefined;
    // Cached once known: every dense query asks, and a schema round-trip per query is measurable.
    if (this.dimension !== undefined) return this.dimension;
    const schema = await this.passages.schema();
    const f = schema.fields.find((x) => x.name === 'vector');
    this.dimension = f ? (f.type as { listSize: number }).listSize : undefined;
    return this.dimension;
  }

  /** Writes are refused in read-only mode: the writer process owns the index. */
  private assertWritable(what: string): void {
    if (this.readOnly) throw new Error(`${this.dir}: opened read-only, cannot ${what}; the writer process does that (open without readOnly)`);
  }

  async upsert(batch: DocumentWithPassages[]): Promise<void> {
    this.assertWritable('write documents');
    if (batch.length === 0) return;
    // Last occurrence of an id within a batch wins, as it would across batches.
    const byId = new Map<string, DocumentWithPassages>();
    for (const item of batch) byId.set(item.doc.id, item);
    const items = [...byId.values()];
    const ids = items.map((i) => i.doc.id);
    const needsDelete = this.startedNonEmpty || ids.some((id) => this.written.has(id)) || byId.size !== batch.length;
    const passages = items.flatMap((i) => i.passages);
    const withVectors = items.some((i) => i.vectors);
    const vectors = withVectors ? items.flatMap((i) => i.vectors ?? i.passages.map(() => undefined)) : undefined;
    if (needsDelete) await this.deleteIds(ids);
    const first = vectors?.find((v) => v);
    if (first) await this.ensureVectorColumn(first.length);
    const dim = (await this.vectorDimension()) ?? first?.length;
    const pTable = passagesToArrow(passages, passageSchema(dim), vectors);
    // Passages first, documents second: a document row exists only once its passages are committed.
    if (!this.passages) this.passages = await this.db.createTable(PASSAGES, pTable, { mode: 'create', existOk: false });
    else await this.passages.add(pTable);
    const dTable = documentsToArrow(items.map((i) => i.doc), normalizeUrl);
    if (!this.documents) this.documents = await this.db.createTable(DOCUMENTS, dTable, { mode: 'create', existOk: false });
    else await this.documents.add(dTable);
    for (const id of ids) this.written.add(id);
    this.snapshotId = undefined;
  }

  private async deleteIds(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = inList(ids.slice(i, i + 500));
      if (this.passages) await this.passages.delete(`doc_id IN (${chunk})`);
      if (this.documents) await this.documents.delete(`id IN (${chunk})`);
    }
  }

  /** Adds an (empty) vector column to a store created without one, so dense vectors can be written. */
  async ensureVectorColumn(dimension: number): Promise<void> {
    const current = await this.vectorDimension();
    if (current === dimension) return;
    this.assertWritable('add a vector column');
    if (current !== undefined) throw new Error(`${this.dir}: the index holds ${current}-d vectors; a ${dimension}-d embedder cannot share it (use another --index)`);
    if (!this.passages) return;
    await this.passages.addColumns(vectorColumnField(dimension));
    this.snapshotId = undefined;
    this.dimension = dimension;
  }

  /** Passages with a vector, and passages covered by the vector index (for progress and ANN decisions). */
  async vectorCounts(): Promise<{ withVector: number; total: number }> {
    if (!this.passages || !(await this.vectorDimension())) return { withVector: 0, total: this.passages ? await this.passages.countRows() : 0 };
    return { withVector: await this.passages.countRows('vector IS NOT NULL'), total: await this.passages.countRows() };
  }

  /**
   * Nearest passages by cosine similarity (vectors are L2-normalised). Exact search until an ANN index
   * exists; with one, rows written after the index was built are still searched exactly (LanceDB scans
   * unindexed fragments), so new documents are found before the index is refreshed.
   */
  async searchVector(vector: Float32Array, k: number, opts: VectorSearchOptions = {}): Promise<PassageHit[]> {
    const t = await this.vectorQuery(vector, k, opts, [...PASSAGE_COLUMNS, '_distance']);
    return t ? hitsFromArrow(t, '_distance', (d) => 1 - d) : [];
  }

  /** One cosine ANN query (or exact with `opts.exact`) returning `columns`; undefined without vectors. */
  private async vectorQuery(vector: Float32Array, k: number, opts: VectorSearchOptions, columns: string[]): Promise<ArrowTable | undefined> {
    if (!this.passages || !(await this.vectorDimension())) return undefined;
    let q = this.passages.vectorSearch(vector).column('vector').distanceType('cosine').select(columns).limit(k);
    if (opts.nprobes) q = q.nprobes(opts.nprobes);
    if (opts.refineFactor) q = q.refineFactor(opts.refineFactor);
    q = q.ef(opts.ef ?? DEFAULT_EF);
    if (opts.exact) q = q.bypassVectorIndex();
    return q.toArrow();
  }

  /**
   * Nearest passage ids and scores only: the ANN search without fetching passage text, which costs as much
   * as the search itself at top-100. For callers that only rank (fusion inputs, benchmarks).
   */
  async searchVectorIds(vector: Float32Array, k: number, opts: VectorSearchOptions = {}): Promise<{ id: string; docId: string; score: number }[]> {
    const t = await this.vectorQuery(vector, k, opts, ['id', 'doc_id', '_distance']);
    if (!t) return [];
    const id = t.getChild('id')!;
    const doc = t.getChild('doc_id')!;
    const dist = t.getChild('_distance')!;
    return Array.from({ length: t.numRows }, (_, i) => ({ id: id.get(i) as string, docId: doc.get(i) as string, score: 1 - (dist.get(i) as number) }));
  }

  async hasVectorIndex(): Promise<boolean> {
    if (!this.passages) return false;
    return (await this.passages.listIndices()).some((i) => i.columns.includes('vector'));
  }

  /**
   * Build (or refresh) the ANN index when the table is large enough for one to pay off; below that,
   * exact search is both faster and perfectly accurate. Returns what was done.
   */
  async buildVectorIndex(opts: { minRows?: number; force?: boolean } = {}): Promise<'built' | 'refreshed' | 'exact'> {
    this.assertWritable('build the vector index');
    const { withVector } = await this.vectorCounts();
    if (!this.passages || withVector === 0) return 'exact';
    if (!opts.force && withVector < (opts.minRows ?? ANN_MIN_ROWS)) return 'exact';
    if ((await this.hasVectorIndex()) && !opts.force) {
      // Incremental: fold new rows into the existing index instead of retraining it.
      await this.passages.optimize();
      this.snapshotId = undefined;
      return 'refreshed';
    }
    // HNSW over 8-bit scalar-quantised vectors: on 555k clustered 512-d vectors it gave recall@100 0.966
    // at ~5 ms/query (ef 200), where IVF-PQ (64 sub-vectors) reached 0.39 without refinement and needed
    // a 10x refine (33 q/s) to be exact. See bench/bench-dense.ts.
    await this.passages.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'cosine', numPartitions: hnswPartitions(withVector) }), replace: true });
    this.snapshotId = undefined;
    return 'built';
  }

  async buildTextIndex(): Promise<void> {
    this.assertWritable('build the text index');
    if (!this.passages) return;
    await this.passages.createIndex(TEXT_COLUMN, { config: lancedb.Index.fts(FTS_SETTINGS), replace: true });
    // Lookups by id / title / URL stay index lookups as the table grows (see lance-lookup-indices.ts).
    await buildLookupIndices(this.passages, this.documents);
    this.snapshotId = undefined;
  }

  /** Raw table handle, for benchmarks that compare our layer against LanceDB itself. */
  get passagesTable(): lancedb.Table | undefined {
    return this.passages;
  }

  async hasTextIndex(): Promise<boolean> {
    if (!this.passages) return false;
    const indices = await this.passages.listIndices();
    return indices.some((i) => i.columns.includes(TEXT_COLUMN));
  }

  async searchText(query: string, k: number): Promise<PassageHit[]> {
    if (!this.passages || !query.trim()) return [];
    const table = await this.passages
      .query()
      .fullTextSearch(query, { columns: TEXT_COLUMN })
      .select(SCORED_COLUMNS)
      .limit(k)
      .toArrow();
    return hitsFromArrow(table, '_score', (v) => v);
  }

  async getDocuments(ids: string[]): Promise<Document[]> {
    if (!this.documents || ids.length === 0) return [];
    const out = new Map<string, Document>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.documents.query().where(`id IN (${inList(ids.slice(i, i + 500))})`).toArray();
      for (const r of rows) {
        const doc: Document = { id: r.id, title: r.title, sentences: listToArray(r.sentences) };
        if (r.url) doc.url = r.url;
        const links = listToArray(r.links);
        if (links.length) doc.links = links;
        out.set(doc.id, doc);
      }
    }
    return ids.map((id) => out.get(id)).filter((d): d is Document => !!d);
  }

  /** Documents whose normalised base title is one of `keys` (see title-key.ts), with their titles. */
  async findTitles(keys: string[]): Promise<{ id: string; title: string; key: string }[]> {
    if (!this.documents || keys.length === 0) return [];
    const rows = await this.documents.query().where(`title_key IN (${inList([...new Set(keys)])})`).select(['id', 'title', 'title_key']).toArray();
    return rows.map((r: Record<string, string>) => ({ id: r.id!, title: r.title!, key: r.title_key! }));
  }

  async findDocumentsByUrl(url: string): Promise<Document[]> {
    if (!this.documents) return [];
    const rows = await this.documents.query().where(`norm_url = ${sqlString(normalizeUrl(url))}`).select(['id']).toArray();
    return this.getDocuments(rows.map((r: { id: string }) => r.id));
  }

  async getPassages(docId: string): Promise<Passage[]> {
    if (!this.passages) return [];
    const rows = await this.passages.query().where(`doc_id = ${sqlString(docId)}`).select(PASSAGE_COLUMNS).toArray();
    return rows.map(rowToPassage).sort((a: Passage, b: Passage) => a.index - b.index);
  }

  async *passageTexts(): AsyncIterable<string[]> {
    if (!this.passages) return;
    // Streamed record batches: a 500k-passage index never sits in memory as one array.
    for await (const batch of this.passages.query().select(['text'])) {
      const col = batch.getChild('text');
      if (!col) continue;
      const out = new Array<string>(batch.numRows);
      for (let i = 0; i < batch.numRows; i++) out[i] = (col.get(i) as string | null) ?? '';
      yield out;
    }
  }

  async passageVectors(ids: string[]): Promise<Map<string, { text: string; vector: Float32Array }>> {
    const out = new Map<string, { text: string; vector: Float32Array }>();
    if (!this.passages || ids.length === 0 || (await this.vectorDimension()) === undefined) return out;
    for (let i = 0; i < ids.length; i += 500) {
      const t = await this.passages.query().where(`id IN (${inList(ids.slice(i, i + 500))}) AND vector IS NOT NULL`).select(['id', 'text', 'vector']).toArrow();
      const id = t.getChild('id');
      const text = t.getChild('text');
      const vec = t.getChild('vector');
      for (let r = 0; r < t.numRows; r++) {
        const v = vec?.get(r) as { toArray(): Float32Array } | null;
        if (!v) continue;
        out.set(id!.get(r) as string, { text: text!.get(r) as string, vector: Float32Array.from(v.toArray()) });
      }
    }
    return out;
  }

  async stats(): Promise<StoreStats> {
    const documents = this.documents ? await this.documents.countRows() : 0;
    const passages = this.passages ? await this.passages.countRows() : 0;
    let sentences = 0;
    if (this.passages && passages > 0) {
      // Every sentence lies in exactly one passage (chunkPassages), so the sum of passage ranges counts
      // them reading two int columns; summing list lengths read every sentence's text (2.6 s at 2.7M
      // passages, and the health route calls this).
      for await (const batch of this.passages.query().select(['sent_start', 'sent_end'])) {
        const start = batch.getChild('sent_start')!;
        const end = batch.getChild('sent_end')!;
        for (let i = 0; i < batch.numRows; i++) sentences += (end.get(i) as number) - (start.get(i) as number);
      }
    }
    return { documents, passages, sentences, textIndexed: await this.hasTextIndex() };
  }

  async snapshot(): Promise<string> {
    if (!this.snapshotId || this.readOnly) {
      const p = this.passages ? await this.passages.version() : 0;
      const d = this.documents ? await this.documents.version() : 0;
      const id = `${this.manifest.storeId}@p${p}.d${d}`;
      // A reader whose writer committed: the settings (e.g. the embedder) and vector column may be new.
      if (this.readOnly && this.snapshotId && id !== this.snapshotId) {
        this.manifest = (await loadManifest(this.dir)) ?? this.manifest;
        this.dimension = undefined;
      }
      this.snapshotId = id;
    }
    return this.snapshotId;
  }

  async getCheckpoint(source: string): Promise<IngestCheckpoint | undefined> {
    return this.manifest.checkpoints[source];
  }

  async setCheckpoint(cp: IngestCheckpoint): Promise<void> {
    this.assertWritable('write an ingest checkpoint');
    this.manifest.checkpoints[cp.source] = cp;
    await saveManifest(this.dir, this.manifest);
  }

  async clearCheckpoint(source: string): Promise<void> {
    this.assertWritable('clear an ingest checkpoint');
    delete this.manifest.checkpoints[source];
    await saveManifest(this.dir, this.manifest);
  }

  get settings(): Record<string, unknown> {
    return this.manifest.settings;
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    this.assertWritable('change settings');
    this.manifest.settings[key] = value;
    await saveManifest(this.dir, this.manifest);
  }

  async *passagesWithoutVectors(batchSize: number): AsyncIterable<Passage[]> {
    if (!this.passages || (await this.vectorDimension()) === undefined) return;
    yield* lancePassagesWithoutVectors(this.passages, batchSize);
  }

  async setPassageVectors(items: { passage: Passage; vector: Float32Array }[]): Promise<void> {
    this.assertWritable('write vectors');
    const dim = await this.vectorDimension();
    if (!this.passages || dim === undefined) throw new Error(`${this.dir}: no vector column; call ensureVectorColumn first`);
    await lanceSetPassageVectors(this.passages, dim, items);
    this.snapshotId = undefined;
  }

  async close(): Promise<void> {
    this.passages?.close();
    this.documents?.close();
    this.db.close();
  }
}
