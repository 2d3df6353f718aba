/**
 * The embedded store: LanceDB tables in a directory (no server). Passages carry a BM25 full-text index
 * over title + text (and, with dense retrieval, a vector column); documents carry their sentence lists so
 * evidence maps back to sentence ids. Every LanceDB write is an atomic commit of a new table version, which
 * is what makes an interrupted ingest safe: a kill leaves the last committed version, and the manifest's
 * checkpoint (written after the commit) tells the next run where to resume.
 *
 * What an upsert guarantees (issue 27; tested in crash-recovery.test.ts, measured by bench/soak-ingest.ts):
 * - One commit per table per batch. A batch over ids that may already exist (a re-index, a resume, an id
 *   repeated) is a LanceDB merge insert keyed by `id` (replaceRows): passages of the batch replace or join
 *   their namesakes and the batch's documents' other passages (a document that now has fewer) are deleted,
 *   in the same commit; documents likewise. A first, append-only ingest adds. There is no state, on disk
 *   or seen by a reader, in which a batch's ids are deleted and not yet re-added.
 * - Per table, per document: a reader, or the index a kill leaves, has all of a document's rows at its old
 *   version or all at its new one; a document that was never removed from the source is never missing.
 * - Across the two tables (two commits: passages, then documents): between them, and after a kill between
 *   them, the batch in flight has its new passages under its old document rows (a new document: passages
 *   without a document row yet, so evidence lookups skip it). Only that batch, and only until the next
 *   run: its checkpoint is written after both commits, so a resumed run re-writes it, as does a
 *   --no-resume run (which re-writes everything).
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, rm, rmdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import type { Document, Passage } from '../corpus/types.js';
import { documentsToArrow, passageReader, passageSchema, passagesToArrow } from './arrow-batch.js';
import { IdHashSet } from './id-hash-set.js';
import { buildLookupIndices, hnswPartitions } from './lance-lookup-indices.js';
import { lanceSession } from './lance-index-cache.js';
import { inList, sqlString } from './lance-sql.js';
import { ALIASES, buildAliasIndices, deleteAliases, deleteRedirectsTo, listAliases, putAliases, redirectTargets } from './lance-title-aliases.js';
import { openCommittedTable, removeUncommittedTable } from './lance-tables.js';
import { lancePassagesWithoutVectors, lanceSetPassageVectors, vectorColumnField } from './lance-vectors.js';
import { loadManifest, MANIFEST_FILE, newManifest, saveManifest, type Manifest } from './manifest.js';
import type { VectorBackfillStore } from './dense-backfill.js';
import type { DocumentWithPassages, IngestCheckpoint, PassageHit, Store, StoreStats, TitleAlias, TitleAliasStore, UpsertResult } from './types.js';
import { normalizeUrl } from './url.js';
import { lockStatus, WRITER_LOCK_FILE, WriterLock, type AcquireOptions, type LockStatus } from './writer-lock.js';
import { MissingIndexError } from './missing-index.js';

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

/** Languages LanceDB's full-text analyzer stems and has stop words for, by Wikipedia language code. */
const STEMMED: Record<string, string> = {
  ar: 'Arabic', da: 'Danish', nl: 'Dutch', en: 'English', fi: 'Finnish', fr: 'French', de: 'German', el: 'Greek', hu: 'Hungarian',
  it: 'Italian', no: 'Norwegian', nb: 'Norwegian', pt: 'Portuguese', ro: 'Romanian', ru: 'Russian', es: 'Spanish', sv: 'Swedish', ta: 'Tamil', tr: 'Turkish',
};

/**
 * The analyzer for a language code: LanceDB's stemmer and stop words where it has them; elsewhere words
 * are only lower-cased and folded; scripts written without spaces (Chinese, Japanese, Thai) are cut into
 * character bigrams, since a word tokenizer would make each sentence one token.
 */
