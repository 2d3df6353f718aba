/**
 * Where search answers are read. Two implementations of one interface, as documents have
 * (documents/document-reader.ts):
 *
 *   - workerAnswerReader: one worker thread (util/worker-pool.ts) under a time and heap budget; an answer
 *     over either is that provider's failure (named, never cached), its worker replaced. The composition
 *     root gives every SearchClient this one, so the server's event loop only posts the body and waits.
 *   - inThreadAnswerReader: the same readers on the calling thread, no budget (library users, unit tests).
 */
import { startModuleWorker } from '../util/module-worker.js';
import { WorkerPool, type WorkerBudget } from '../util/worker-pool.js';
import type { AnswerOutcome, AnswerTask } from './answer-readers.js';

export interface AnswerReader {
  read(task: AnswerTask): Promise<AnswerOutcome>;
  close(): Promise<void>;
}

/**
 * A page of search results is read in well under a second even at the 4 MB cap; 10 s and 512 MB leave room
 * on a loaded machine and still end a hostile answer (a parse that explodes in memory) as a failure.
 */
export const DEFAULT_ANSWER_BUDGET: WorkerBudget = { timeMs: 10_000, heapMb: 512 };

export function inThreadAnswerReader(): AnswerReader {
  // Loaded on first use: the readers bring every provider's schema.
  return { read: async (t) => (await import('./answer-readers.js')).readAnswer(t), close: async () => undefined };
}

export function workerAnswerReader(budget: WorkerBudget = DEFAULT_ANSWER_BUDGET): AnswerReader {
  const pool = new WorkerPool({
    start: (limits) => startModuleWorker(import.meta.url, 'answer-worker', {}, limits),
    size: 1,
    budget,
    // No flag raises these: an answer this large or this slow to read is not a page of search results.
    flags: { time: '', memory: '' },
    what: 'reading the search answer',
    unit: 'search answer',
  });
  return { read: (t) => pool.run<AnswerOutcome>('read', t), close: () => pool.close() };
}
