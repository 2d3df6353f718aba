/**
 * The server's AuditService on the citation audit the composition root assembled (src/app/audit.ts):
 * the same engine, ranker, threshold and candidate retrieval as `veracite audit` with the same settings.
 * This adapter adds what a long-running service needs around it and turns each result into the editors'
 * view (audit/citation-view.ts).
 *
 * Citations are audited through `auditCitation` one by one (a few at a time, as `auditArticle` does)
 * rather than through `auditArticle`, because a job must be able to stop between citations (shutdown)
 * and to skip the citations a resumed job already has. Sources are resolved with one resolver per
 * article: the resolver memoises lookups for its lifetime, which is right for one article (pages cited
 * many times) and wrong for a server that runs for weeks.
 */
import type { AuditPipeline } from '../app/audit.js';
import { citationView, type CitationView } from '../audit/citation-view.js';
import { CitationAuditor } from '../audit/audit.js';
import type { AuditCitation, AuditInput, AuditProvenance, CitationAudit } from '../audit/types.js';
import type { Document } from '../corpus/types.js';
import { pageToDocument } from '../sources/page-text.js';
import type { ResolvedSource } from '../sources/types.js';
import type { CitationTags } from '../wiki/types.js';
import type { AuditRunOptions, AuditService, CitationCheckInput } from './audit-service.js';

const NO_TAGS: CitationTags = { failedVerification: false, citationNeeded: false, deadLink: false };

export class SideAuditService implements AuditService {
  readonly name: string;

  constructor(private readonly pipeline: AuditPipeline) {
    this.name = `side (scorer ${pipeline.deps.scorer.info.id})`;
  }

  private get auditor(): CitationAuditor {
    return this.pipeline.auditor;
  }

  async auditArticle(article: AuditInput, run: AuditRunOptions): Promise<void> {
    const resolver = this.pipeline.resolver();
    const todo = article.citations.filter((c) => !run.skip.has(c.id));
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        run.signal.throwIfAborted();
        const c = todo[next++]!;
        const resolved = await resolver.resolve(c.source);
        run.onCitation(await this.toView(c.source, resolved, await this.auditor.auditCitation(c, resolved, run.signal)));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.auditor.config.concurrency, todo.length)) }, worker));
  }

  provenance(): Promise<AuditProvenance> {
    return this.auditor.provenance();
  }

  async checkCitation(input: CitationCheckInput, signal?: AbortSignal): Promise<CitationView> {
    const src = input.source;
    let resolved: ResolvedSource;
    let source: AuditCitation['source'];
    if ('text' in src) {
      const document = pageToDocument(src.text, 'text', 'source:text', src.title ?? 'Source text');
      resolved = document.sentences.length ? { status: 'found', document, attempts: [] } : { status: 'unsupported', reason: 'no sentences in the source text', attempts: [] };
      source = { raw: src.text.length > 200 ? `${src.text.slice(0, 200)}…` : src.text, ...(src.title ? { title: src.title } : {}) };
    } else {
      source = { raw: src.url, url: src.url, ...(src.title ? { title: src.title } : {}) };
      resolved = await this.pipeline.resolver().resolve(source);
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
    const auditor = new CitationAuditor(this.pipeline.deps, { ...this.auditor.config, recommend: { ...recommend, enabled: recommend.enabled && input.suggestions > 0, suggestions: Math.max(1, input.suggestions) } });
    return this.toView(source, resolved, await auditor.auditCitation(c, resolved, signal));
  }

  private async toView(source: AuditCitation['source'], resolved: ResolvedSource, r: CitationAudit): Promise<CitationView> {
    const ids = (r.recommendations?.suggestions ?? []).map((s) => s.docId);
    const store = this.pipeline.deps.store;
    const docs = new Map<string, Document>(store && ids.length ? (await store.getDocuments(ids)).map((d) => [d.id, d]) : []);
    return citationView(source, resolved, r, this.auditor.flagSignal, docs);
  }
}
