/**
 * Every request shape (validated with these schemas) and every response shape (documented with them,
 * and checked against them by the API tests). openapi.ts turns them into the OpenAPI document with
 * zod's own JSON Schema output, so the document is the validation.
 */
import { z } from 'zod';
import { SEARCH_MODES } from '../retrieve/retriever.js';
import { LABELS } from '../verify/types.js';
import { AnnotationSchema, CHOICES } from '../annotations/types.js';
import { CitationViewSchema, CoverageSchema, PairDecisionSchema, SourceViewSchema } from '../audit/citation-view.js';
import { claimTextProblem, claimTooLongMessage, EMPTY_CLAIM_MESSAGE, MAX_CLAIM_CHARS } from '../verify/claim-text.js';
import { notTextReason } from '../util/not-text.js';
import { SEARCH_PROVIDERS } from '../search/types.js';
import { UploadedSource } from './upload.js';

const text = (max: number) => z.string().trim().min(1).max(max);
/** A claim: the cap and the messages of verify/claim-text.ts, as the CLI and the library give them. */
const claimText = () =>
  z
    .string()
    .trim()
    .min(1, { error: EMPTY_CLAIM_MESSAGE })
    .max(MAX_CLAIM_CHARS, { error: (iss) => claimTooLongMessage(typeof iss.input === 'string' ? iss.input.length : MAX_CLAIM_CHARS + 1) })
    // The rest of the one rule (no letter or digit, a control character), said once: empty and too long are above.
    .superRefine((s, ctx) => {
      if (!s || s.length > MAX_CLAIM_CHARS) return;
      const problem = claimTextProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
/** Text uploaded as a page or an article: refused when it is binary data (util/not-text.ts), as the CLI refuses such a file. */
const readableText = <T extends z.ZodString>(schema: T) =>
  schema.superRefine((s, ctx) => {
    const why = notTextReason(s);
    if (why) ctx.addIssue({ code: 'custom', message: `unreadable: not text (${why})` });
  });

// ---- requests ----

export const VerifyRequest = z
  .object({
    claim: claimText().describe(`The claim to verify against the index (at most ${MAX_CLAIM_CHARS} characters).`),
    search: z
      .array(z.enum(SEARCH_PROVIDERS))
      .min(1)
      .max(SEARCH_PROVIDERS.length)
      .optional()
      .describe('Search these providers for evidence too (the index is searched alongside): every evidence sentence then carries its URL, and `search` says which provider and query found each source and which provider failed. Keys and mirrors are the server\'s settings.'),
  })
  .strict()
  .meta({ id: 'VerifyRequest' });

/** Claims per batch: a batch runs its claims one after another (routes/verify-batch.ts), within one deadline. */
export const MAX_BATCH_CLAIMS = 32;

export const VerifyBatchRequest = z
  .object({
    claims: z
      .array(claimText())
      .min(1)
      .max(MAX_BATCH_CLAIMS)
      .describe(`Claims to verify (1 to ${MAX_BATCH_CLAIMS}, each as in /v1/verify), answered in this order.`),
  })
  .strict()
  .meta({ id: 'VerifyBatchRequest' });

/** Context may come as the preceding text or as its sentences (what the parser gives). */
const Context = z.union([z.string().max(20_000), z.array(z.string().max(5000)).max(50)]);

export const CitationCheckRequest = z
  .object({
    claim: claimText().describe(`The sentence the citation supports (at most ${MAX_CLAIM_CHARS} characters).`),
    context: Context.optional().describe('Text before the claim (a string, or its sentences oldest first).'),
    title: z.string().max(500).optional().describe('Article title (used to search for suggestions).'),
    section: z.string().max(500).optional().describe('Section path, e.g. "History > Early years".'),
    source: z
      .union([
        z.object({ url: z.url({ protocol: /^https?$/ }).max(2000), title: z.string().max(500).optional() }).strict(),
        z.object({ text: readableText(text(200_000)), title: z.string().max(500).optional() }).strict(),
        UploadedSource,
      ])
      .describe('The cited source: a URL (looked up in the index; fetched when the server runs with --fetch), its text, or an uploaded file (HTML, text, Markdown or PDF, base64 with its declared type).'),
    suggestions: z.number().int().min(0).max(10).default(3).describe('Better-supporting documents to look for in the index.'),
  })
  .strict()
  .meta({ id: 'CitationCheckRequest' });

export const AuditCreateRequest = z
  .object({
    wikitext: readableText(z.string().min(1)).optional().describe('Article wikitext.'),
    html: readableText(z.string().min(1)).optional().describe('Rendered article HTML (e.g. a saved Wikipedia page).'),
    url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe('Article URL, fetched by the server (only with --fetch).'),
    title: z.string().max(500).optional().describe('Article title (wikitext has none of its own).'),
  })
  .strict()
  .superRefine((v, ctx) => {
    const given = (['wikitext', 'html', 'url'] as const).filter((k) => v[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({ code: 'custom', path: [given[1] ?? 'wikitext'], message: `give exactly one of wikitext, html, url (got ${given.length ? given.join(', ') : 'none'})` });
    }
  })
  .meta({ id: 'AuditCreateRequest' });

export const SearchQuery = z
  .object({
    q: text(MAX_CLAIM_CHARS).describe('Query text.'),
    k: z.coerce.number().int().min(1).max(100).default(10).describe('Documents wanted.'),
    mode: z.enum(SEARCH_MODES).optional().describe('Retrieval mode (default: the server\'s --mode).'),
  })
  .strict();

export const JobParams = z.object({ id: z.uuid().describe('Job id.') }).strict();

export const ComparisonQuery = z.object({ job: z.uuid().optional().describe('Audit job to draw from (default: every finished job).') }).strict();

export const AnnotationCreateRequest = z
  .object({
    pairId: z.string().min(1).max(500).describe('From GET /v1/comparisons/next.'),
    choice: z.enum(CHOICES).describe('Which source supports the claim better, or neither.'),
    annotator: z.string().max(100).optional(),
    comment: z.string().max(2000).optional(),
  })
  .strict()
  .meta({ id: 'AnnotationCreateRequest' });

// ---- responses ----

export const ErrorResponse = z
  .object({
    error: z.string().describe('Machine-readable code: invalid_request, not_found, overloaded, timeout, payload_too_large...'),
    message: z.string(),
    issues: z.array(z.object({ path: z.string().describe('Dotted path of the offending field.'), message: z.string(), code: z.string().optional() })).optional(),
  })
  .meta({ id: 'Error' });

const Probs = z.object(Object.fromEntries(LABELS.map((l) => [l, z.number()])) as Record<(typeof LABELS)[number], z.ZodNumber>);
const ModelInfo = z.object({ id: z.string(), version: z.string(), backend: z.string() });

const Provenance = z
  .object({
    snapshot: z.string(),
    engine: z.string(),
    models: z.array(ModelInfo),
    config: z.record(z.string(), z.unknown()),
    configHash: z.string(),
    veraciteVersion: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'Provenance' });

/** A finding (src/verify/findings): what a piece of evidence states against the claim, in words. */
const FindingSchema = z
  .object({
    kind: z.enum(['quantity', 'direction', 'negation']),
    message: z.string().describe('In words: what the source says against what the claim says ("the source says 28 percent, the claim says 58 percent").'),
    claimText: z.string().describe('The words of the claim it is about.'),
    evidenceText: z.string().describe('The words of the evidence it is about.'),
    decisive: z.boolean().describe('Unambiguous (one figure about the same thing; the same change of a claim whose subject the evidence names): a relevant document with a decisive finding refutes the claim.'),
  })
  .meta({ id: 'Finding' });
const VerdictFindingSchema = FindingSchema.extend({ docId: z.string(), sentenceIndex: z.number().int() });

const FoundBy = z.object({ provider: z.enum(SEARCH_PROVIDERS), query: z.string(), rank: z.number().int() });

/** What search did for a verdict (app/search-verify.ts). */
const SearchReportSchema = z.object({
  providers: z.array(z.enum(SEARCH_PROVIDERS)),
  queries: z.array(z.object({ provider: z.enum(SEARCH_PROVIDERS), query: z.string(), results: z.number().int() })),
  failures: z.array(z.object({ provider: z.enum(SEARCH_PROVIDERS), message: z.string().describe('The provider and why, e.g. "Wikipedia search: could not reach ...".') })),
  excluded: z.array(z.object({ url: z.string(), title: z.string(), reason: z.string() })),
  unread: z.array(z.object({ url: z.string(), title: z.string(), reason: z.string() })),
  budget: z.object({ queries: z.number().int(), fetches: z.number().int(), perQuery: z.number().int() }),
  fetches: z.number().int(),
  sources: z.array(z.object({ docId: z.string(), url: z.string(), title: z.string(), textFrom: z.enum(['page', 'wikipedia', 'abstract', 'full text', 'snippet']), foundBy: z.array(FoundBy) })),
});

export const VerdictResponse = z
  .object({
    claim: z.string(),
    label: z.enum(LABELS),
    confidence: z.number(),
    probs: Probs,
    decidedBy: z
      .object({
        docId: z.string(),
        title: z.string(),
        coverage: CoverageSchema.optional()
          .describe("How much of the claim the deciding document names: the share of the claim's subject words its best passage contains, and those it does not. Shown, not read by the verdict: a verdict decided on a document that leaves out what the claim is about is one to read with care."),
      })
      .optional()
      .describe('When the evidence spans several documents, each judged alone: the document whose evidence decided (the most relevant one that takes a side). Absent for NOT ENOUGH INFO: no document took a side.'),
    opposite: z
      .object({
        text: z.string().describe("The claim's counter-claim: its negation, its change the other way, or an antonym."),
        readsAsSentence: z.boolean().optional().describe('False when the rewrite does not read as a sentence ("bleomycin-did not induce"): show its figures, not its words.'),
        entailment: z.number().describe('P(entailment) of the counter-claim on the deciding evidence, 0-1.'),
        claimEntailment: z.number().describe('P(entailment) of the claim on the same evidence, 0-1.'),
      })
      .optional()
      .describe("The claim's most entailed counter-claim as the deciding evidence reads it: evidence that reads the opposite as more entailed than the claim leans to REFUTES. Absent for NOT ENOUGH INFO, or when the claim has no counter-claim."),
    findings: z.array(VerdictFindingSchema).optional().describe("What the evidence the verdict rests on states against the claim (the deciding document's sentences, or every relevant document's). Absent when none."),
    overruled: z
      .object({ label: z.enum(LABELS), probs: Probs, finding: VerdictFindingSchema })
      .optional()
      .describe("Present when a decisive finding decided REFUTES over the model's own reading: that reading (label, probabilities) and the finding. The verdict's probabilities are then the model's with its support mass given to REFUTES, not calibrated."),
    review: z
      .object({
        reason: z.enum(['conflicting-evidence', 'off-topic', 'uncertain', 'judge']).describe('judge: the LLM judge\'s reply could not be read (or it quoted text not in the source); the pair is needs review.'),
        message: z.string().describe('The reason in words.'),
        pRight: z.number().describe('The probability that the label is right, 0-1 (fitted leave-one-domain-out over SciFact, SNLI, RTE and WiCE).'),
        level: z.number().describe('The stated level below which a verdict needs review.'),
      })
      .optional()
      .describe('Needs review: the probability that the label is right is below the stated level. The verdict is still given; it is not one to act on unread. Absent otherwise, and for models the needs-review model was not fitted for.'),
    engine: z
      .object({
        name: z.string().describe("The entailment model's id."),
        offline: z.boolean().describe('The offline heads shipped with veracite.'),
        weakSpots: z.array(z.object({ kind: z.enum(['unaligned-number', 'long-range-negation']), message: z.string() })).describe("The offline engine's known weak spots that apply to this verdict: figures of the claim no deciding sentence states, negation in a long sentence."),
      })
      .optional()
      .describe('The engine that judged, and what it cannot do here.'),
    language: z
      .object({ claim: z.object({ language: z.string(), name: z.string(), english: z.boolean() }), problem: z.string() })
      .optional()
      .describe("Present when the claim does not read as English (ISO 639-3, src/text/language.ts): the models and the index read English only, so the label is a guess and no document is decided (could not check, language)."),
    documentDecisions: z
      .array(
        z.object({
          docId: z.string(),
          title: z.string(),
          url: z.string().optional(),
          relevance: z.number().describe("The document's best evidence score in this verdict."),
          relevant: z.boolean().describe('Whether that passes the verdict\'s relevance gate (the verdict takes a side only on such documents).'),
          decision: PairDecisionSchema,
        }),
      )
      .optional()
      .describe('The most relevant evidence documents (up to 3), each decided as `veracite check`, the audit, the web page and the gadget decide the same (claim, document) pair: the same band, probability and reason (src/verify/decision.ts). A relevant document whose decision rests on a decisive finding refutes the claim. Absent for a verdict by search.'),
    evidence: z.array(
      z.object({
        docId: z.string(),
        title: z.string(),
        url: z.string().optional().describe('The page the sentence is on (every sentence found by search has one).'),
        sentenceIndex: z.number().int(),
        text: z.string(),
        findings: z.array(FindingSchema).optional().describe('What this sentence states against the claim; a sentence with a finding is never read as support.'),
        score: z.number().describe('Evidence score: probability that the sentence is evidence for the claim, 0-1.'),
        entailment: z
          .object({ entailment: z.number(), neutral: z.number(), contradiction: z.number() })
          .optional()
          .describe('How this sentence read alone bears on the claim (NLI probabilities, 0-1). The verdict reads it only if its document passes the relevance gate (provenance.config.verdict.relevanceThreshold on the best evidence score).'),
      }),
    ),
    documents: z.array(z.object({ docId: z.string(), title: z.string(), score: z.number(), via: z.array(z.string()), url: z.string().optional().describe("The document's page, when it has one.") })),
    provenance: Provenance,
    timings: z.record(z.string(), z.number()),
    search: SearchReportSchema.optional().describe('Present when the request asked for search: what was asked of whom, what was read, what was left out and why, and every provider that failed.'),
  })
  .meta({ id: 'Verdict' });

export const VerifyBatchResponse = z
  .object({
    results: z
      .array(
        z.object({
          index: z.number().int().describe('Position of the claim in the request.'),
          claim: z.string(),
          verdict: VerdictResponse.optional().describe('Present when the claim was verified.'),
          error: z
            .object({ error: z.enum(['timeout', 'overloaded', 'shutting_down']), message: z.string() })
            .optional()
            .describe('Present when the claim was not verified: the deadline passed (timeout) or the queue was full (overloaded) before its turn.'),
        }),
      )
      .describe('One entry per claim, in request order.'),
    verified: z.number().int().describe('Entries with a verdict.'),
    complete: z.boolean().describe('Every claim was verified; if not, send the claims with an error again (later).'),
    tookMs: z.number(),
  })
  .meta({ id: 'VerifyBatchResult' });

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'interrupted'] as const;

export const JobResponse = z
  .object({
    id: z.string(),
    status: z.enum(JOB_STATUSES),
    createdAt: z.string(),
    updatedAt: z.string(),
    startedAt: z.string().optional(),
    finishedAt: z.string().optional(),
    input: z.object({ kind: z.enum(['wikitext', 'html', 'url']), title: z.string().optional(), url: z.string().optional(), bytes: z.number().int() }),
    resumedFrom: z.string().optional().describe('The interrupted job whose finished citations this one reused.'),
    provenance: z
      .object({ configHash: z.string(), models: z.array(ModelInfo), snapshot: z.string().optional(), flagging: z.record(z.string(), z.unknown()), config: z.record(z.string(), z.unknown()) })
      .loose()
      .optional()
      .describe('What produced the results: index snapshot, models, the audit configuration and its hash (the same as `veracite audit` with the same settings), flag threshold (flagging.threshold on the raw signal, flagging.probabilityThreshold on the probability scale the results show).'),
    article: z.object({ title: z.string(), citations: z.number().int(), uncitedClaims: z.number().int(), skippedRefs: z.number().int() }).optional(),
    done: z.number().int(),
    total: z.number().int(),
    error: z.string().optional(),
    results: z.array(CitationViewSchema).describe('Per-citation results, in the order they finished.'),
  })
  .meta({ id: 'AuditJob' });

export const JobSummary = JobResponse.omit({ results: true }).meta({ id: 'AuditJobSummary' });

export const JobCreatedResponse = z
  .object({ id: z.string(), status: z.enum(JOB_STATUSES), resumedFrom: z.string().optional(), links: z.object({ self: z.string(), events: z.string() }) })
  .meta({ id: 'AuditJobCreated' });

export const HealthResponse = z
  .object({
    status: z.enum(['ok', 'shutting_down']),
    version: z.string(),
    uptimeSeconds: z.number(),
    index: z.object({
      dir: z.string(),
      snapshot: z.string(),
      engine: z.string(),
      documents: z.number(),
      passages: z.number(),
      sentences: z.number(),
      textIndexed: z.boolean(),
      complete: z.boolean().describe('False while an ingest of this index has not finished (running, killed, or stopped at a source it could not read past): searches cover only what it committed.'),
      unfinishedIngests: z
        .array(z.object({ source: z.string(), format: z.string(), records: z.number().describe('Records committed so far.'), updatedAt: z.string() }))
        .describe('Ingests begun and not finished; `veracite index <source>` again finishes one.'),
    }),
    models: z.array(ModelInfo),
    audit: z.string().describe('Which audit implementation runs.'),
    fetch: z.boolean().describe('Whether URL input (live fetch) is on.'),
    limits: z.object({ concurrency: z.number(), queue: z.number(), active: z.number(), queued: z.number(), bodyLimit: z.number(), requestTimeoutMs: z.number() }),
    jobs: z.object({ running: z.number(), queued: z.number() }),
  })
  .meta({ id: 'Health' });

export const SearchResponse = z
  .object({
    query: z.string(),
    mode: z.string(),
    snapshot: z.string(),
    tookMs: z.number(),
    configHash: z.string(),
    documents: z.array(
      z.object({
        docId: z.string(),
        title: z.string(),
        score: z.number(),
        rank: z.number().int(),
        passage: z.object({ id: z.string(), text: z.string(), sentenceStart: z.number().int(), sentenceEnd: z.number().int() }).describe('Best passage.'),
      }),
    ),
  })
  .meta({ id: 'SearchResult' });

const PairSide = SourceViewSchema.pick({ title: true, sentences: true });
export const ComparisonResponse = z
  .object({
    pairId: z.string().describe('Send back with the choice; it names the pair without telling the page which side is which.'),
    jobId: z.string(),
    claim: z.string(),
    context: z.array(z.string()),
    a: PairSide,
    b: PairSide,
    remaining: z.number().int().describe('Pairs of this job (or of all jobs) not annotated yet, this one included.'),
  })
  .meta({ id: 'Comparison' });

export const AnnotationResponse = AnnotationSchema;
