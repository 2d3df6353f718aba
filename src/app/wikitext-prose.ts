/**
 * Wikitext -> the prose an index holds, for the MediaWiki dump reader (src/corpus cannot import the wiki
 * layer): the wiki layer's parser, so templates, tables, references and infoboxes are handled exactly as
 * the audit handles them (infoboxes, tables and captions out of the prose, references out of sentences).
 * Loaded only when a dump is read.
 *
 * Parsing is most of the cost of reading a dump (measured: 270 articles a CPU-second with the parser, 1,400
 * without, on the sample articles), so a dump is parsed on worker threads (WikitextPool), one per core,
 * while the main thread decompresses, reads the XML and writes; the reader keeps pages in order.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../util/module-worker.js';

export type WikitextToText = (wikitext: string, title: string) => string | Promise<string>;

/** The parser on this thread (small inputs, tests). */
export async function wikitextProse(): Promise<(wikitext: string, title: string) => string> {
  const { parseWikitext } = await import('../wiki/parse-wikitext.js');
  return (wikitext, title) => parseWikitext(wikitext, { title, contextSentences: 0 }).text;
}

/** Whether an ingest of this path and format may read MediaWiki XML (and so needs the parser). */
export function mayReadMediawiki(path: string, format: string | undefined): boolean {
  return format === 'mediawiki' || ((format === undefined || format === 'auto') && /\.xml(-p\d+p\d+)?(\.bz2|\.gz)?$/i.test(path));
}

/** Worker threads running the parser; `convert` returns each page's prose, `close` ends the threads. */
export class WikitextPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, { resolve: (t: string) => void; reject: (e: Error) => void }>();
  private next = 0;
  private failed: Error | undefined;

  constructor(threads = Math.max(1, Math.min(8, availableParallelism()))) {
    for (let i = 0; i < threads; i++) {
      const w = startModuleWorker(import.meta.url, 'wikitext-worker', null);
      w.on('message', (m: { id: number; text?: string; error?: string }) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.text ?? '');
      });
      const fail = (e: Error) => {
        this.failed ??= e;
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
      };
      w.on('error', fail);
      w.on('exit', (code) => code !== 0 && fail(new Error(`a wikitext parser thread exited (code ${code})`)));
      this.workers.push(w);
    }
  }

  readonly convert: WikitextToText = (wikitext, title) => {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise<string>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Round robin: pages are similar work on average, and the reader's window bounds the queue.
      this.workers[id % this.workers.length]!.postMessage({ id, wikitext, title });
    });
  };

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
