/** Hashed bag of words: a deterministic stand-in for USE, so dense paths run in tests without a model. */
import { createHash } from 'node:crypto';
import type { Embedder } from '../../models/types.js';
import { contentTokens } from '../../text/tfidf.js';

export const hashEmbedder: Embedder = {
  info: { id: 'hash-bow-64', version: '1', backend: 'test' },
  dimension: 64,
  async embed(texts) {
    return texts.map((t) => {
      const v = new Float32Array(64);
      for (const tok of contentTokens(t)) v[createHash('md5').update(tok).digest()[0]! % 64] += 1;
      const n = Math.hypot(...v) || 1;
      return v.map((x) => x / n);
    });
  },
};
