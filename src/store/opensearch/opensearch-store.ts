/**
 * The Store on an OpenSearch cluster, for corpora past one machine. Three indices per store:
 * `<name>-passages` (BM25 over title + text with LanceDB's English analysis, optional knn_vector),
 * `<name>-documents` (sentences, title key, normalised URL) and `<name>-meta` (one document: store id,
 * write counter, settings, ingest checkpoints). Fusion of BM25 and dense lists stays in veracite.
 *
 * Differences from LanceStore, and how the contract is kept:
 * - A bulk request is not atomic. Ingest's resume semantics still hold: the checkpoint is written only
 *   after a batch's bulk requests all succeeded, and re-writing a batch overwrites the same `_id`s
 *   (passage id, document id), so a resumed batch is never duplicated. Rejected items are retried (429)
 *   and any other failed item fails the batch with the first errors named.
 * - Visibility: OpenSearch shows writes to search after a refresh; the store refreshes before the first
 *   read that follows its own write, so a process reads its own writes. Other processes see them within
 *   the index refresh interval (1 s by default).
 * - Snapshot id: `<storeId>@w<writes>`, a counter in the meta document bumped after every write.
 */
import { randomUUID } from 'node:crypto';
import { Client, type API, type Types } from '@opensearch-project/opensearch';
import type { Document, Passage } from '../../corpus/types.js';
import { searchTextOf } from '../arrow-batch.js';
import type { VectorBackfillStore } from '../dense-backfill.js';
import { IdHashSet } from '../id-hash-set.js';
import { titleKey } from '../title-key.js';
import type { DocumentWithPassages, IngestCheckpoint, PassageHit, StoreStats } from '../types.js';
import { normalizeUrl } from '../url.js';
import { cosineFromScore, documentsIndexBody, EF_SEARCH, metaIndexBody, passagesIndexBody, vectorProperty } from './opensearch-schema.js';
import { explainOpenSearchError, isTransientSearchFailure, partialShards } from './opensearch-errors.js';
import { parseOpenSearchSpec, type OpenSearchSpec } from './opensearch-spec.js';

type QueryContainer = Types.Common_QueryDsl.QueryContainer;
type BulkBody = API.Bulk_RequestBody;

interface PassageSource {
  id: string;
  doc_id: string;
  title: string;
  idx: number;
  sent_start: number;
  sent_end: number;
  text: string;
  vector?: number[];
}

interface DocumentSource {
  id: string;
  title: string;
  title_key: string;
  url?: string;
  norm_url?: string;
  sentences: string[];
  n_sentences: number;
  links: string[];
}

interface MetaSource {
  storeId: string;
  createdAt: string;
  writes: number;
  textIndexed: boolean;
  settings: Record<string, unknown>;
  checkpoints: Record<string, IngestCheckpoint>;
}

export interface OpenSearchStoreOptions {
  /** Create the indices when missing (default true). */
  create?: boolean;
  /** Never write (a server beside an ingest); writes throw. */
  readOnly?: boolean;
  /** Primary shards of the passages index (default 3: one a node of the docker-compose cluster). */
  shards?: number;
  replicas?: number;
  /** Documents per bulk request (default 500). */
  bulkDocuments?: number;
  /** For tests: the environment to read credentials from. */
  env?: NodeJS.ProcessEnv;
}

const META_ID = 'store';
/** The server's default index.max_result_window. */
const MAX_RESULT_WINDOW = 10_000;
const PASSAGE_FIELDS = ['id', 'doc_id', 'title', 'idx', 'sent_start', 'sent_end', 'text'];

function toPassage(s: PassageSource): Passage {
  return { id: s.id, docId: s.doc_id, title: s.title, index: s.idx, sentenceStart: s.sent_start, sentenceEnd: s.sent_end, text: s.text };
}

function passageSource(p: Passage): PassageSource & { search_text: string } {
  return { id: p.id, doc_id: p.docId, title: p.title, idx: p.index, sent_start: p.sentenceStart, sent_end: p.sentenceEnd, text: p.text, search_text: searchTextOf(p.title, p.text) };
}

function toDocument(s: DocumentSource): Document {
  const d: Document = { id: s.id, title: s.title, sentences: s.sentences };
  if (s.url) d.url = s.url;
  if (s.links?.length) d.links = s.links;
  return d;
}