export function analyzerForLanguage(lang: string): Partial<lancedb.FtsOptions> {
  const code = lang.toLowerCase().split(/[-_]/)[0]!;
  const language = STEMMED[code];
  if (language) return { baseTokenizer: 'simple', language, stem: true, removeStopWords: true };
  if (['zh', 'ja', 'th', 'ko', 'yue', 'wuu'].includes(code)) return { baseTokenizer: 'ngram', language: 'English', stem: false, removeStopWords: false, ngramMinLength: 2, ngramMaxLength: 2 };
  return { baseTokenizer: 'simple', language: 'English', stem: false, removeStopWords: false };
}

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
  /**
   * true (default): a missing index is created, but only at the first write; opening alone creates
   * nothing. false (read commands): the index must exist and hold documents, else open throws a message
   * that says how to build one.
   */
  create?: boolean;
  /**
   * When to take the index's writer lock (writer-lock.ts): 'first-write' (default) or 'open', for
   * commands that will write (`index`), so a second writer is refused before it does any work.
   */
  lock?: 'first-write' | 'open';
  /**
   * Refuse every write; never takes the lock (servers, search, audit). A reader beside a writer in another
   * process sees the writer's new table versions within `refreshSeconds` (LanceDB's read consistency
   * interval: reads check for a newer version at most that often); settings are reloaded when the
   * snapshot changes.
   */
  readOnly?: boolean;
  /** Read-only mode: how stale a read may be, in seconds (default 1). */
  refreshSeconds?: number;
  /** Passed to the lock: the command line a refused writer is shown, and a hook for stale-lock notices. */
  lockOptions?: AcquireOptions;
  /**
   * Bytes of LanceDB's index cache for this handle. Default: sized for the index's own files when they
   * need more than LanceDB's 6 GB (lance-index-cache.ts); one too small for the vector index reloads its
   * partitions on every query.
   */
  indexCacheBytes?: number;
}

// Defined in missing-index.ts (light: the CLI tells it apart without loading LanceDB).
export { MissingIndexError };

/**
 * Why a read open refused an index with no documents, and what to run. The writer lock tells a running
 * ingest (wait) from one that was killed before its first commit (its lock is stale: run the ingest again,
 * which breaks the lock); a reader only reports the lock, never breaks it.
 */
export function emptyIndexMessage(dir: string, lock: LockStatus): string {
  const build = `"veracite index <corpus files> --index ${dir}"`;
  switch (lock.state) {
    case 'running':
      return `${dir}: the index holds no documents yet (an ingest is running: pid ${lock.holder.pid} since ${lock.holder.startedAt}); wait for it to commit its first batch and retry`;
    case 'stale': {
      const h = lock.holder;
      const was = h.command ? `; it ran: ${h.command}` : '';
      return `${dir}: the index holds no documents yet, and its writer lock is stale: pid ${h.pid} (since ${h.startedAt}) is no longer running, so that ingest was stopped before it committed any document${was}. Run the ingest again with ${build}; it removes the stale lock ${lock.path}`;
    }
    case 'other-host':
      return `${dir}: the index holds no documents yet (its writer lock names pid ${lock.holder.pid} on host ${lock.holder.host} since ${lock.holder.startedAt}, which cannot be checked from here); if that ingest is still running, wait for it; if it is gone, delete ${lock.path} and build the index with ${build}`;
    case 'unreadable':
      return `${dir}: the index holds no documents yet (its writer lock ${lock.path} cannot be read); if no veracite process is writing this index, delete that file and build it with ${build}`;
    default:
      return `${dir}: the index holds no documents yet; build it with ${build}`;
  }
}

/**
 * Replaces every row of a batch's ids in ONE commit (LanceDB merge insert keyed by `id`): rows of the
 * batch update their namesakes or are inserted, and rows matching `owned` (passages: the batch's
 * documents' rows) that the batch no longer has (a re-indexed document with fewer passages) are deleted,
 * all in the same new table version. Documents need no `owned`: every id of the batch is in the batch. A reader sees the table before or after, never the ids missing in between; a kill leaves one
 * or the other. `rows` undefined (a batch without passages): only the deletion, still one commit.
 */
