/**
 * The server's AuditService on the citation audit module (src/audit, SIDE): CitationAuditor scores each
 * citation's source and recommends better ones; this adapter adds what a long-running service needs
 * around it and turns its report into the API's per-citation shape.
 *
 * Citations are audited through `auditCitation` one by one (a few at a time, as `auditArticle` does)
 * rather than through `auditArticle`, because a job must be able to stop between citations (shutdown)
 * and to skip the citations a resumed job already has. Sources are resolved with one resolver per
 * article: the resolver memoises lookups for its lifetime, which is right for one article (pages cited
 * many times) and wrong for a server that runs for weeks.
 */
import { join } from 'node:path';
import {
  CitationAuditor,
  DEFAULT_SCORING,
  defaultCalibrationPath,
  flagRule,
  loadAuditScorer,
  loadCalibration,
  loadRankerDeps,
  findCalibration,
  scoringHash,
  type AuditCitation,
  type AuditDeps,
  type AuditInput,
  type CitationAudit as SideCitationAudit,
} from '../audit/index.js';
import type { ModelInfo } from '../models/types.js';
import type { Retriever } from '../retrieve/retriever.js';
import { PageCache } from '../sources/page-cache.js';
import { pageToDocument } from '../sources/page-text.js';
import { SourceResolver } from '../sources/resolve-source.js';
import type { ResolvedSource } from '../sources/types.js';
import type { Store } from '../store/types.js';
import type { CitationTags } from '../wiki/types.js';
import type { AuditRunOptions, AuditService, CitationAudit, CitationCheckInput, Suggestion } from './audit-service.js';
import { sourceView } from './source-view.js';

const NO_TAGS: CitationTags = { failedVerification: false, citationNeeded: false, deadLink: false };

export interface SideAuditOptions {
  store: Store;
  retriever: Retriever;
  /** 'trained' (default), 'lexical' (no model), or an ONNX cross-encoder. */
  scorer?: string;
  /** The index folder, where the source ranker's corpus statistics are cached. */
  indexDir?: string;
  /** Live fetch of sources (SSRF-guarded), cached under `cacheDir`. */
  fetch?: boolean;
  cacheDir?: string;
}

export class SideAuditService implements AuditService {
  readonly name: string;

  private readonly auditor: CitationAuditor;

  private constructor(
    private readonly deps: AuditDeps,
    private readonly opts: SideAuditOptions,
  ) {
    this.auditor = new CitationAuditor(deps);
    this.name = `side (scorer ${deps.scorer.info.id})`;
  }

  static async create(opts: SideAuditOptions): Promise<SideAuditService> {
    const embedder = opts.retriever.embedder;
    const loaded = await loadAuditScorer(opts.scorer ?? 'trained', embedder ? { embedder } : {});
    const { scorer } = loaded;
    // The source ranker when its weights fit this engine; otherwise the engine's score orders sources.
    const ranked = await loadRankerDeps(undefined, loaded, opts.store, opts.indexDir);
    const mode = embedder && (await opts.store.vectorDimension()) ? 'hybrid' : 'bm25';
    // Flags only with a threshold calibrated for this scorer; otherwise scores without flags (the
    // calibration module says why in the job's provenance).
    const ranker = 'ranker' in ranked ? ranked.ranker.info : undefined;
    const calibration =
      (ranker && (await findCalibration(scoringHash(scorer.info, DEFAULT_SCORING, 'none', ranker), undefined, false))) ??
      (await loadCalibration(defaultCalibrationPath()).catch(() => undefined));
    const flag = flagRule(calibration ? { calibration } : {}, { scorer: scorer.info, scoring: DEFAULT_SCORING, queryContext: 'none', ...(ranker ? { ranker } : {}) });
    const models: ModelInfo[] = [scorer.info, ...(embedder && mode === 'hybrid' ? [embedder.info] : []), ...('ranker' in ranked ? [ranked.ranker.info] : [])];
    // The deps' resolver is never used: every call passes the source it resolved (see resolver()).
    return new SideAuditService({ scorer, resolver: new SourceResolver(), store: opts.store, retriever: opts.retriever, retrievalMode: mode, models, flag, ...('ranker' in ranked ? { ranker: ranked } : {}) }, opts);
  }

