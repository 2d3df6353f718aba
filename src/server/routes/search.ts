/** GET /v1/search?q=&k=&mode=: documents ranked by their best passage. */
import { runLimited } from '../deadline.js';
import { defineRoute, errorResponses } from '../route.js';
import { SearchQuery, SearchResponse } from '../schemas.js';

export const searchRoute = defineRoute(
  {
    method: 'GET',
    path: '/v1/search',
    tag: 'search',
    summary: 'Search the index',
    query: SearchQuery,
    responses: { 200: { description: 'Ranked documents, each with its best passage.', schema: SearchResponse }, ...errorResponses(400, 503, 504) },
  },
  async (ctx, { query }, _req, reply) => {
    const r = await runLimited(ctx.limiter, reply, ctx.options.requestTimeoutMs, (signal) =>
      ctx.retriever.search(query.q, { k: query.k, mode: query.mode ?? ctx.app.mode, signal }),
    );
    return {
      query: r.query,
      mode: r.mode,
      snapshot: r.snapshot,
      tookMs: r.tookMs,
      configHash: r.configHash,
      documents: r.documents.map((d) => {
        const p = d.passages[0]!.passage;
        return { docId: d.docId, title: d.title, score: d.score, rank: d.rank, passage: { id: p.id, text: p.text, sentenceStart: p.sentenceStart, sentenceEnd: p.sentenceEnd } };
      }),
    };
  },
);
