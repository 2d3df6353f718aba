/**
 * Reading untrusted documents within budgets. Two implementations of one interface:
 *
 *   - workerDocumentReader: a small pool of worker threads (util/worker-pool.ts). Each document is read in
 *     a worker with a heap limit and a time limit; one over either is refused (BudgetError naming the limit
 *     and the flag that raises it), its worker replaced. The server reads every request body, uploaded file
 *     and fetched page this way, so no document can stall it; the CLI too, with the same budgets.
 *   - inThreadDocumentReader: the same functions on the calling thread (no time or heap limit; structural
 *     limits such as wikitext nesting and PDF inflation still hold). For library users and tests.
 */
import type { AuditInput } from '../audit/types.js';
import type { Document } from '../corpus/types.js';
import { startModuleWorker } from '../util/module-worker.js';
import { WorkerPool } from '../util/worker-pool.js';
import { DEFAULT_PARSE_BUDGET, PARSE_BUDGET_FLAGS, type ParseBudget } from './parse-budget.js';
import { readArticleContent, readPageContent, readPdfContent, type ArticleContent, type PageContent, type PdfContent, type PdfLimitOptions } from './read-content.js';

export type { ArticleContent, PageContent, PdfContent, PdfLimitOptions };
export { DEFAULT_PARSE_BUDGET, PARSE_BUDGET_FLAGS, type ParseBudget };

export interface DocumentReader {
  article(a: ArticleContent, signal?: AbortSignal): Promise<AuditInput>;
  page(p: PageContent, signal?: AbortSignal): Promise<Document>;
  pdf(p: PdfContent, signal?: AbortSignal): Promise<{ ok: true; document: Document } | { ok: false; reason: string; limit?: boolean }>;
  close(): Promise<void>;
}

export function inThreadDocumentReader(pdf: PdfLimitOptions = DEFAULT_PARSE_BUDGET.pdf): DocumentReader {
  return {
    article: (a) => readArticleContent({ ...a, pdf: a.pdf ?? pdf }),
    page: async (p) => readPageContent(p),
    pdf: (p) => readPdfContent({ ...p, pdf: p.pdf ?? pdf }),
    close: async () => undefined,
  };
}

export function workerDocumentReader(budget: ParseBudget = DEFAULT_PARSE_BUDGET, size = 2): DocumentReader {
  const pool = new WorkerPool({
    start: (limits) => startModuleWorker(import.meta.url, 'parse-worker', {}, limits),
    size,
    budget,
    flags: PARSE_BUDGET_FLAGS,
    what: 'reading the document',
  });
  const signalOf = (signal?: AbortSignal) => (signal ? { signal } : {});
  return {
    article: (a, signal) => pool.run<AuditInput>('article', { ...a, pdf: a.pdf ?? budget.pdf }, signalOf(signal)),
    page: (p, signal) => pool.run<Document>('page', p, signalOf(signal)),
    pdf: (p, signal) => pool.run('pdf', { ...p, pdf: p.pdf ?? budget.pdf }, signalOf(signal)),
    close: () => pool.close(),
  };
}