export class OpenSearchStore implements VectorBackfillStore {
  readonly engine: string;
  private readonly passagesIndex: string;
  private readonly documentsIndex: string;
  private readonly metaIndex: string;
  private dirty = false;
  private dimension: number | undefined;
  private readonly written = new IdHashSet();
  private startedNonEmpty = false;

  private constructor(
    readonly spec: OpenSearchSpec,
    private readonly client: Client,
    private meta: MetaSource,
    private readonly opts: OpenSearchStoreOptions,
    version: string,
  ) {
    this.engine = `opensearch@${version}`;
    this.passagesIndex = `${spec.name}-passages`;
    this.documentsIndex = `${spec.name}-documents`;
    this.metaIndex = `${spec.name}-meta`;
  }

  static async open(indexSpec: string, opts: OpenSearchStoreOptions = {}): Promise<OpenSearchStore> {
    const spec = parseOpenSearchSpec(indexSpec, opts.env);
    const client = new Client(spec.clientOptions);
    let version = 'unknown';
    try {
      version = (await client.info()).body.version.number;
    } catch (e) {
      await client.close();
      throw new Error(`${spec.display}: cannot reach OpenSearch at ${spec.node} (${(e as Error).message}); check the URL, OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD and OPENSEARCH_CA or OPENSEARCH_INSECURE=1`, { cause: e });
    }
    const metaIndex = `${spec.name}-meta`;
    let meta = await readMeta(client, metaIndex);
    if (!meta) {
      if (opts.create === false || opts.readOnly) {
        await client.close();
        throw new Error(`${spec.display}: no veracite index here (create one with "veracite index <paths> --index ${spec.display}")`);
      }
      const shards = opts.shards ?? 3;
      const replicas = opts.replicas ?? 0;
      await createIfMissing(client, `${spec.name}-passages`, passagesIndexBody(shards, replicas, await hasKnnPlugin(client)));
      await createIfMissing(client, `${spec.name}-documents`, documentsIndexBody(shards, replicas));
      await createIfMissing(client, metaIndex, metaIndexBody());
      meta = { storeId: randomUUID().slice(0, 8), createdAt: new Date().toISOString(), writes: 0, textIndexed: false, settings: {}, checkpoints: {} };
      // op_type create: two processes creating the same store at once keep one store id.
      await client.index({ index: metaIndex, id: META_ID, op_type: 'create', refresh: true, body: meta }).catch(async (e: unknown) => {
        if (!String((e as Error).message).includes('version_conflict')) throw e;
      });
      meta = (await readMeta(client, metaIndex))!;
    }
    const store = new OpenSearchStore(spec, client, meta, opts, version);
    store.startedNonEmpty = (await store.count(store.documentsIndex)) > 0;
    return store;
  }

  get settings(): Record<string, unknown> {
    return this.meta.settings;
  }

  get storeId(): string {
    return this.meta.storeId;
  }

  private assertWritable(what: string): void {
    if (this.opts.readOnly) throw new Error(`${this.spec.display}: opened read-only, cannot ${what}`);
  }

  /** Bumps the write counter (the snapshot id) after a write. */
  private async wrote(): Promise<void> {
    this.dirty = true;
    const r = await this.client.update({
      index: this.metaIndex,
      id: META_ID,
      refresh: true,
      _source: true,
      body: { script: { source: 'ctx._source.writes += 1', lang: 'painless' } },
    });
    const src = (r.body as { get?: { _source?: MetaSource } }).get?._source;
    if (src) this.meta.writes = src.writes;
    else this.meta.writes++;
  }

  private async updateMeta(doc: Partial<MetaSource>): Promise<void> {
    await this.client.update({ index: this.metaIndex, id: META_ID, refresh: true, body: { doc } });
  }

  /** Reads after this process's own writes see them. */
  private async fresh(): Promise<void> {
    if (!this.dirty) return;
    await this.client.indices.refresh({ index: [this.passagesIndex, this.documentsIndex] });
    this.dirty = false;
  }

