/**
 * Ingest: read a source, fix its sentences, chunk passages and write them to a store in batches.
 *
 * Safety: a batch is committed before the checkpoint that covers it is written, so a crash or kill -9
 * loses at most the batch in flight, and the next run resumes from the checkpoint (re-writing that batch
 * is harmless because writes are upserts). SIGINT (via `signal`) stops after the batch in flight.
 * Speed: while LanceDB commits batch N on its native threads, the JS thread prepares batch N+1.
 */
import { resolve } from 'node:path';
import { chunkPassages } from '../corpus/passages.js';
import { prepareDocument } from '../corpus/prepare.js';
import { readCorpus, detectFormat } from '../corpus/read-corpus.js';
import { sourceFingerprint } from '../corpus/source-files.js';
import { RecordError, SourceReadError, type CorpusFormat, type ReadOptions, type WikiPageEvent } from '../corpus/types.js';
import { readLines } from '../corpus/read-lines.js';
import { redirectTargetId, wikiPageId } from '../corpus/wiki-pages.js';
import { IdHashSet } from './id-hash-set.js';
import type { Embedder } from '../models/types.js';
import { searchTextOf } from './arrow-batch.js';
import type { EmbeddingCache } from './embedding-cache.js';
import type { DocumentWithPassages, Store, TitleAlias, TitleAliasStore } from './types.js';

export interface IngestOptions {
  format?: CorpusFormat | 'auto';
  /** Passage size in words (default 100). */
  maxWords?: number;
  /** Documents per committed batch (default 2000). */
  batchSize?: number;
  onError?: 'skip' | 'stop';
  /** Resume from the checkpoint of an interrupted run of the same unchanged source (default true). */
  resume?: boolean;
  /** Build the BM25 index at the end (default true). */
  buildIndex?: boolean;
  signal?: AbortSignal;
  /** Dense retrieval: embed every passage (title + text) with this embedder and store the vectors. */
  embedder?: Embedder;
  /** Skips re-embedding text seen before with the same model. */
  embeddingCache?: EmbeddingCache;
  onProgress?: (p: IngestProgress) => void;
  /** Receives each skipped bad record (for logging). */
  onRecordError?: (e: RecordError) => void;
  /** MediaWiki XML: wikitext -> prose (the wiki layer's parser; Veracite.ingest passes it). */
  wikitextToText?: ReadOptions['wikitextToText'];
  /** Language code of the text (`en`, `de`): the full-text analyzer follows it. Dumps name their own. */
  lang?: string;
  /**
   * Apply a Wikimedia dump as an update of the index: pages read replace their documents (as any ingest
   * does), pages that became redirects or disambiguation pages are removed; with 'full' (a complete later
   * dump) every document of the same wiki that the dump no longer holds is removed too.
   */
  update?: 'changes' | 'full';
  /** A file of page titles (or ids) to remove, one a line (`#` comments): deletions an adds-changes dump cannot say. */
  deletions?: string;
  /** Dumps: compressed bytes read and total (for an ETA when the page count is unknown). */
  onBytes?: (read: number, total: number) => void;
  /** MediaWiki multistream dumps: the index file and the read workers (see ReadOptions). */
  indexFile?: string;
  readWorkers?: number;
  /** MediaWiki XML and CirrusSearch: the most one page may take (see ReadOptions.maxPageBytes). */
  maxPageBytes?: number;
}

export interface IngestProgress {
  records: number;
  documents: number;
  passages: number;
  skipped: number;
  phase: 'reading' | 'deleting' | 'indexing' | 'done';
}

export interface IngestSummary {
  source: string;
  format: CorpusFormat;
  /** Records read in this run (including skipped ones). */
  records: number;
  /** Documents new to the index written by this run. */
  documents: number;
  /**
   * Records that replaced a document of the same id: one already in the index (a re-index, or the batch a
   * crashed run committed without its checkpoint) or one earlier in this source (a duplicate id).
   */
  replaced: number;
  /** Records written by this run (documents + replaced); 0 with records > 0 means nothing could be indexed. */
  indexed: number;
  passages: number;
  sentences: number;
  skipped: number;
  /** The first bad records (at most 20), for the summary. */
  errors: string[];
  resumedFrom: number;
  interrupted: boolean;
  seconds: number;
  indexSeconds: number;
  docsPerSecond: number;
  passagesPerSecond: number;
  /** What happened to the vector index: built, refreshed, or exact search (small table). */
  vectorIndex?: string;
  /** Dumps: redirect and disambiguation pages seen (recorded, not indexed) in this run's part of the source. */
  redirects?: number;
  disambiguations?: number;
  /** Updates: documents removed (deleted pages, pages now redirects, pages gone from a complete dump). */
  deleted?: number;
}