async function replaceRows(table: lancedb.Table, rows: ArrowTable | undefined, owned?: string): Promise<{ updated: number }> {
  if (!rows) {
    if (owned) await table.delete(owned);
    return { updated: 0 };
  }
  let merge = table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll();
  if (owned) merge = merge.whenNotMatchedBySourceDelete({ where: owned });
  const r = await merge.execute(rows);
  return { updated: r.numUpdatedRows };
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
  const passage = passageReader(table);
  const score = table.getChild(scoreColumn)!;
  return Array.from({ length: table.numRows }, (_, i) => ({ passage: passage(i), score: toScore(score.get(i) as number) }));
}

function listToArray(v: unknown): string[] {
  if (!v) return [];
  if (Array.isArray(v)) return v as string[];
  const maybe = v as { toArray?: () => unknown[] };
  return maybe.toArray ? (maybe.toArray() as string[]) : [...(v as Iterable<string>)];
}

export class LanceStore implements VectorBackfillStore, TitleAliasStore {
  readonly engine = `lancedb@${lanceVersion}`;
  /** Ids written in this session (as 64-bit hashes: flat memory at FEVER size); skips deletes on a first, append-only ingest. */
  private readonly written = new IdHashSet();
  private startedNonEmpty = false;
  /** Cached snapshot id, refreshed after every write this process makes (queries don't pay for it). */
  private snapshotId: string | undefined;
  private dimension: number | undefined;
  /** Settles once this handle holds the writer lock and has re-read the index (see beginWrite). */
  private writer: Promise<WriterLock> | undefined;
  /** Whether this handle created the index directory (removed again at close if nothing was committed). */
  private createdDir = false;
  /** A wiki's redirects and disambiguation pages (lance-title-aliases.ts); absent until a dump records one. */
  private aliases: lancedb.Table | undefined;
  /** As for documents: a first ingest's aliases are appended, not merged (a merge scans the table). */
  private aliasesStartedNonEmpty = false;
  private readonly writtenAliases = new IdHashSet();

  private constructor(
    readonly dir: string,
    private db: lancedb.Connection | undefined,
    private manifest: Manifest,
    private passages: lancedb.Table | undefined,
    private documents: lancedb.Table | undefined,
    private readonly opts: LanceStoreOptions,
  ) {}

  /** The session sized by `indexCacheBytes` or for the index (LanceDB's default session when undefined). */
  private session: lancedb.Session | undefined;

  /** What this store's own index cache holds now (undefined on LanceDB's default session): for benchmarks. */
  indexCacheUse(): { bytes: number; items: number } | undefined {
    return this.session ? { bytes: Number(this.session.sizeBytes()), items: this.session.approxNumItems() } : undefined;
  }

  private get readOnly(): boolean {
    return this.opts.readOnly === true;
  }

