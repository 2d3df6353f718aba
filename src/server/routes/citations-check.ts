/**
 * POST /v1/citations/check: does this source support this claim? The source is a URL (looked up in the
 * index, fetched live only with --fetch), its text, or an uploaded file (upload.ts); the answer has the source's evidence sentences
 * and, on request, better-supporting documents from the index.
 */
import type { CitationCheckInput } from '../audit-service.js';
import { runLimited } from '../deadline.js';
import { defineRoute, errorResponses } from '../route.js';
import { CitationViewSchema } from '../../audit/citation-view.js';
import { CitationCheckRequest } from '../schemas.js';
import { readUploadedSource } from '../upload.js';
import { documentLimitError } from '../errors.js';
import { contextSentences, sectionPathOf } from '../../app/check-source.js';

export const citationsCheckRoute = defineRoute(
  {
    method: 'POST',
    path: '/v1/citations/check',
    tag: 'audit',
    summary: 'Check one citation: claim + context + source',
    body: CitationCheckRequest,
    responses: { 200: { description: 'The citation\'s audit.', schema: CitationViewSchema }, ...errorResponses(400, 413, 422, 503, 504) },
  },
  async (ctx, { body }, _req, reply) => {
    const base = { claim: body.claim, context: contextSentences(body.context), sectionPath: sectionPathOf(body.section), suggestions: body.suggestions, ...(body.title !== undefined ? { title: body.title } : {}) };
    // An uploaded file is read in the request's slot too (a PDF is parsed page by page).
    return runLimited(ctx.limiter, reply, ctx.options.requestTimeoutMs, async (signal) => {
      let source: CitationCheckInput['source'];
      try {
        // HTML, Markdown and PDFs are read in a parse worker within the budgets, never on the event loop
        const reader = ctx.app.documentReader();
        source = 'file' in body.source ? await readUploadedSource(body.source, reader) : body.source;
        if ('text' in source && typeof source.text === 'string') {
          const document = await reader.page({ body: source.text, kind: source.kind ?? 'text', url: 'source:text', title: source.title ?? 'Source text' }, signal);
          source = { document };
        }
      } catch (e) {
        throw documentLimitError(e) ?? e;
      }
      signal.throwIfAborted();
      const input: CitationCheckInput = { ...base, source };
      return ctx.audit.checkCitation(input, signal);
    });
  },
);
