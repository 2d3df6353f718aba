/**
 * The in-memory Store: the whole index in JS maps, for fast tests and small throwaway corpora. It passes
 * the same contract suite as LanceStore (src/store/testing/store-contract.ts).
 *
 * - BM25: wink-bm25-text-search with LanceDB's formula (k1 1.2, b 0.75, idf ln(1 + (N - n + 0.5)/(n + 0.5)))
 *   over LanceDB's English analysis (english-analyzer.ts) of title + text, so scores and rankings follow
 *   the LanceDB store's. wink's index is immutable once built, so it is rebuilt (from terms analysed once
 *   at upsert) on the first search after a write; as in LanceDB, rows written after `buildTextIndex` are
 *   still found.
 * - Vectors: exact cosine similarity over every stored vector.
 * - Snapshot ids: a random store id plus a write counter.
 */
import { randomUUID } from 'node:crypto';
import bm25 from 'wink-bm25-text-search';
import type { Document, Passage } from '../../corpus/types.js';
import { searchTextOf } from '../arrow-batch.js';
import type { VectorBackfillStore } from '../dense-backfill.js';
import { titleKey } from '../title-key.js';
import type { DocumentWithPassages, IngestCheckpoint, PassageHit, StoreStats } from '../types.js';
import { normalizeUrl } from '../url.js';
import { analyzeEnglish } from './english-analyzer.js';

interface PassageEntry {
  passage: Passage;
  /** Analysed terms of title + text, space-joined (what the BM25 engine indexes). */
  terms: string;
  vector?: Float32Array;
}

interface DocumentEntry {
  doc: Document;
  titleKey: string;
  normUrl?: string;
  passages: PassageEntry[];
}

type Engine = ReturnType<typeof bm25>;

/** wink refuses to build an index of fewer than 3 documents: tiny stores are padded with empty ones. */
const MIN_ENGINE_DOCS = 3;
const PAD = '\u0000pad';

export interface MemoryStoreOptions {
  settings?: Record<string, unknown>;
}

export class MemoryStore implements VectorBackfillStore {
  readonly engine = 'memory';
  readonly storeId = randomUUID().slice(0, 8);
  readonly settings: Record<string, unknown>;
  private readonly docs = new Map<string, DocumentEntry>();
  private readonly passageById = new Map<string, PassageEntry>();
  private readonly checkpoints = new Map<string, IngestCheckpoint>();
  private version = 0;
  private dimension: number | undefined;
  private textIndexBuilt = false;
  private bm25: Engine | undefined;

  constructor(opts: MemoryStoreOptions = {}) {
    this.settings = { ...opts.settings };
  }

  private wrote(): void {
    this.version++;
    this.bm25 = undefined;
  }

  async upsert(batch: DocumentWithPassages[]): Promise<void> {
    if (batch.length === 0) return;
    const byId = new Map<string, DocumentWithPassages>();
    for (const item of batch) byId.set(item.doc.id, item);
    for (const item of byId.values()) {
      for (const v of item.vectors ?? []) if (v) await this.ensureVectorColumn(v.length);
      if (item.vectors && item.vectors.length !== item.passages.length) {
        throw new Error(`document ${item.doc.id}: ${item.vectors.length} vectors for ${item.passages.length} passages`);
      }
    }
    for (const item of byId.values()) {
      this.deleteDocument(item.doc.id);
      const passages = item.passages.map((passage, i): PassageEntry => {
        const entry: PassageEntry = { passage: { ...passage }, terms: analyzeEnglish(searchTextOf(passage.title, passage.text)).join(' ') };
        const v = item.vectors?.[i];
        if (v) entry.vector = Float32Array.from(v);
        return entry;
      });
      const doc: Document = { ...item.doc, sentences: [...item.doc.sentences] };
      const entry: DocumentEntry = { doc, titleKey: titleKey(doc.title), passages };
      if (doc.url) entry.normUrl = normalizeUrl(doc.url);
      this.docs.set(doc.id, entry);
      for (const p of passages) this.passageById.set(p.passage.id, p);
    }
    this.wrote();
  }

  private deleteDocument(id: string): void {
    const old = this.docs.get(id);
    if (!old) return;
    for (const p of old.passages) this.passageById.delete(p.passage.id);
    this.docs.delete(id);
  }

  async buildTextIndex(): Promise<void> {
    this.textIndexBuilt = true;
    this.engineNow();
  }