  /**
   * Opens an index. Nothing is created on disk until the first write (a failed `index` leaves no empty
   * folder behind); read opens (`create: false`) refuse a missing or empty index. Tables whose first
   * commit never finished (kill -9 inside createTable) are treated as absent, and recreated by the writer.
   */
  static async open(dir: string, opts: LanceStoreOptions = {}): Promise<LanceStore> {
    const manifest = await loadManifest(dir);
    if (!manifest && (opts.create === false || opts.readOnly)) {
      throw new MissingIndexError(dir, `${dir}: no veracite index here; build one with "veracite index <corpus files> --index ${dir}", or run "veracite demo" to build the demo index (.veracite/demo, from the shipped samples)`);
    }
    // lancedb.connect creates the directory, so a missing one is only connected to at the first write.
    const session = lanceSession(dir, opts.indexCacheBytes);
    // The session goes inside the options: lancedb 0.37.1's connect() ignores its third (session) argument.
    const db = existsSync(dir) ? await lancedb.connect(dir, { ...(opts.readOnly ? { readConsistencyInterval: opts.refreshSeconds ?? 1 } : {}), ...(session ? { session } : {}) }) : undefined;
    const names = db ? await db.tableNames() : [];
    const passages = db ? await openCommittedTable(db, dir, PASSAGES, names) : undefined;
    const documents = db ? await openCommittedTable(db, dir, DOCUMENTS, names) : undefined;
    const store = new LanceStore(dir, db, manifest ?? newManifest({ fts: FTS_SETTINGS }), passages, documents, opts);
    store.session = session;
    store.aliases = db ? await openCommittedTable(db, dir, ALIASES, names) : undefined;
    const nDocs = documents ? await documents.countRows() : 0;
    if (nDocs === 0 && (opts.create === false || opts.readOnly)) {
      const message = emptyIndexMessage(dir, await lockStatus(dir));
      await store.close();
      throw new MissingIndexError(dir, message);
    }
    store.startedNonEmpty = nDocs > 0 || (passages ? await passages.countRows() : 0) > 0;
    if (opts.lock === 'open' && !opts.readOnly) await store.beginWrite();
    return store;
  }

  /**
   * Becomes the index's writer: takes the writer lock (throws WriterLockError naming the holder when
   * another process writes), creates the directory and manifest if missing, removes tables whose first
   * commit never finished, and re-reads everything another writer may have changed since open.
   */
  private beginWrite(): Promise<WriterLock> {
    if (this.opts.readOnly) return Promise.reject(new Error(`${this.dir}: opened read-only; writing needs an index opened for writing`));
    this.writer ??= this.takeWriterRole().catch((e: unknown) => {
      this.writer = undefined; // a refused writer may retry later
      throw e;
    });
    return this.writer;
  }

  private async takeWriterRole(): Promise<WriterLock> {
    if (!existsSync(this.dir)) this.createdDir = true;
    const lock = await WriterLock.acquire(this.dir, this.opts.lockOptions);
    try {
      const onDisk = await loadManifest(this.dir);
      if (onDisk) this.manifest = onDisk;
      else await saveManifest(this.dir, this.manifest);
      for (const name of [PASSAGES, DOCUMENTS, ALIASES]) await removeUncommittedTable(this.dir, name);
      this.db ??= await lancedb.connect(this.dir, this.session ? { session: this.session } : {});
      // Fresh handles at the latest committed versions: another writer may have written since open.
      this.passages?.close();
      this.documents?.close();
      const names = await this.db.tableNames();
      this.passages = await openCommittedTable(this.db, this.dir, PASSAGES, names);
      this.documents = await openCommittedTable(this.db, this.dir, DOCUMENTS, names);
      this.aliases?.close();
      this.aliases = await openCommittedTable(this.db, this.dir, ALIASES, names);
      this.aliasesStartedNonEmpty = (this.aliases ? await this.aliases.countRows() : 0) > 0;
      this.startedNonEmpty = (this.documents ? await this.documents.countRows() : 0) > 0 || (this.passages ? await this.passages.countRows() : 0) > 0;
      this.dimension = undefined;
      this.snapshotId = undefined;
      return lock;
    } catch (e) {
      await lock.release();
      throw e;
    }
  }

  /** Takes the writer lock now (what `lock: 'open'` does at open); throws WriterLockError when held. */
  async lockForWriting(): Promise<void> {
    await this.beginWrite();
  }