/** A store that can apply updates (remove documents, list them) and analyse another language. */
interface UpdatableStore extends Store {
  deleteDocuments(ids: string[]): Promise<number>;
  documentKeys(): AsyncIterable<{ id: string; url?: string }[]>;
  setTextLanguage(lang: string): Promise<void>;
}

function updatable(store: Store): UpdatableStore | undefined {
  const s = store as Partial<UpdatableStore>;
  return typeof s.deleteDocuments === 'function' && typeof s.documentKeys === 'function' && typeof s.setTextLanguage === 'function' ? (store as UpdatableStore) : undefined;
}

/** A store that records redirects and disambiguation pages (LanceDB); others only count them. */
function aliasStoreOf(store: Store): TitleAliasStore | undefined {
  const s = store as Partial<TitleAliasStore>;
  return typeof s.putTitleAliases === 'function' && typeof s.deleteTitleAliases === 'function' && typeof s.deleteRedirectsTo === 'function' && typeof s.titleAliases === 'function' ? (store as unknown as TitleAliasStore) : undefined;
}

/** `https://de.wikipedia.org/wiki/` -> `de`. */
function langOfBase(base: string | undefined): string | undefined {
  return base ? /^https?:\/\/([a-z-]+)\.wikipedia\.org\//.exec(base)?.[1] : undefined;
}

/** Ids of a deletions file: page titles or ids, one a line; blank lines and `#` comments ignored. */
async function readDeletions(path: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const { text } of readLines(path)) {
    const t = text.trim();
    if (t && !t.startsWith('#')) ids.push(wikiPageId(t));
  }
  return ids;
}

/**
 * Why a finished run should count as a failure (for a non-zero exit), or undefined when it indexed
 * something or had nothing new to read: every record was skipped, or the source held no records at all.
 */
export function ingestProblem(s: IngestSummary): string | undefined {
  if (s.interrupted || s.indexed > 0) return undefined;
  if (s.records === 0) return s.resumedFrom > 0 ? undefined : `${s.source}: no records found (read as ${s.format})`;
  const first = s.errors[0] ? `; first: ${s.errors[0]}` : '';
  return `${s.source}: none of its ${s.records} records could be indexed (${s.skipped} skipped as ${s.format} records${first}); check --format (read as ${s.format}) and the input`;
}

