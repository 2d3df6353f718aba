/**
 * Worker thread of `loadWordVectors` (word-vectors.ts): converts the word-vector JSON, writes the cache
 * atomically, and sends the binary form back (transferred, not copied), so the conversion never runs on
 * the event loop of the thread that asked for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { WordVectors, writeWordVectorCache } from './word-vectors.js';

const { source, path } = workerData as { source: string; path: string };
const log = (line: string) => parentPort!.postMessage({ log: line });
try {
  const buf = WordVectors.convertPackage(log, source);
  writeWordVectorCache(path, buf, log);
  // A fresh ArrayBuffer of exactly these bytes, so that transferring it moves nothing else.
  const bytes = new Uint8Array(buf.byteLength);
  bytes.set(buf);
  parentPort!.postMessage({ bytes }, [bytes.buffer]);
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
}
