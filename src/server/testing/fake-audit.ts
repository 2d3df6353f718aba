/**
 * A scripted AuditService for the job tests: each citation takes `delayMs` (abortable), its score is a
 * fixed function of its position, and the service records which citations it was asked to audit
 * (resume tests) and can be held at a gate (shutdown tests).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditCitation, AuditInput } from '../../audit/types.js';
import type { CitationView } from '../../audit/citation-view.js';
import type { AuditRunOptions, AuditService, CitationCheckInput } from '../audit-service.js';

export function fakeResult(c: AuditCitation): CitationView {
  const score = ((c.index * 37) % 10) / 10;
  return {
    citationId: c.id,
    index: c.index,
    claim: c.claim,
    context: c.context,
    sectionPath: c.sectionPath,
    source: c.source,
    tags: c.tags,
    sourceStatus: 'found',
    verifiability: score,
    failedVerification: score < 0.3,
    existing: { docId: `existing-${c.index}`, title: `Existing ${c.index}`, sentences: [{ index: 0, text: `Existing source text ${c.index}.`, evidence: true, score }] },
    suggestions: [{ docId: `suggested-${c.index}`, title: `Suggested ${c.index}`, score: score + 0.1, sentences: [{ index: 0, text: `Suggested source text ${c.index}.`, evidence: true, score: score + 0.1 }] }],
  };
}

export class FakeAuditService implements AuditService {
  readonly name = 'fake';
  /** Citation ids audited, in order, across every run. */
  readonly audited: string[] = [];
  gate: Promise<void> | undefined;
  /** Throw when reaching the citation at this position (failed-job tests). */
  failAt: number | undefined;

  constructor(public delayMs = 20) {}

  async auditArticle(article: AuditInput, run: AuditRunOptions): Promise<void> {
    for (const c of article.citations) {
      if (run.skip.has(c.id)) continue;
      run.signal.throwIfAborted();
      if (this.gate) await this.gate;
      await sleep(this.delayMs, undefined, { signal: run.signal });
      if (c.index === this.failAt) throw new Error(`scorer failed on citation ${c.index}`);
      this.audited.push(c.id);
      run.onCitation(fakeResult(c));
    }
  }

  async checkCitation(input: CitationCheckInput): Promise<CitationView> {
    const tags = { failedVerification: false, citationNeeded: false, deadLink: false };
    return fakeResult({ id: 'check', index: 0, claim: input.claim, context: input.context ?? [], sectionPath: [], articleTitle: '', source: { raw: 'url' in input.source ? input.source.url : 'text' }, tags });
  }
}