  /** Before each commit: still the writer (the lock file was not removed or taken over by hand). */
  private async writeGuard(): Promise<void> {
    await (await this.beginWrite()).assertHeld();
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

  /**
   * Writes a batch (see Store.upsert). Returns how many documents were new and how many replaced an id
   * already in the index or repeated within the batch, so an ingest summary counts honestly.
   */
  async upsert(batch: DocumentWithPassages[]): Promise<UpsertResult> {
    if (batch.length === 0) return { inserted: 0, replaced: 0 };
    this.assertWritable('write documents');
    await this.writeGuard();
    // Last occurrence of an id within a batch wins, as it would across batches.
    const byId = new Map<string, DocumentWithPassages>();
    for (const item of batch) byId.set(item.doc.id, item);
    const items = [...byId.values()];
    const ids = items.map((i) => i.doc.id);
    const needsDelete = this.startedNonEmpty || ids.some((id) => this.written.has(id)) || byId.size !== batch.length;
    const passages = items.flatMap((i) => i.passages);
    const withVectors = items.some((i) => i.vectors);
    const vectors = withVectors ? items.flatMap((i) => i.vectors ?? i.passages.map(() => undefined)) : undefined;
    const first = vectors?.find((v) => v);
    if (first) await this.ensureVectorColumn(first.length);
    const dim = (await this.vectorDimension()) ?? first?.length;
    const pTable = passages.length ? passagesToArrow(passages, passageSchema(dim), vectors) : undefined;
    const dTable = documentsToArrow(items.map((i) => i.doc), normalizeUrl);
    // Passages first, documents second: a new document's row exists only once its passages are committed.
    // Each table changes in one commit (see replaceRows), so no reader or kill ever sees a batch's ids
    // deleted but not yet re-added.
    let existing = 0;
    if (!this.passages) {
      if (pTable) this.passages = await this.db!.createTable(PASSAGES, pTable, { mode: 'create', existOk: false });
    } else if (needsDelete) await replaceRows(this.passages, pTable, `doc_id IN (${inList(ids)})`);
    else if (pTable) await this.passages.add(pTable);
    if (!this.documents) this.documents = await this.db!.createTable(DOCUMENTS, dTable, { mode: 'create', existOk: false });
    else if (needsDelete) existing = (await replaceRows(this.documents, dTable)).updated;
    else await this.documents.add(dTable);
    for (const id of ids) this.written.add(id);
    this.snapshotId = undefined;
    const replaced = batch.length - byId.size + existing;
    return { inserted: batch.length - replaced, replaced };
  }

  /** Adds an (empty) vector column to a store created without one, so dense vectors can be written. */
  async ensureVectorColumn(dimension: number): Promise<void> {
    const current = await this.vectorDimension();
    if (current === dimension) return;
    this.assertWritable('add a vector column');
    if (current !== undefined) throw new Error(`${this.dir}: the index holds ${current}-d vectors; a ${dimension}-d embedder cannot share it (use another --index)`);
    if (!this.passages) return;
    await this.writeGuard();
    await this.passages.addColumns(vectorColumnField(dimension));
    this.snapshotId = undefined;
    this.dimension = dimension;
  }

  /** Drops the vector column and its index in one commit (re-embedding with another model: store/dense-backfill.ts). */
  async dropVectors(): Promise<void> {
    this.assertWritable('drop the vectors');
    if (!this.passages || (await this.vectorDimension()) === undefined) return;
    await this.writeGuard();
    for (const i of await this.passages.listIndices()) if (i.columns.includes('vector')) await this.passages.dropIndex(i.name);
    await this.passages.dropColumns(['vector']);
    this.snapshotId = undefined;
    this.dimension = undefined;
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
    if (!this.passages) return 'exact';
    await this.writeGuard();
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
    // Nothing to index in a store with no passages; a writer that has not written yet may still find the
    // passages another process committed, so it becomes the writer (re-reading the index) first.
    if (!this.passages && !existsSync(this.dir)) return;
    await this.writeGuard();
    if (!this.passages) return;
    await this.passages.createIndex(TEXT_COLUMN, { config: lancedb.Index.fts(this.textAnalyzer()), replace: true });
    // Lookups by id / title / URL stay index lookups as the table grows (see lance-lookup-indices.ts).
    await buildLookupIndices(this.passages, this.documents);
    if (this.aliases) await buildAliasIndices(this.aliases);
    this.snapshotId = undefined;
  }

  /**
   * The full-text analyzer: FTS_SETTINGS with the language recorded by `setTextLanguage` (an index of
   * another Wikipedia edition stems and drops stop words in its own language). LanceDB stores the analyzer
   * with the index and tokenizes queries with it.
   */
  private textAnalyzer(): lancedb.FtsOptions {
    const recorded = this.manifest.settings['textAnalyzer'] as Partial<lancedb.FtsOptions> | undefined;
    return { ...FTS_SETTINGS, ...(recorded ?? {}) };
  }

  /**
   * Records the language of the text (a Wikipedia language code: `en`, `de`, `fr`) for the full-text
   * analyzer. Refused when the index already holds documents analysed in another language: one index, one
   * analyzer (index each edition into its own index).
   */
  async setTextLanguage(lang: string): Promise<void> {
    const analyzer = analyzerForLanguage(lang);
    const current = this.textAnalyzer();
    const same = current.language === analyzer.language && current.stem === analyzer.stem && current.baseTokenizer === analyzer.baseTokenizer;
    if (same) return;
    if ((this.documents ? await this.documents.countRows() : 0) > 0) {
      throw new Error(`${this.dir}: this index's text is analysed as ${current.language ?? 'English'}${current.stem ? '' : ' (no stemming)'}; --lang ${lang} needs its own index (another --index)`);
    }
    await this.setSetting('textAnalyzer', analyzer);
  }

  /**
   * Removes documents with their passages (deleted or redirected pages of an update). Passages first, as
   * upsert writes them second-to-first: a kill between the two leaves a document row without passages,
   * which the next run's delete removes. Returns how many documents were there.
   */
  async deleteDocuments(ids: string[]): Promise<number> {
    this.assertWritable('delete documents');
    if (ids.length === 0 || !this.documents) return 0;
    await this.writeGuard();
    let deleted = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const list = inList([...new Set(ids.slice(i, i + 500))]);
      const present = await this.documents.countRows(`id IN (${list})`);
      if (present === 0) continue;
      if (this.passages) await this.passages.delete(`doc_id IN (${list})`);
      await this.documents.delete(`id IN (${list})`);
      deleted += present;
    }
    if (deleted) this.snapshotId = undefined;
    return deleted;
  }

