/**
 * A parse worker (document-reader.ts starts it): reads one untrusted document at a time, off the
 * server's event loop, under the heap limit it was started with.
 */
import { parentPort } from 'node:worker_threads';
import { serveWorkerTasks } from '../util/worker-pool.js';
import { readArticleContent, readPageContent, readPdfContent, type ArticleContent, type PageContent, type PdfContent } from './read-content.js';

serveWorkerTasks(parentPort!, {
  article: (a: ArticleContent) => readArticleContent(a),
  page: (p: PageContent) => readPageContent(p),
  pdf: (p: PdfContent) => readPdfContent(p),
});