  private resolver(): SourceResolver {
    const fetch = this.opts.fetch ? (this.opts.cacheDir ? { cache: new PageCache(this.opts.cacheDir) } : {}) : undefined;
    return new SourceResolver({ store: this.opts.store, ...(fetch ? { fetch } : {}) });
  }

  async auditArticle(article: AuditInput, run: AuditRunOptions): Promise<void> {
    const resolver = this.resolver();
    const todo = article.citations.filter((c) => !run.skip.has(c.id));
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        run.signal.throwIfAborted();
        const c = todo[next++]!;
        const resolved = await resolver.resolve(c.source);
        run.onCitation(await this.toApi(c.source, resolved, await this.auditor.auditCitation(c, resolved)));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.auditor.config.concurrency, todo.length)) }, worker));
  }

  async checkCitation(input: CitationCheckInput, signal?: AbortSignal): Promise<CitationAudit> {
    const src = input.source;
    let resolved: ResolvedSource;
    let source: AuditCitation['source'];
    if ('text' in src) {
      const document = pageToDocument(src.text, 'text', 'source:text', src.title ?? 'Source text');
      resolved = document.sentences.length ? { status: 'found', document, attempts: [] } : { status: 'unsupported', reason: 'no sentences in the source text', attempts: [] };
      source = { raw: src.text.length > 200 ? `${src.text.slice(0, 200)}…` : src.text, ...(src.title ? { title: src.title } : {}) };
    } else {
      source = { raw: src.url, url: src.url, ...(src.title ? { title: src.title } : {}) };
      resolved = await this.resolver().resolve(source);
    }
    signal?.throwIfAborted();
    const c: AuditCitation = {
      id: 'check',
      index: 0,
      claim: input.claim,
      context: input.context ?? [],
      sectionPath: input.sectionPath ?? [],
      articleTitle: input.title ?? '',
      source,
      tags: NO_TAGS,
    };
    // The suggestion count is per request: a throw-away auditor with that setting (construction is free).
    const { recommend } = this.auditor.config;
    const auditor = new CitationAuditor(this.deps, { ...this.auditor.config, recommend: { ...recommend, enabled: input.suggestions > 0, suggestions: input.suggestions } });
    return this.toApi(source, resolved, await auditor.auditCitation(c, resolved));
  }

  /** The audit's report of a citation -> the API's shape, with the sentences editors see. */
  private async toApi(source: AuditCitation['source'], resolved: ResolvedSource, r: SideCitationAudit): Promise<CitationAudit> {
    // One scale for the cited source and its suggestions: the one the flags use.
    const byRanker = this.auditor.flagSignal === 'ranker' && r.verification?.rankerScore !== undefined && r.recommendations?.rankedBy !== 'verification';
    const sugg = r.recommendations?.suggestions ?? [];
    const docs = new Map((await this.opts.store.getDocuments(sugg.map((s) => s.docId))).map((d) => [d.id, d]));
    const suggestions: Suggestion[] = sugg
      .filter((s) => docs.has(s.docId))
      .map((s) => ({ ...sourceView(docs.get(s.docId)!, s.evidence), score: byRanker ? s.rerankScore : s.score }));
    const out: CitationAudit = {
      citationId: r.id,
      index: r.index,
      claim: r.claim,
      context: r.context,
      sectionPath: r.sectionPath,
      source,
      tags: r.tags,
      sourceStatus: r.source.status,
      verifiability: (byRanker ? r.verification?.rankerScore : r.verification?.score) ?? null,
      scoreSignal: byRanker ? 'ranker' : 'engine',
      failedVerification: r.verification?.flagged ?? false,
      suggestions,
      ms: Math.round(r.timingsMs.source + r.timingsMs.retrieve + r.timingsMs.score + r.timingsMs.rank),
    };
    if (r.source.reason && r.source.status !== 'found') out.sourceReason = r.source.reason;
    if (resolved.document && r.verification) out.existing = sourceView(resolved.document, r.verification.evidence);
    return out;
  }
}

export function pageCacheDir(dataDir: string): string {
  return join(dataDir, 'page-cache');
}
