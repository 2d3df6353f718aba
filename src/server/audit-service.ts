/**
 * The narrow contract between the server and the citation audit: what the job runner and the
 * citation-check route call. Each audited citation comes back as the editors' view (audit/citation-view.ts),
 * which the API returns and the web page draws. audit-side.ts implements it on the citation audit module;
 * tests may inject their own.
 */
import type { SourceCheckInput } from '../app/check-source.js';
import type { CitationView } from '../audit/citation-view.js';
import type { AuditInput, AuditProvenance } from '../audit/types.js';

export interface AuditRunOptions {
  signal: AbortSignal;
  /** Citation ids audited already (a resumed job): skipped. */
  skip: ReadonlySet<string>;
  /** Called once per audited citation, in the order they finish. */
  onCitation: (result: CitationView) => void;
}

/** One claim and its source (src/app/check-source.ts; the API gives the source as a URL or its text). */
export type CitationCheckInput = SourceCheckInput;

export interface AuditService {
  /** For /v1/health: which implementation runs. */
  readonly name: string;
  /** Audits every citation of the article not in `opts.skip`; resolves when all are done. */
  auditArticle(article: AuditInput, opts: AuditRunOptions): Promise<void>;
  checkCitation(input: CitationCheckInput, signal?: AbortSignal): Promise<CitationView>;
  /** What produced the results (index snapshot, models, configuration and its hash, flag threshold), recorded on each job. */
  provenance?(): Promise<AuditProvenance>;
}