  /** Every document's id and URL, in batches (an update finds the pages a complete dump no longer holds). */
  async *documentKeys(): AsyncIterable<{ id: string; url?: string }[]> {
    if (!this.documents) return;
    for await (const batch of this.documents.query().select(['id', 'url'])) {
      const id = batch.getChild('id')!;
      const url = batch.getChild('url');
      const out: { id: string; url?: string }[] = [];
      for (let i = 0; i < batch.numRows; i++) {
        const u = url?.get(i) as string | null | undefined;
        out.push(u ? { id: id.get(i) as string, url: u } : { id: id.get(i) as string });
      }
      yield out;
    }
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

  /**
   * Documents whose normalised base title is one of `keys` (see title-key.ts), with their titles; and the
   * documents that redirects with those keys point to, under the redirect's key ("UK" -> United Kingdom).
   */
  async findTitles(keys: string[]): Promise<{ id: string; title: string; key: string }[]> {
    if (!this.documents || keys.length === 0) return [];
    const rows = await this.documents.query().where(`title_key IN (${inList([...new Set(keys)])})`).select(['id', 'title', 'title_key']).toArray();
    const out = rows.map((r: Record<string, string>) => ({ id: r.id!, title: r.title!, key: r.title_key! }));
    const redirects = this.aliases ? (await redirectTargets(this.aliases, keys)).filter((r) => !out.some((o: { id: string; key: string }) => o.id === r.target && o.key === r.key)) : [];
    if (redirects.length === 0) return out;
    const targets = await this.documents.query().where(`id IN (${inList([...new Set(redirects.map((r) => r.target))])})`).select(['id', 'title']).toArray();
    const titleOf = new Map<string, string>(targets.map((t: Record<string, string>) => [t.id!, t.title!]));
    for (const r of redirects) {
      const title = titleOf.get(r.target);
      if (title !== undefined) out.push({ id: r.target, title, key: r.key });
    }
    return out;
  }

  /** Records redirects and disambiguation pages (TitleAliasStore), in one commit. */
  async putTitleAliases(aliases: TitleAlias[]): Promise<void> {
    this.assertWritable('record redirects');
    if (aliases.length === 0) return;
    await this.writeGuard();
    const ids = aliases.map((a) => a.id);
    const merge = this.aliasesStartedNonEmpty || ids.some((id) => this.writtenAliases.has(id)) || new Set(ids).size !== ids.length;
    this.aliases = await putAliases(this.db!, this.aliases, aliases, merge);
    for (const id of ids) this.writtenAliases.add(id);
    this.snapshotId = undefined;
  }

  async deleteTitleAliases(ids: string[]): Promise<number> {
    this.assertWritable('remove redirects');
    if (ids.length === 0 || !this.aliases) return 0;
    await this.writeGuard();
    const n = await deleteAliases(this.aliases, ids);
    if (n) this.snapshotId = undefined;
    return n;
  }

  async deleteRedirectsTo(targets: string[]): Promise<number> {
    this.assertWritable('remove redirects');
    if (targets.length === 0 || !this.aliases) return 0;
    await this.writeGuard();
    const n = await deleteRedirectsTo(this.aliases, targets);
    if (n) this.snapshotId = undefined;
    return n;
  }

  async *titleAliases(): AsyncIterable<TitleAlias[]> {
    if (this.aliases) yield* listAliases(this.aliases);
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

  /**
   * Counts for a snapshot, computed once per snapshot: the health route asks on every call, and counting
   * sentences scans the passage table (tens of ms on the sample index, seconds at millions of passages),
   * which held the event loop of a server polled every 50 ms (issue 35).
   */
  async stats(): Promise<StoreStats> {
    const snapshot = await this.snapshot();
    if (this.statsMemo?.snapshot !== snapshot) this.statsMemo = { snapshot, stats: this.countStats() };
    try {
      return { ...(await this.statsMemo.stats) };
    } catch (e) {
      this.statsMemo = undefined;
      throw e;
    }
  }

  private statsMemo: { snapshot: string; stats: Promise<StoreStats> } | undefined;

  private async countStats(): Promise<StoreStats> {
    const documents = this.documents ? await this.documents.countRows() : 0;
    const passages = this.passages ? await this.passages.countRows() : 0;
    let sentences = 0;
    if (this.passages && passages > 0) {
      // Every sentence lies in exactly one passage (chunkPassages), except an over-long sentence, whose
      // pieces are consecutive passages of its document with the same range [i, i + 1): the sum of ranges,
      // skipping a row that repeats the previous row's document and range, counts each sentence once.
      // (A document's passages are written together, so its pieces are adjacent in the scan.) Reading three
      // small columns, not every sentence's text (2.6 s at 2.7M passages; the health route calls this).
      let prevDoc: unknown;
      let prevStart = -1;
      let prevEnd = -1;
      for await (const batch of this.passages.query().select(['doc_id', 'sent_start', 'sent_end'])) {
        const doc = batch.getChild('doc_id')!;
        const start = batch.getChild('sent_start')!;
        const end = batch.getChild('sent_end')!;
        for (let i = 0; i < batch.numRows; i++) {
          const d = doc.get(i);
          const a = start.get(i) as number;
          const b = end.get(i) as number;
          if (!(d === prevDoc && a === prevStart && b === prevEnd)) sentences += b - a;
          prevDoc = d;
          prevStart = a;
          prevEnd = b;
        }
      }
    }
    return { documents, passages, sentences, textIndexed: await this.hasTextIndex() };
  }

  async snapshot(): Promise<string> {
    if (!this.snapshotId || this.readOnly) {
      const p = this.passages ? await this.passages.version() : 0;
      const d = this.documents ? await this.documents.version() : 0;
      // Redirects change what title lookups find; an index without them keeps its old snapshot form.
      const a = this.aliases ? `.a${await this.aliases.version()}` : '';
      const id = `${this.manifest.storeId}@p${p}.d${d}${a}`;
      // A reader whose writer committed: the settings (e.g. the embedder) and vector column may be new.
      if (this.readOnly && this.snapshotId && id !== this.snapshotId) {
        this.manifest = (await loadManifest(this.dir)) ?? this.manifest;
        this.dimension = undefined;
        // The writer may have recorded the first redirects since this reader opened.
        if (!this.aliases && this.db) this.aliases = await openCommittedTable(this.db, this.dir, ALIASES, await this.db.tableNames());
      }
      this.snapshotId = id;
    }
    return this.snapshotId;
  }

  async getCheckpoint(source: string): Promise<IngestCheckpoint | undefined> {
    return this.manifest.checkpoints[source];
  }

  async setCheckpoint(cp: IngestCheckpoint): Promise<void> {
    await this.writeGuard();
    this.manifest.checkpoints[cp.source] = cp;
    await saveManifest(this.dir, this.manifest);
  }

  async unfinishedIngests(): Promise<IngestCheckpoint[]> {
    // A reader reads the writer's latest manifest: its checkpoints change without a table write.
    const manifest = this.readOnly ? ((await loadManifest(this.dir)) ?? this.manifest) : this.manifest;
    return Object.values(manifest.checkpoints);
  }

  async clearCheckpoint(source: string): Promise<void> {
    if (!(source in this.manifest.checkpoints)) return;
    await this.writeGuard();
    delete this.manifest.checkpoints[source];
    await saveManifest(this.dir, this.manifest);
  }

  get settings(): Record<string, unknown> {
    return this.manifest.settings;
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    await this.writeGuard();
    this.manifest.settings[key] = value;
    await saveManifest(this.dir, this.manifest);
  }

  async *passagesWithoutVectors(batchSize: number): AsyncIterable<Passage[]> {
    if (!this.passages || (await this.vectorDimension()) === undefined) return;
    yield* lancePassagesWithoutVectors(this.passages, batchSize);
  }

  async setPassageVectors(items: { passage: Passage; vector: Float32Array }[]): Promise<void> {
    this.assertWritable('write vectors');
    await this.writeGuard();
    const dim = await this.vectorDimension();
    if (!this.passages || dim === undefined) throw new Error(`${this.dir}: no vector column; call ensureVectorColumn first`);
    await lanceSetPassageVectors(this.passages, dim, items);
    this.snapshotId = undefined;
  }

  async close(): Promise<void> {
    this.passages?.close();
    this.documents?.close();
    this.aliases?.close();
    this.db?.close();
    const lock = await this.writer?.catch(() => undefined);
    this.writer = undefined;
    if (!lock) return;
    // A directory this handle created and never committed a table to (a failed first `index`) is removed,
    // so no empty index is left for later commands to accept.
    if (this.createdDir && !this.passages && !this.documents && !this.aliases) {
      const leftovers = (await readdir(this.dir).catch(() => [] as string[])).filter((f) => f !== MANIFEST_FILE && f !== WRITER_LOCK_FILE);
      if (leftovers.length === 0) await rm(join(this.dir, MANIFEST_FILE), { force: true });
      await lock.release();
      // Not recursive: if another writer started in the meantime, its files keep the directory.
      if (leftovers.length === 0) await rmdir(this.dir).catch(() => undefined);
      return;
    }
    await lock.release();
  }
}