  private engineNow(): Engine | undefined {
    if (this.bm25) return this.bm25;
    if (this.passageById.size === 0) return undefined;
    const engine = bm25();
    engine.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1: 1.2, b: 0.75, k: 1 } });
    // Terms are analysed once at upsert (and queries in searchText): the engine only splits them.
    engine.definePrepTasks([(s) => (s as string).split(' ').filter(Boolean)]);
    for (const p of this.passageById.values()) engine.addDoc({ text: p.terms }, p.passage.id);
    for (let i = this.passageById.size; i < MIN_ENGINE_DOCS; i++) engine.addDoc({ text: '' }, `${PAD}${i}`);
    engine.consolidate(9);
    this.bm25 = engine;
    return engine;
  }

  async searchText(query: string, k: number): Promise<PassageHit[]> {
    // Repeated query terms count again, as in LanceDB ("common variants ... rare variants").
    const terms = analyzeEnglish(query);
    const engine = terms.length ? this.engineNow() : undefined;
    if (!engine) return [];
    const hits: PassageHit[] = [];
    for (const [id, score] of engine.search(terms.join(' '), k)) {
      const p = this.passageById.get(id);
      if (p) hits.push({ passage: { ...p.passage }, score });
    }
    return hits;
  }

  async searchVector(vector: Float32Array, k: number): Promise<PassageHit[]> {
    if (this.dimension === undefined) return [];
    if (vector.length !== this.dimension) throw new Error(`query vector has ${vector.length} dimensions, the index holds ${this.dimension}-d vectors`);
    const qn = norm(vector);
    const scored: { p: PassageEntry; score: number }[] = [];
    for (const p of this.passageById.values()) {
      if (!p.vector) continue;
      const d = dot(vector, p.vector);
      scored.push({ p, score: d / (qn * norm(p.vector) || 1) });
    }
    scored.sort((a, b) => b.score - a.score || (a.p.passage.id < b.p.passage.id ? -1 : 1));
    return scored.slice(0, k).map(({ p, score }) => ({ passage: { ...p.passage }, score }));
  }

  async buildVectorIndex(): Promise<string> {
    return 'exact';
  }

  async vectorDimension(): Promise<number | undefined> {
    return this.dimension;
  }

  async ensureVectorColumn(dimension: number): Promise<void> {
    if (this.dimension === dimension) return;
    if (this.dimension !== undefined) throw new Error(`the index holds ${this.dimension}-d vectors; a ${dimension}-d embedder cannot share it (use another index)`);
    this.dimension = dimension;
  }

  async dropVectors(): Promise<void> {
    for (const p of this.passageById.values()) delete p.vector;
    this.dimension = undefined;
  }

  async vectorCounts(): Promise<{ withVector: number; total: number }> {
    let withVector = 0;
    for (const p of this.passageById.values()) if (p.vector) withVector++;
    return { withVector, total: this.passageById.size };
  }

  async *passagesWithoutVectors(batchSize: number): AsyncIterable<Passage[]> {
    // A snapshot of the ids at the call, as the other engines read one table version.
    const missing = [...this.passageById.values()].filter((p) => !p.vector).map((p) => ({ ...p.passage }));
    for (let i = 0; i < missing.length; i += batchSize) yield missing.slice(i, i + batchSize);
  }

  async setPassageVectors(items: { passage: Passage; vector: Float32Array }[]): Promise<void> {
    for (const { vector } of items) await this.ensureVectorColumn(vector.length);
    for (const { passage, vector } of items) {
      const p = this.passageById.get(passage.id);
      if (p) p.vector = Float32Array.from(vector);
    }
    this.wrote();
  }

  async getDocuments(ids: string[]): Promise<Document[]> {
    return ids.map((id) => this.docs.get(id)).filter((d): d is DocumentEntry => !!d).map((d) => copyDocument(d.doc));
  }

  async findTitles(keys: string[]): Promise<{ id: string; title: string; key: string }[]> {
    const wanted = new Set(keys);
    const out: { id: string; title: string; key: string }[] = [];
    for (const d of this.docs.values()) if (wanted.has(d.titleKey)) out.push({ id: d.doc.id, title: d.doc.title, key: d.titleKey });
    return out;
  }

  async findDocumentsByUrl(url: string): Promise<Document[]> {
    const key = normalizeUrl(url);
    return [...this.docs.values()].filter((d) => d.normUrl === key).map((d) => copyDocument(d.doc));
  }

  async getPassages(docId: string): Promise<Passage[]> {
    const d = this.docs.get(docId);
    return d ? d.passages.map((p) => ({ ...p.passage })).sort((a, b) => a.index - b.index) : [];
  }

  async *passageTexts(): AsyncIterable<string[]> {
    const all = [...this.passageById.values()].map((p) => p.passage.text);
    for (let i = 0; i < all.length; i += 1000) yield all.slice(i, i + 1000);
  }

  async passageVectors(ids: string[]): Promise<Map<string, { text: string; vector: Float32Array }>> {
    const out = new Map<string, { text: string; vector: Float32Array }>();
    for (const id of ids) {
      const p = this.passageById.get(id);
      if (p?.vector) out.set(id, { text: p.passage.text, vector: Float32Array.from(p.vector) });
    }
    return out;
  }

  async stats(): Promise<StoreStats> {
    let sentences = 0;
    for (const d of this.docs.values()) sentences += d.doc.sentences.length;
    return { documents: this.docs.size, passages: this.passageById.size, sentences, textIndexed: this.textIndexBuilt };
  }

  async snapshot(): Promise<string> {
    return `${this.storeId}@v${this.version}`;
  }

  async getCheckpoint(source: string): Promise<IngestCheckpoint | undefined> {
    const cp = this.checkpoints.get(source);
    return cp && { ...cp };
  }

  async setCheckpoint(cp: IngestCheckpoint): Promise<void> {
    this.checkpoints.set(cp.source, { ...cp });
  }

  async clearCheckpoint(source: string): Promise<void> {
    this.checkpoints.delete(source);
  }

  async unfinishedIngests(): Promise<IngestCheckpoint[]> {
    return [...this.checkpoints.values()].map((cp) => ({ ...cp }));
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    this.settings[key] = value;
  }

  async close(): Promise<void> {
    this.bm25 = undefined;
  }
}

function copyDocument(d: Document): Document {
  const out: Document = { id: d.id, title: d.title, sentences: [...d.sentences] };
  if (d.url) out.url = d.url;
  if (d.links?.length) out.links = [...d.links];
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function norm(a: Float32Array): number {
  return Math.sqrt(dot(a, a));
}