  /**
   * A read, tried again while the failure looks like a node leaving (replicas take over within about a
   * second; an answer from only some shards counts as such a failure), then failed with the cluster's own reasons. Writes are not retried here: bulk has its own rule.
   */
  private async read<T>(what: string, call: () => Promise<T>): Promise<T> {
    const waits = [250, 750, 1500];
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await call();
        // A partial answer would silently drop hits: tried again like a failure, never returned.
        const partial = partialShards(r);
        if (partial) throw partial;
        return r;
      } catch (e) {
        if (attempt < waits.length && isTransientSearchFailure(e)) {
          await new Promise((res) => setTimeout(res, waits[attempt]));
          continue;
        }
        throw new Error(`${this.spec.display}: ${what} failed${attempt ? ` (${attempt + 1} tries)` : ''}: ${explainOpenSearchError(e)}`, { cause: e });
      }
    }
  }

  private async count(index: string, query?: QueryContainer): Promise<number> {
    const r = await this.read('count', () => this.client.count({ index, body: query ? { query } : {} }));
    return r.body.count;
  }

  private async bulk(body: BulkBody, what: string): Promise<void> {
    let pending = body;
    for (let attempt = 0; ; attempt++) {
      // The whole request can be refused as well as single items (HTTP 429 when the coordinating node's
      // write queue or indexing-pressure limit is full); the client does not retry a 429 itself.
      const r = await this.client.bulk({ body: pending }).catch((e: unknown) => {
        if ((e as { statusCode?: number }).statusCode === 429) return undefined;
        throw e;
      });
      if (!r) {
        if (attempt >= 5) throw new Error(`${this.spec.display}: the cluster kept refusing ${what} as overloaded (HTTP 429); lower the batch size or add nodes`);
        await new Promise((res) => setTimeout(res, 500 * 2 ** attempt));
        continue;
      }
      if (!r.body.errors) return;
      const retry: BulkBody = [];
      const failed: string[] = [];
      r.body.items.forEach((item, i) => {
        const op = Object.values(item)[0] as Types.Core_Bulk.ResponseItem | undefined;
        if (!op?.error) return;
        // Each action is two lines (action + source) except delete; requests here never mix in deletes.
        if (op.status === 429) retry.push(pending[2 * i]!, pending[2 * i + 1]!);
        else failed.push(`${op._id}: ${op.error.type} ${op.error.reason ?? ''}`.trim());
      });
      if (failed.length) throw new Error(`${this.spec.display}: OpenSearch rejected ${failed.length} ${what} (first: ${failed.slice(0, 3).join('; ')})`);
      if (retry.length === 0) return;
      if (attempt >= 5) throw new Error(`${this.spec.display}: the cluster kept rejecting ${retry.length / 2} ${what} as overloaded (429); lower the batch size or add nodes`);
      await new Promise((res) => setTimeout(res, 500 * 2 ** attempt));
      pending = retry;
    }
  }

  async upsert(batch: DocumentWithPassages[]): Promise<void> {
    this.assertWritable('write documents');
    if (batch.length === 0) return;
    const byId = new Map<string, DocumentWithPassages>();
    for (const item of batch) byId.set(item.doc.id, item);
    const items = [...byId.values()];
    const first = items.flatMap((i) => i.vectors ?? []).find((v) => v);
    if (first) await this.ensureVectorColumn(first.length);
    // A re-written document may have fewer passages than before: its old tail must go.
    const needsDelete = this.startedNonEmpty || items.some((i) => this.written.has(i.doc.id)) || byId.size !== batch.length;
    if (needsDelete) await this.deleteStalePassages(items);
    const per = this.opts.bulkDocuments ?? 500;
    // Passages first, documents second, as LanceStore: a document exists once its passages do.
    for (let i = 0; i < items.length; i += per) {
      const body: BulkBody = [];
      for (const item of items.slice(i, i + per)) {
        item.passages.forEach((p, k) => {
          const src = passageSource(p);
          const v = item.vectors?.[k];
          if (v) src.vector = Array.from(v);
          body.push({ index: { _index: this.passagesIndex, _id: p.id } }, src);
        });
      }
      await this.bulk(body, 'passages');
    }
    for (let i = 0; i < items.length; i += per) {
      const body: BulkBody = [];
      for (const { doc } of items.slice(i, i + per)) {
        const src: DocumentSource = { id: doc.id, title: doc.title, title_key: titleKey(doc.title), sentences: doc.sentences, n_sentences: doc.sentences.length, links: doc.links ?? [] };
        if (doc.url) {
          src.url = doc.url;
          src.norm_url = normalizeUrl(doc.url);
        }
        body.push({ index: { _index: this.documentsIndex, _id: doc.id } }, src);
      }
      await this.bulk(body, 'documents');
    }
    for (const item of items) this.written.add(item.doc.id);
    await this.wrote();
  }

  private async deleteStalePassages(items: DocumentWithPassages[]): Promise<void> {
    await this.client.indices.refresh({ index: this.passagesIndex });
    for (let i = 0; i < items.length; i += 500) {
      const should: QueryContainer[] = items.slice(i, i + 500).map((it) => ({
        bool: { filter: [{ term: { doc_id: it.doc.id } }, { range: { idx: { gte: it.passages.length } } }] },
      }));
      await this.client.deleteByQuery({ index: this.passagesIndex, refresh: true, conflicts: 'proceed', body: { query: { bool: { should, minimum_should_match: 1 } } } });
    }
  }

  async buildTextIndex(): Promise<void> {
    this.assertWritable('build the text index');
    // OpenSearch indexes on write; a refresh makes every write searchable.
    await this.client.indices.refresh({ index: [this.passagesIndex, this.documentsIndex] });
    this.dirty = false;
    if (!this.meta.textIndexed) {
      this.meta.textIndexed = true;
      await this.updateMeta({ textIndexed: true });
    }
  }

  async searchText(query: string, k: number): Promise<PassageHit[]> {
    if (!query.trim()) return [];
    await this.fresh();
    const r = await this.read('search', () => this.client.search({
      index: this.passagesIndex,
      body: { size: k, _source: PASSAGE_FIELDS, query: { match: { search_text: { query } } } },
    }));
    return r.body.hits.hits.map((h) => ({ passage: toPassage(h._source as PassageSource), score: h._score ?? 0 }));
  }

  async searchVector(vector: Float32Array, k: number): Promise<PassageHit[]> {
    if ((await this.vectorDimension()) === undefined) return [];
    await this.fresh();
    const r = await this.read('search', () => this.client.search({
      index: this.passagesIndex,
      body: { size: k, _source: PASSAGE_FIELDS, query: { knn: { vector: { vector: Array.from(vector), k, method_parameters: { ef_search: Math.max(EF_SEARCH, k) } } } } },
    }));
    return r.body.hits.hits.map((h) => ({ passage: toPassage(h._source as PassageSource), score: cosineFromScore(h._score ?? 0) }));
  }

  async buildVectorIndex(): Promise<string> {
    this.assertWritable('build the vector index');
    // HNSW graphs are built per segment as documents are indexed.
    await this.client.indices.refresh({ index: this.passagesIndex });
    this.dirty = false;
    return (await this.vectorDimension()) === undefined ? 'exact' : 'hnsw';
  }

  async vectorDimension(): Promise<number | undefined> {
    if (this.dimension !== undefined) return this.dimension;
    const r = await this.client.indices.getMapping({ index: this.passagesIndex });
    const props = Object.values(r.body)[0]?.mappings?.properties as Record<string, { type?: string; dimension?: number }> | undefined;
    this.dimension = props?.vector?.dimension;
    return this.dimension;
  }

  async ensureVectorColumn(dimension: number): Promise<void> {
    const current = await this.vectorDimension();
    if (current === dimension) return;
    if (current !== undefined) throw new Error(`${this.spec.display}: the index holds ${current}-d vectors; a ${dimension}-d embedder cannot share it (use another --index)`);
    this.assertWritable('add a vector field');
    if (!(await hasKnnPlugin(this.client))) {
      throw new Error(`${this.spec.display}: the cluster has no k-NN plugin (opensearch-knn), so it cannot hold vectors; BM25 search works without it. Install the plugin on every node (bin/opensearch-plugin install opensearch-knn) and re-create the index, or keep vectors in a LanceDB index`);
    }
    await this.client.indices.putMapping({ index: this.passagesIndex, body: { properties: { vector: vectorProperty(dimension) } } });
    this.dimension = dimension;
  }

  /** An OpenSearch mapping cannot change a field's dimension in place: re-embedding needs a new index. */
  async dropVectors(): Promise<void> {
    if ((await this.vectorDimension()) === undefined) return;
    throw new Error(`${this.spec.display}: OpenSearch cannot change the vectors of an index in place (a field's mapping is fixed); index the corpus again into a new index with --dense and the new --embedder`);
  }

  async vectorCounts(): Promise<{ withVector: number; total: number }> {
    await this.fresh();
    const total = await this.count(this.passagesIndex);
    if ((await this.vectorDimension()) === undefined) return { withVector: 0, total };
    return { withVector: await this.count(this.passagesIndex, { exists: { field: 'vector' } }), total };
  }

  /** Pages through passages matching `query` with a point in time and search_after (one consistent view). */
  private async *scan(query: QueryContainer, fields: string[], pageSize: number): AsyncIterable<PassageSource[]> {
    // A search page is at most index.max_result_window (10,000) hits even with search_after: the server
    // answers 20,000 with "Result window is too large" (the backfill's default batch). Larger batches
    // come as several pages.
    const size = Math.min(pageSize, MAX_RESULT_WINDOW);
    await this.fresh();
    const pit = await this.client.createPit({ index: [this.passagesIndex], keep_alive: '5m' });
    const pitId = pit.body.pit_id!;
    try {
      let after: Types.Common.SortResults | undefined;
      for (;;) {
        const body: API.Search_RequestBody = { size, _source: fields, query, sort: [{ id: { order: 'asc' } }], pit: { id: pitId, keep_alive: '5m' } };
        if (after) body.search_after = after;
        const r = await this.read('search', () => this.client.search({ body }));
        const hits = r.body.hits.hits;
        if (hits.length === 0) return;
        yield hits.map((h) => h._source as PassageSource);
        after = hits[hits.length - 1]!.sort;
      }
    } finally {
      await this.client.deletePit({ body: { pit_id: [pitId] } }).catch(() => undefined);
    }
  }

  async *passagesWithoutVectors(batchSize: number): AsyncIterable<Passage[]> {
    if ((await this.vectorDimension()) === undefined) return;
    for await (const page of this.scan({ bool: { must_not: [{ exists: { field: 'vector' } }] } }, PASSAGE_FIELDS, batchSize)) yield page.map(toPassage);
  }

  async setPassageVectors(items: { passage: Passage; vector: Float32Array }[]): Promise<void> {
    this.assertWritable('write vectors');
    if (items.length === 0) return;
    await this.ensureVectorColumn(items[0]!.vector.length);
    // Whole passages, not partial updates: an update re-indexes the stored _source, which leaves out
    // search_text (excluded to save space), so a partial { doc: { vector } } update on the live cluster
    // silently dropped the passage from BM25 search.
    const body: BulkBody = [];
    for (const { passage, vector } of items) body.push({ index: { _index: this.passagesIndex, _id: passage.id } }, { ...passageSource(passage), vector: Array.from(vector) });
    await this.bulk(body, 'vectors');
    await this.wrote();
  }

  async getDocuments(ids: string[]): Promise<Document[]> {
    if (ids.length === 0) return [];
    const found = new Map<string, Document>();
    for (let i = 0; i < ids.length; i += 1000) {
      const r = await this.read('mget', () => this.client.mget({ index: this.documentsIndex, body: { ids: ids.slice(i, i + 1000) } }));
      for (const d of r.body.docs) {
        const doc = d as { found?: boolean; _source?: DocumentSource };
        if (doc.found && doc._source) found.set(doc._source.id, toDocument(doc._source));
      }
    }
    return ids.map((id) => found.get(id)).filter((d): d is Document => !!d);
  }

  async findTitles(keys: string[]): Promise<{ id: string; title: string; key: string }[]> {
    if (keys.length === 0) return [];
    await this.fresh();
    const r = await this.read('search', () => this.client.search({ index: this.documentsIndex, body: { size: 1000, _source: ['id', 'title', 'title_key'], query: { terms: { title_key: [...new Set(keys)] } } } }));
    return r.body.hits.hits.map((h) => {
      const s = h._source as DocumentSource;
      return { id: s.id, title: s.title, key: s.title_key };
    });
  }

  async findDocumentsByUrl(url: string): Promise<Document[]> {
    await this.fresh();
    const r = await this.read('search', () => this.client.search({ index: this.documentsIndex, body: { size: 100, query: { term: { norm_url: normalizeUrl(url) } } } }));
    return r.body.hits.hits.map((h) => toDocument(h._source as DocumentSource));
  }

  async getPassages(docId: string): Promise<Passage[]> {
    await this.fresh();
    const r = await this.read('search', () => this.client.search({
      index: this.passagesIndex,
      body: { size: 10_000, _source: PASSAGE_FIELDS, query: { term: { doc_id: docId } }, sort: [{ idx: { order: 'asc' } }] },
    }));
    return r.body.hits.hits.map((h) => toPassage(h._source as PassageSource));
  }

  async *passageTexts(): AsyncIterable<string[]> {
    for await (const page of this.scan({ match_all: {} }, ['text'], 5000)) yield page.map((p) => p.text);
  }

  async passageVectors(ids: string[]): Promise<Map<string, { text: string; vector: Float32Array }>> {
    const out = new Map<string, { text: string; vector: Float32Array }>();
    if (ids.length === 0 || (await this.vectorDimension()) === undefined) return out;
    for (let i = 0; i < ids.length; i += 1000) {
      const r = await this.read('mget', () => this.client.mget({ index: this.passagesIndex, body: { ids: ids.slice(i, i + 1000) }, _source_includes: ['id', 'text', 'vector'] }));
      for (const d of r.body.docs) {
        const s = (d as { found?: boolean; _source?: PassageSource })._source;
        if (s?.vector) out.set(s.id, { text: s.text, vector: Float32Array.from(s.vector) });
      }
    }
    return out;
  }

  async stats(): Promise<StoreStats> {
    await this.fresh();
    const passages = await this.count(this.passagesIndex);
    const r = await this.read('search', () => this.client.search({ index: this.documentsIndex, body: { size: 0, track_total_hits: true, aggs: { sentences: { sum: { field: 'n_sentences' } } } } }));
    const total = r.body.hits.total;
    const documents = typeof total === 'number' ? total : (total?.value ?? 0);
    const agg = r.body.aggregations?.['sentences'] as { value?: number } | undefined;
    return { documents, passages, sentences: Math.round(agg?.value ?? 0), textIndexed: this.meta.textIndexed };
  }

  async snapshot(): Promise<string> {
    if (this.opts.readOnly) {
      const m = await readMeta(this.client, this.metaIndex);
      if (m) {
        if (m.writes !== this.meta.writes) this.dimension = undefined;
        this.meta = m;
      }
    }
    return `${this.meta.storeId}@w${this.meta.writes}`;
  }

  async getCheckpoint(source: string): Promise<IngestCheckpoint | undefined> {
    return this.meta.checkpoints[source];
  }

  /** Ingests with a checkpoint left (interrupted or still running), read fresh: another process may write them. */
  async unfinishedIngests(): Promise<IngestCheckpoint[]> {
    const m = await readMeta(this.client, this.metaIndex);
    return Object.values(m?.checkpoints ?? this.meta.checkpoints).map((cp) => ({ ...cp }));
  }

  async setCheckpoint(cp: IngestCheckpoint): Promise<void> {
    this.assertWritable('write an ingest checkpoint');
    this.meta.checkpoints[cp.source] = cp;
    await this.updateMeta({ checkpoints: { [cp.source]: cp } });
  }

  async clearCheckpoint(source: string): Promise<void> {
    this.assertWritable('clear an ingest checkpoint');
    delete this.meta.checkpoints[source];
    await this.client.update({
      index: this.metaIndex,
      id: META_ID,
      refresh: true,
      body: { script: { source: 'ctx._source.checkpoints.remove(params.s)', lang: 'painless', params: { s: source } } },
    });
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    this.assertWritable('change settings');
    this.meta.settings[key] = value;
    await this.updateMeta({ settings: { [key]: value } });
  }

  /** Deletes the store's three indices (tests, `veracite index --force` on a cluster). */
  async drop(): Promise<void> {
    this.assertWritable('delete the index');
    await this.client.indices.delete({ index: [this.passagesIndex, this.documentsIndex, this.metaIndex], ignore_unavailable: true });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

async function readMeta(client: Client, index: string): Promise<MetaSource | undefined> {
  const exists = await client.indices.exists({ index });
  if (!exists.body) return undefined;
  const r = await client.get({ index, id: META_ID }, { ignore: [404] });
  const body = r.body as { found?: boolean; _source?: MetaSource };
  if (!body.found || !body._source) return undefined;
  const m = body._source;
  m.settings ??= {};
  m.checkpoints ??= {};
  return m;
}

/** Whether every node carries the k-NN plugin (knn_vector fields, the knn query, `index.knn`). */
async function hasKnnPlugin(client: Client): Promise<boolean> {
  const r = await client.cat.plugins({ format: 'json' });
  const rows = r.body as unknown as { name?: string; component?: string }[];
  const nodes = new Set(rows.map((p) => p.name));
  const withKnn = new Set(rows.filter((p) => p.component === 'opensearch-knn').map((p) => p.name));
  return withKnn.size > 0 && withKnn.size === nodes.size;
}

async function createIfMissing(client: Client, index: string, body: API.Indices_Create_RequestBody): Promise<void> {
  const exists = await client.indices.exists({ index });
  if (exists.body) return;
  await client.indices.create({ index, body });
}