export async function ingestSource(store: Store, path: string, opts: IngestOptions = {}): Promise<IngestSummary> {
  const started = performance.now();
  const abs = resolve(path);
  const format = !opts.format || opts.format === 'auto' ? await detectFormat(abs) : opts.format;
  const maxWords = opts.maxWords ?? 100;
  const batchSize = opts.batchSize ?? 2000;
  const onError = opts.onError ?? 'skip';
  const key = `${format}:${abs}`;
  const print = await sourceFingerprint(abs, format);

  // The vectors' embedder is part of the index: dense queries and the source ranker read it back.
  if (opts.embedder) await store.setSetting('embedder', opts.embedder.info);

  const dump = format === 'mediawiki' || format === 'cirrus';
  const writer = updatable(store);
  if ((opts.update || opts.deletions) && !writer) throw new Error(`${abs}: this index engine (${store.engine}) cannot remove documents; apply updates to a LanceDB index`);
  if (opts.update && !dump) throw new Error(`${abs}: --update applies a Wikimedia dump (--format mediawiki or cirrus), not ${format}`);
  if (opts.indexFile && format !== 'mediawiki') throw new Error(`${abs}: --index-file is the index of a multistream MediaWiki dump (--format mediawiki), not of ${format}`);
  if (opts.lang && !writer) throw new Error(`${abs}: --lang needs a LanceDB index (this engine, ${store.engine}, has its own analyzer settings)`);

  let resumedFrom = 0;
  const cp = await store.getCheckpoint(key);
  if (cp && opts.resume !== false && cp.fingerprint === print && cp.maxWords === maxWords) resumedFrom = cp.records;

  const summary: IngestSummary = {
    source: abs, format, records: 0, documents: 0, replaced: 0, indexed: 0, passages: 0, sentences: 0, skipped: 0, errors: [],
    resumedFrom, interrupted: false, seconds: 0, indexSeconds: 0, docsPerSecond: 0, passagesPerSecond: 0,
    ...(dump ? { redirects: 0, disambiguations: 0 } : {}),
    ...(opts.update || opts.deletions ? { deleted: 0 } : {}),
  };
  // Dumps: what the reader saw of every page. Redirects and disambiguation pages are recorded as title
  // aliases (a store that can), not indexed; in an update a page that became one is removed from the
  // documents, and a page that is an article again loses its alias. A complete dump's pages are
  // remembered (8 bytes an id) to find the pages it no longer holds.
  let wikiBase: string | undefined;
  let pendingDeletes: string[] = [];
  const aliasStore = dump ? aliasStoreOf(store) : undefined;
  // Alias writes in page order, the last per page winning: an alias, or null to remove one.
  let pendingAliases = new Map<string, TitleAlias | null>();
  // Update of a dump that lists each page's redirects with it (CirrusSearch): redirects to these pages are
  // replaced by the ones just listed.
  let relisted: string[] = [];
  const seen = opts.update === 'full' ? new IdHashSet(1 << 20) : undefined;
  const onPage = (p: WikiPageEvent) => {
    wikiBase ??= p.wikiBase;
    seen?.add(p.id);
    if (opts.update && aliasStore && p.redirectsListed && !p.resumed) relisted.push(p.id);
    if (p.kind === 'article') {
      if (opts.update && aliasStore && !p.resumed) pendingAliases.set(p.id, null);
      return;
    }
    if (p.kind === 'redirect') summary.redirects!++;
    else summary.disambiguations!++;
    if (opts.update) pendingDeletes.push(p.id);
    // A resumed run's skipped pages: their aliases were committed with the checkpoint it resumes from.
    if (aliasStore && !p.resumed) {
      const alias: TitleAlias = { id: p.id, title: p.title, kind: p.kind, ...(p.kind === 'redirect' && p.target ? { target: redirectTargetId(p.target) } : {}), ...(p.wikiBase ? { wiki: p.wikiBase } : {}) };
      pendingAliases.delete(p.id);
      pendingAliases.set(p.id, alias);
    }
  };
  const applyDeletes = async () => {
    // Taken together, before any await: events that arrive meanwhile (the reader goes on) belong to the
    // next call, so a page's relisting and its listed redirects are never split between two calls.
    const ids = pendingDeletes;
    const targets = relisted;
    const ops = pendingAliases;
    pendingDeletes = [];
    relisted = [];
    pendingAliases = new Map();
    if (writer && ids.length) summary.deleted! += await writer.deleteDocuments(ids);
    if (!aliasStore) return;
    // Redirects to relisted pages go first; the puts below hold the ones they list now.
    if (targets.length) await aliasStore.deleteRedirectsTo(targets);
    const gone = [...ops].filter(([, a]) => a === null).map(([id]) => id);
    if (gone.length) await aliasStore.deleteTitleAliases(gone);
    const put = [...ops.values()].filter((a): a is TitleAlias => a !== null);
    if (put.length) await aliasStore.putTitleAliases(put);
  };

  // The analyzer is set before the first write: one index, one language.
  let languageSet = false;
  const setLanguage = async () => {
    if (languageSet) return;
    languageSet = true;
    const lang = opts.lang ?? langOfBase(wikiBase);
    if (lang && writer) await writer.setTextLanguage(lang);
  };
  // A deletions file is applied before any page of the update is written, so a page deleted and then
  // created again in the same period survives; a resumed run has applied it already.
  if (opts.deletions && writer && resumedFrom === 0) {
    const ids = await readDeletions(opts.deletions);
    summary.deleted! += await writer.deleteDocuments(ids);
    // A deleted redirect or disambiguation page is no alias any more.
    await aliasStore?.deleteTitleAliases(ids);
  }
  const progress = (phase: IngestProgress['phase']) =>
    opts.onProgress?.({ records: resumedFrom + summary.records, documents: summary.documents, passages: summary.passages, skipped: summary.skipped, phase });

  let batch: DocumentWithPassages[] = [];
  let inFlight: Promise<void> | undefined;
  const embed = async (items: DocumentWithPassages[]) => {
    if (!opts.embedder) return;
    const texts = items.flatMap((i) => i.passages.map((p) => searchTextOf(p.title, p.text)));
    const vectors = opts.embeddingCache ? await opts.embeddingCache.embed(opts.embedder, texts) : await opts.embedder.embed(texts);
    let at = 0;
    for (const item of items) {
      item.vectors = vectors.slice(at, at + item.passages.length);
      at += item.passages.length;
    }
  };
  const commit = async (items: DocumentWithPassages[], recordsDone: number) => {
    await setLanguage();
    await embed(items);
    const r = await store.upsert(items);
    const replaced = r ? r.replaced : 0;
    summary.replaced += replaced;
    summary.documents += items.length - replaced;
    summary.indexed += items.length;
    // Removals the pages read so far call for, committed before the checkpoint that covers them (a resumed
    // run reports the skipped pages again, so nothing is lost by a kill in between).
    await applyDeletes();
    await store.setCheckpoint({ source: key, records: recordsDone, updatedAt: new Date().toISOString(), fingerprint: print, maxWords });
  };
  const flush = async () => {
    if (inFlight) await inFlight;
    inFlight = undefined;
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    const pending = commit(items, resumedFrom + summary.records);
    // Handled now: the loop awaits it only at the next flush, and a failure while the next batch is being
    // read must surface there (as this function's error), not kill the process as an unhandled rejection.
    pending.catch(() => undefined);
    inFlight = pending;
  };

  try {
    const readOpts: ReadOptions = { skip: resumedFrom, ...(dump ? { onPage } : {}) };
    if (opts.wikitextToText) readOpts.wikitextToText = opts.wikitextToText;
    if (opts.lang) readOpts.lang = opts.lang;
    if (opts.onBytes) readOpts.onBytes = opts.onBytes;
    if (opts.indexFile) readOpts.indexFile = opts.indexFile;
    if (opts.readWorkers !== undefined) readOpts.readWorkers = opts.readWorkers;
    if (opts.maxPageBytes !== undefined) readOpts.maxPageBytes = opts.maxPageBytes;
    for await (const r of readCorpus(abs, format, readOpts)) {
      summary.records++;
      if (!r.ok) {
        summary.skipped++;
        if (summary.errors.length < 20) summary.errors.push(r.error.message);
        opts.onRecordError?.(r.error);
        if (onError === 'stop') throw r.error;
        continue;
      }
      const doc = prepareDocument(r.doc);
      const passages = chunkPassages(doc, { maxWords });
      batch.push({ doc, passages });
      summary.passages += passages.length;
      summary.sentences += doc.sentences.length;
      if (batch.length >= batchSize) {
        await flush();
        progress('reading');
        if (opts.signal?.aborted) {
          summary.interrupted = true;
          break;
        }
      }
    }
    await flush();
    if (inFlight) await inFlight;
  } catch (e) {
    // Keep what was read before the bad record or failure: commit it, then report. A failed commit is the
    // error that matters (the store refused a write); a bad record is reported after its batch is kept.
    const failedCommit = inFlight ? await inFlight.then(() => undefined, (x: unknown) => x ?? new Error('commit failed')) : undefined;
    inFlight = undefined;
    if (failedCommit) throw failedCommit;
    if (e instanceof RecordError && batch.length) {
      await commit(batch, resumedFrom + summary.records - 1);
      batch = [];
    }
    // A source unreadable past a point (issue 45): every record before it is committed, and the full-text
    // index is built over them, so search finds them; the checkpoint stays (the ingest is unfinished, and
    // searches say so) and a run over the same unchanged source resumes after them.
    if (e instanceof SourceReadError) throw await keepReadWork(e);
    throw e;
  }
  async function keepReadWork(e: SourceReadError): Promise<SourceReadError> {
    if (batch.length) {
      await commit(batch, resumedFrom + summary.records);
      batch = [];
    }
    const kept = resumedFrom + summary.records - summary.skipped;
    if (kept > 0 && opts.buildIndex !== false) {
      progress('indexing');
      await store.buildTextIndex();
    }
    const how = kept > 0
      ? `the ${kept} record${kept === 1 ? '' : 's'} before it ${kept === 1 ? 'is' : 'are'} indexed and searchable; the ingest is unfinished (searches say so until it completes). Repair the file at that line or download it again, then run the same command: pages already indexed are replaced, not duplicated`
      : 'nothing before it could be indexed; repair the file at that line or download it again';
    return new SourceReadError(e.file, e.line, `${e.message}; ${how}`, { cause: e });
  }

  if (!summary.interrupted) {
    await setLanguage();
    await applyDeletes();
    if (seen && writer) {
      // A complete dump: documents (and redirects, disambiguation pages) of the same wiki it no longer holds
      // were deleted (or renamed) since.
      progress('deleting');
      const gone: string[] = [];
      if (wikiBase) for await (const keys of writer.documentKeys()) for (const k of keys) if (k.url?.startsWith(wikiBase) && !seen.has(k.id)) gone.push(k.id);
      pendingDeletes = gone;
      await applyDeletes();
      if (aliasStore && wikiBase) {
        const stale: string[] = [];
        for await (const aliases of aliasStore.titleAliases()) for (const a of aliases) if (a.wiki === wikiBase && !seen.has(a.id)) stale.push(a.id);
        await aliasStore.deleteTitleAliases(stale);
      }
    }
    if (opts.buildIndex !== false) {
      progress('indexing');
      const t = performance.now();
      await store.buildTextIndex();
      if (opts.embedder) summary.vectorIndex = await store.buildVectorIndex();
      summary.indexSeconds = (performance.now() - t) / 1000;
    }
    // Cleared only once the indexes are built: a kill during the build resumes at the build, instead of
    // re-reading the whole source.
    await store.clearCheckpoint(key);
  }
  progress('done');
  summary.seconds = (performance.now() - started) / 1000;
  summary.docsPerSecond = summary.documents / summary.seconds;
  summary.passagesPerSecond = summary.passages / summary.seconds;
  return summary;
}
