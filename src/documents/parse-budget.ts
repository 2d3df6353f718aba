/**
 * The parse budgets' defaults and flags, in a file of their own: the settings (and so the command line's
 * help) read them without loading the readers.
 */
import { DEFAULT_PDF_MAX_INFLATED_BYTES, DEFAULT_PDF_MAX_TEXT_CHARS } from '../corpus/pdf-limits.js';
import type { BudgetFlags, WorkerBudget } from '../util/worker-pool.js';
import type { PdfLimitOptions } from './content-types.js';

export interface ParseBudget extends WorkerBudget {
  pdf: Required<PdfLimitOptions>;
}

/** Defaults: a 2 MB heading-less article reads in ~4 CPU s, a 10 MB one in ~12 s (docs/RESULTS-HISTORY.md). */
export const DEFAULT_PARSE_BUDGET: ParseBudget = {
  timeMs: 60_000,
  heapMb: 1024,
  pdf: { maxInflatedBytes: DEFAULT_PDF_MAX_INFLATED_BYTES, maxTextChars: DEFAULT_PDF_MAX_TEXT_CHARS },
};

export const PARSE_BUDGET_FLAGS: BudgetFlags = { time: '--parse-timeout SECONDS', memory: '--parse-memory MB' };
