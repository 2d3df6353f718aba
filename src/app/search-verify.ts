/**
 * Verification without an index (issue 37): the claim's queries go to the search providers the settings
 * name, the sources found are read (search/collect.ts: Wikipedia's text, papers' abstracts or open full
 * text, pages through the source resolver: SSRF guard, HTML reader, PDFs, page cache), split into passages
 * in an in-memory index (store/memory, which ranks as LanceDB does), and verified by the same document
 * retrieval, evidence selection and verdict as an index's, with the same models. An index given too is
 * searched alongside: its candidate documents join the found ones. Every evidence sentence and candidate
 * document carries its URL; the verdict says which provider and query found each source, and names every
 * provider that failed.
 *
 * Reproducible: every answer and page is in the cache (`--cache`), `--offline` replays it, and the
 * provenance's snapshot is a hash of the texts verified (the same texts give the same snapshot).
 */
import { createHash } from 'node:crypto';
import { chunkPassages } from '../corpus/passages.js';
import type { Document } from '../corpus/types.js';
import type { EntailmentModel, PairScorer } from '../models/types.js';
import { configHash } from '../provenance/config-hash.js';
import { Retriever } from '../retrieve/retriever.js';
import { searchSources, type FoundSource, type SearchReport, type SearchSourcesOptions } from '../search/collect.js';
import type { SearchProviderName } from '../search/types.js';
import { MemoryStore } from '../store/memory/memory-store.js';
import { retrieveDocuments } from '../verify/document-retrieval.js';
import type { Verdict } from '../verify/types.js';
import { Verifier, type DeepPartial, type VerifierConfig } from '../verify/verifier.js';
import { ServiceUnavailableError } from '../util/exit-codes.js';
import type { ProviderFailure } from '../search/types.js';

/** No provider could be asked: the claim could not be checked (exit 69), each failure named. */
export class CouldNotCheckError extends ServiceUnavailableError {
  constructor(readonly failures: ProviderFailure[]) {
    super(`could not check: every search provider failed: ${failures.map((f) => f.message).join('; ')}`);
    this.name = 'CouldNotCheckError';
  }
}

/** One source search found, as a verdict reports it. */
export interface SearchedSource {
  docId: string;
  url: string;
  title: string;
  /** Where its text came from: the page, a Wikipedia article's text, an abstract, an open full text, a snippet. */
  textFrom: FoundSource['textFrom'];
  /** Every provider and query that found it, best first. */
  foundBy: FoundSource['foundBy'];
}

export interface SearchVerdict extends Verdict {
  search: SearchReport & { sources: SearchedSource[] };
}

export interface SearchVerifierParts {
  models: { scorer: PairScorer; entailment: EntailmentModel };
  /** The verifier's settings (document count, evidence mode, rule), as for an index. */
  config: DeepPartial<VerifierConfig>;
  profile?: ConstructorParameters<typeof Verifier>[4];
  /** The search: client, page reader, budget; `providers` may be replaced per call. */
  search: Omit<SearchSourcesOptions, 'exclude' | 'excludeRead'>;
  /** Settings recorded in the provenance (providers, edition, budget). */
  searchConfig: Record<string, unknown>;
  /** An index searched alongside. */
  index?: Verifier;
}

export class SearchVerifier {
  constructor(private readonly parts: SearchVerifierParts) {}

  async verify(claim: string, opts: { signal?: AbortSignal; providers?: readonly SearchProviderName[] } = {}): Promise<SearchVerdict> {
    const { signal } = opts;
    const providers = opts.providers?.length ? opts.providers : this.parts.search.providers;
    const { sources, report } = await searchSources(claim, { ...this.parts.search, providers });
    signal?.throwIfAborted();
    // Every provider failed: nothing was searched, so no verdict ("NOT ENOUGH INFO" would claim a search found nothing).
    if (!this.parts.index && report.failures.length > 0 && report.failures.length >= report.providers.length) {
      throw new CouldNotCheckError(report.failures);
    }
    const docs: Document[] = sources.map((s) => s.document);
    const index = this.parts.index;
    if (index) {
      const found = await retrieveDocuments(index.store, index.retriever, claim, index.config.documents, signal);
      const have = new Set(docs.map((d) => d.id));
      for (const d of await index.store.getDocuments(found.map((f) => f.docId))) if (!have.has(d.id)) docs.push(d);
    }
    const store = new MemoryStore();
    if (docs.length) {
      await store.upsert(docs.map((doc) => ({ doc, passages: chunkPassages(doc) })));
      await store.buildTextIndex();
    }
    const verifier = new Verifier(store, new Retriever(store, () => Promise.reject(new Error('search verification ranks by BM25')), { mode: 'bm25' }), this.parts.models, {
      ...this.parts.config,
      documents: { ...this.parts.config.documents, mode: 'bm25' },
    }, this.parts.profile);
    const v = await verifier.verify(claim, signal);
    const urls = new Map(docs.map((d) => [d.id, d.url]));
    const withUrl = <T extends { docId: string }>(x: T): T & { url?: string } => {
      const url = urls.get(x.docId);
      return url ? { ...x, url } : x;
    };
    // The snapshot names the texts verified: the same answers and pages give the same snapshot.
    const texts = createHash('sha256');
    for (const d of docs) texts.update(`${d.id}\n${d.url ?? ''}\n${d.sentences.join('\n')}\n\n`);
    const config = { ...v.provenance.config, search: { ...this.parts.searchConfig, providers }, ...(index ? { index: await index.store.snapshot() } : {}) };
    return {
      ...v,
      evidence: v.evidence.map(withUrl),
      documents: v.documents.map(withUrl),
      ...(v.decidedBy ? { decidedBy: withUrl(v.decidedBy) } : {}),
      provenance: { ...v.provenance, snapshot: `search:${texts.digest('hex').slice(0, 16)}`, engine: 'search', config, configHash: configHash({ config, models: v.provenance.models }) },
      search: {
        ...report,
        sources: sources.map((s) => ({ docId: s.document.id, url: s.hit.url, title: s.document.title, textFrom: s.textFrom, foundBy: s.foundBy })),
      },
    };
  }
}
