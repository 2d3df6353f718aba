/**
 * Worker thread of WikitextPool: wikitext -> prose with the wiki layer's parser, one page a message.
 * A page the parser rejects comes back as an error message for that page; the worker goes on.
 */
import { parentPort } from 'node:worker_threads';
import { parseWikitext } from '../wiki/parse-wikitext.js';

parentPort!.on('message', (m: { id: number; wikitext: string; title: string }) => {
  try {
    parentPort!.postMessage({ id: m.id, text: parseWikitext(m.wikitext, { title: m.title, contextSentences: 0 }).text });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: (e as Error).message });
  }
});
