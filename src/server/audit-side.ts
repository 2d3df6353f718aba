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
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AuditPipeline } from '../app/audit.js';
import type { CitationView } from '../audit/citation-view.js';
import type { CitationAuditor } from '../audit/audit.js';
import { checkSource, citationViewOf } from '../app/check-source.js';
import type { AuditInput, AuditProvenance } from '../audit/types.js';
import type { AuditRunOptions, AuditService, CitationCheckInput } from './audit-service.js';

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
        run.onCitation(await citationViewOf(this.pipeline, c.source, resolved, await this.auditor.auditCitation(c, resolved, run.signal)));
        // a turn of the event loop between citations: requests waiting behind a long audit are answered
        await nextTurn();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.auditor.config.concurrency, todo.length)) }, worker));
  }

  provenance(): Promise<AuditProvenance> {
    return this.auditor.provenance();
  }

  async checkCitation(input: CitationCheckInput, signal?: AbortSignal): Promise<CitationView> {
    return (await checkSource(this.pipeline, input, signal)).view;
  }
}
