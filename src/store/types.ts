import type { Document, Passage } from '../corpus/types.js';

/**
 * The storage contract. The embedded LanceDB engine implements it; a server engine (e.g. PostgreSQL) or
 * the in-memory engine used by fast tests implement the same interface, so nothing above `store` knows
 * which one it talks to.
 */
export interface DocumentWithPassages {
  doc: Document;
  passages: Passage[];
  /** One vector per passage (same order) when dense retrieval is on. */
  vectors?: Float32Array[];
}

/** What an upsert did: ids new to the store, and ids that replaced rows already there (or repeated in the batch). */
export interface UpsertResult {
  inserted: number;
  replaced: number;
}

export interface PassageHit {
  passage: Passage;
  /** Engine score (BM25 for text search; similarity for vector search). Higher is better. */
  score: number;
}

export interface StoreStats {
  documents: number;
  passages: number;
  sentences: number;
  /** Whether a full-text index covers every passage. */
  textIndexed: boolean;
}

/**
 * A main-namespace page of a wiki that is not an article (issue 38): a redirect to the document `target`,
 * or a disambiguation page. Recorded from dumps, not indexed as documents.
 */
export interface TitleAlias {
  /** The page's id: its title with underscores, as a document id. */
  id: string;
  title: string;
  kind: 'redirect' | 'disambiguation';
  /** A redirect's target, as a document id. */
  target?: string;
  /** The wiki's article URL prefix, when known (a complete later dump prunes its own wiki's aliases). */
  wiki?: string;
}

/** A store that records redirects and disambiguation pages beside its documents (LanceDB). */
export interface TitleAliasStore {
  /** Inserts or replaces aliases by page id, in one commit. */
  putTitleAliases(aliases: TitleAlias[]): Promise<void>;
  /** Removes the aliases of these page ids; returns how many there were. */
  deleteTitleAliases(ids: string[]): Promise<number>;
  /** Removes the redirects to these document ids (their pages list their redirects anew). */
  deleteRedirectsTo(targets: string[]): Promise<number>;
  /** Every alias, in batches. */
  titleAliases(): AsyncIterable<TitleAlias[]>;
}

export interface IngestCheckpoint {
  /** Source key (absolute path + format). */
  source: string;
  /** Records of the source already committed. */
  records: number;
  /** Last update, ISO time. */
  updatedAt: string;
  /** Size and mtime of the source when the checkpoint was written: a changed source restarts from 0. */
  fingerprint: string;
  /** Passage size used: resuming with another size would mix two chunkings. */
  maxWords: number;
}

export interface Store {
  /** Engine name for provenance, e.g. "lancedb@0.37.1". */
  readonly engine: string;
  /**
   * Insert or replace documents (with their passages and sentences). Re-writing an id replaces all its
   * rows; nothing is duplicated. A batch is committed atomically per table. Engines that can tell return
   * how many ids were new and how many replaced existing rows (ingest summaries count replacements).
   */
  upsert(batch: DocumentWithPassages[]): Promise<void | UpsertResult>;
  /** Build or refresh the full-text (BM25) index over passages. */
  buildTextIndex(): Promise<void>;
  /** BM25 search over passages (title + text). */
  searchText(query: string, k: number): Promise<PassageHit[]>;
  /** Cosine nearest passages; [] when the store has no vectors. */
  searchVector(vector: Float32Array, k: number): Promise<PassageHit[]>;
  /** Build or refresh the vector index (or keep exact search when the table is small). */
  buildVectorIndex(): Promise<string>;
  /** Dimension of stored vectors, undefined when the store has none. */
  vectorDimension(): Promise<number | undefined>;
  getDocuments(ids: string[]): Promise<Document[]>;
  /**
   * Documents whose normalised base title (title-key.ts) is one of `keys`; engines that record a wiki's
   * redirects (TitleAliasStore) also return the document a redirect with such a title points to, under
   * the redirect's key.
   */
  findTitles(keys: string[]): Promise<{ id: string; title: string; key: string }[]>;
  /** Documents whose normalised URL equals the normalised `url`. */
  findDocumentsByUrl(url: string): Promise<Document[]>;
  /** Passages of one document in order. */
  getPassages(docId: string): Promise<Passage[]>;
  /** Every passage's text, in batches (corpus statistics for the source ranker); order unspecified. */
  passageTexts(): AsyncIterable<string[]>;
  /** Stored vectors of these passages (with the text they were computed from); absent ids are left out. */
  passageVectors(ids: string[]): Promise<Map<string, { text: string; vector: Float32Array }>>;
  /** Settings recorded with the index (e.g. `embedder`: the ModelInfo of the stored vectors). */
  readonly settings: Record<string, unknown>;
  /** Records one setting (ingest records the embedder that made the vectors). */
  setSetting(key: string, value: unknown): Promise<void>;
  stats(): Promise<StoreStats>;
  /** Identifies the exact content of the store; changes on every write. */
  snapshot(): Promise<string>;
  getCheckpoint(source: string): Promise<IngestCheckpoint | undefined>;
  setCheckpoint(cp: IngestCheckpoint): Promise<void>;
  clearCheckpoint(source: string): Promise<void>;
  /**
   * Ingests begun and not finished (their checkpoints, as the writer last saved them): what searches and
   * health report as an index still being built or left part-built (issue 45). Engines without it
   * report nothing.
   */
  unfinishedIngests?(): Promise<IngestCheckpoint[]>;
  close(): Promise<void>;
}
