/**
 * The narrow contract between the server and the citation audit: what the job runner and the
 * citation-check route call. Each audited citation comes back as the editors' view (audit/citation-view.ts),
 * which the API returns and the web page draws. audit-side.ts implements it on the citation audit module;
 * tests may inject their own.
 */
import type { CitationView } from '../audit/citation-view.js';
import type { AuditInput, AuditProvenance } from '../audit/types.js';

export interface AuditRunOptions {
  signal: AbortSignal;
  /** Citation ids audited already (a resumed job): skipped. */
  skip: ReadonlySet<string>;
  /** Called once per audited citation, in the order they finish. */
  onCitation: (result: CitationView) => void;
}

export interface CitationCheckInput {
  claim: string;
  context?: string[];
  title?: string;
  sectionPath?: string[];
  /** The cited source: a URL (looked up in the index; fetched with --fetch) or its text. */
  source: { url: string; title?: string } | { text: string; title?: string };
  /** Suggestions wanted (0 = none). */
  suggestions: number;
}

export interface AuditService {
  /** For /v1/health: which implementation runs. */
  readonly name: string;
  /** Audits every citation of the article not in `opts.skip`; resolves when all are done. */
  auditArticle(article: AuditInput, opts: AuditRunOptions): Promise<void>;
  checkCitation(input: CitationCheckInput, signal?: AbortSignal): Promise<CitationView>;
  /** What produced the results (index snapshot, models, configuration and its hash, flag threshold), recorded on each job. */
  provenance?(): Promise<AuditProvenance>;
}
