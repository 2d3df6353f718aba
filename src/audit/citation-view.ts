/**
 * A citation's audit as editors see it (the HTTP API, the web page, the blind comparison): the claim, the
 * source's status, its support score on the scale the flags use, the sentences that matter from the cited
 * source and from better sources. One zod schema is both the API documentation (server/schemas.ts) and the
 * TypeScript type, so the two cannot drift apart.
 */
import { z } from 'zod';
import type { Document } from '../corpus/types.js';
import type { ResolvedSource } from '../sources/types.js';
import type { AuditCitation, CitationAudit, Suggestion } from './types.js';
import { PROVIDER_LABELS } from '../search/types.js';
import { coverageInWords } from '../verify/coverage.js';
import { CITATION_BANDS, citationBand, decisionOf } from './bands.js';

const SourceSentenceSchema = z.object({
  /** Position of the sentence in its document. */
  index: z.number().int(),
  text: z.string(),
  /** Chosen as evidence for the claim (highlighted in the web page). */
  evidence: z.boolean(),
  score: z.number().optional(),
});

/** Claim coverage as the API gives it (src/verify/coverage.ts): the share, the claim's subject words, those not named, the same in words. */
export const CoverageSchema = z.object({ share: z.number(), subjectWords: z.array(z.string()), missing: z.array(z.string()), text: z.string() });

/** The one decision for a (claim, source) pair (src/verify/decision.ts), as every surface sends it. */
export const PairDecisionSchema = z
  .object({
    band: z.enum(['supported', 'partly-supported', 'needs-review', 'not-supported']),
    label: z.string(),
    probability: z.number().optional().describe('The probability of support the band rests on (the same number as verifiability).'),
    reason: z.string(),
    finding: z.string().optional().describe('The decisive finding that set the band, in words (the source states otherwise).'),
    tag: z.object({ template: z.literal('failed verification'), why: z.string() }).optional().describe('A {{failed verification}} tag is proposed: only for a decisive finding or a probability below thresholds.tagBelow (measured precision >= 0.8). Without it: no tag button, "needs review".'),
    thresholds: z.object({ supportedFrom: z.number(), partlyFrom: z.number(), notSupportedBelow: z.number(), tagBelow: z.number() }).describe('The one set of thresholds every surface quotes (src/verify/decision.ts).'),
  });

export const SourceViewSchema = z.object({
  docId: z.string().optional(),
  title: z.string(),
  url: z.string().optional(),
  names: z.string().optional().describe("What this source names of the claim's subject words, in words (\"Names 1 of the claim's 4 subject words (not: aspirin, heart, attack).\"); absent without the NLI head."),
  sentences: z.array(SourceSentenceSchema),
});

/** Who found a suggestion by search, and with which query (the query is a search request, not an index's). */
const FoundBySchema = z.object({
  provider: z.string().describe('wikipedia, openalex, europepmc, crossref, searxng or brave.'),
  label: z.string().describe('The provider as people read it: "OpenAlex search".'),
  query: z.string(),
  rank: z.number().int().describe("1-based rank in that provider's answer."),
});

export const SuggestionViewSchema = SourceViewSchema.extend({
  score: z.number(),
  template: z
    .string()
    .optional()
    .describe("A ready citation for the source, as `veracite audit --suggest-from search` prints it: {{cite journal |doi=...}} for a paper (authors, journal, date, identifiers), {{cite web |url=...}} for a page, with |access-date=. Given for sources found by search; the gadget and the web page offer it with a copy button."),
  accessDate: z.string().optional().describe("The day the source's text was read (YYYY-MM-DD): the template's access-date."),
  foundBy: FoundBySchema.optional().describe('For a source found by search: the provider and query that found it.'),
});

export const CitationViewSchema = z
  .object({
    citationId: z.string(),
    index: z.number().int().describe('Position among the article\'s citations, from 0.'),
    number: z.number().int().optional().describe("The citation's number in the article, from 1 (index + 1): the number the CLI, the HTML report and the web page show (\"#22\")."),
    claim: z.string(),
    resolvedClaim: z.string().optional().describe("The claim as verified when its subject was a pronoun or a bare surname (\"She\", \"Gilbert\"): read with the article's subject or the context's last named entity."),
    context: z.array(z.string()),
    sectionPath: z.array(z.string()),
    source: z.object({ url: z.string().optional(), title: z.string().optional(), raw: z.string().optional() }).loose().describe('The reference as the article gives it.'),
    tags: z.object({ failedVerification: z.boolean(), citationNeeded: z.boolean(), deadLink: z.boolean() }),
    sourceStatus: z.string().describe("'found', or why the source could not be read: not-found, dead, unreachable, unsupported, blocked, no-url."),
    sourceReason: z.string().optional(),
    verifiability: z
      .number()
      .nullable()
      .describe(
        "When scoreSignal is 'probability' (the default models): the probability that the cited source supports the claim, 0-1, calibrated on labelled citations; the flag threshold is on the same scale (the job's provenance.flagging.probabilityThreshold). Otherwise the uncalibrated score the flags use (scoreSignal names it). Null when the source could not be read (\"could not check\" is not \"does not support\").",
      ),
    scoreSignal: z.enum(['probability', 'engine', 'ranker', 'support']).optional().describe("What verifiability and the suggestions' scores are: 'probability' (of support, calibrated), or the raw signal the flags use."),
    failedVerification: z.boolean().describe('Score at or below the calibrated failed-verification threshold (false when no threshold applies).'),
    band: z
      .enum(CITATION_BANDS)
      .optional()
      .describe("The citation's one label, the plain band (src/audit/bands.ts): every surface (CLI, HTML report, web page, gadget) shows this and no other verdict; failedVerification and decision are derived from the same decision. supported (the only green badge: probability of support at or above the supported band's threshold), partly-supported, needs-review (too close to call, or conflicting signals), not-supported, could-not-check (the source was not read: see howToCheck)."),
    bandReason: z.string().optional().describe('Why this band, in words.'),
    language: z
      .object({
        claim: z.object({ language: z.string(), name: z.string(), english: z.boolean() }),
        source: z.object({ language: z.string(), name: z.string(), english: z.boolean() }).optional(),
        problem: z.string(),
        scoredAnyway: z.boolean().optional(),
      })
      .optional()
      .describe("Present when the claim or the cited source does not read as English (ISO 639-3 codes, src/text/language.ts): the models and the index read English only, so the band is could-not-check (bandReason 'language: ...') unless the server scores such pairs anyway (scoredAnyway: read the band as a guess)."),
    decision: PairDecisionSchema
      .optional()
      .describe('The one decision for (claim, cited source) (src/verify/decision.ts): the same as `veracite check`, `veracite audit` and the worklist. Web page and gadget: show band/label/probability/reason from here, the tag copy button only when `tag` is present.'),
    howToCheck: z.string().optional().describe('For could-not-check: what to do to check it (--fetch, --sources FOLDER, upload the page in the web page, correct the identifier...).'),
    existing: SourceViewSchema.optional(),
    coverage: CoverageSchema.optional()
      .describe("How much of what the claim is about the cited source names: the share of the claim's subject words its best passage contains, those it does not, and the same in words. Absent without the NLI head."),
    suggestions: z.array(SuggestionViewSchema).describe('Documents the audit scores above the cited source, best first: from the index, or found by search (`--suggest-from search`: these carry `template`, `accessDate` and `foundBy`).'),
    noBetterSource: z.string().optional().describe('Said instead of suggestions when no document is both better and relevant: "no better source found in this index" (or "... by search").'),
    searchFailures: z
      .array(z.string())
      .optional()
      .describe('Better sources from search: every provider that failed for this citation, in words ("Crossref search: could not reach ..."), so that "no better source" is never read as "none exists" when a provider was down.'),
    ms: z.number().optional(),
  })
  .meta({ id: 'CitationAudit' });

export type SourceSentence = z.infer<typeof SourceSentenceSchema>;
export type SourceView = z.infer<typeof SourceViewSchema>;
export type SuggestionView = z.infer<typeof SuggestionViewSchema>;
export type CitationView = z.infer<typeof CitationViewSchema>;

const SHOW_ALL_BELOW = 12;
const CONTEXT = 1;

/**
 * A document's sentences as shown next to a claim: every sentence when the document is short, else the
 * evidence sentences with one sentence of context on each side (a source page can be thousands of
 * sentences; the editor needs the part that matters). `evidence`: the document's evidence sentences.
 */
export function sourceView(doc: Document, evidence: readonly { sentenceIndex: number; score: number }[]): SourceView {
  const scores = new Map(evidence.map((e) => [e.sentenceIndex, e.score]));
  const keep = new Set<number>();
  if (doc.sentences.length <= SHOW_ALL_BELOW || scores.size === 0) {
    doc.sentences.slice(0, SHOW_ALL_BELOW).forEach((_, i) => keep.add(i));
  } else {
    for (const i of scores.keys()) for (let j = i - CONTEXT; j <= i + CONTEXT; j++) if (j >= 0 && j < doc.sentences.length) keep.add(j);
  }
  const sentences: SourceSentence[] = [...keep]
    .sort((a, b) => a - b)
    .filter((i) => doc.sentences[i]?.trim())
    .map((i) => {
      const s: SourceSentence = { index: i, text: doc.sentences[i]!, evidence: scores.has(i) };
      if (scores.has(i)) s.score = scores.get(i)!;
      return s;
    });
  const view: SourceView = { docId: doc.id, title: doc.title, sentences };
  if (doc.url) view.url = doc.url;
  return view;
}

/**
 * The audit's report of one citation -> the editors' view. `signal` is the score the flags use
 * (CitationAuditor.flagSignal); `documents` holds the suggested documents' texts, by id.
 */
export function citationView(
  source: AuditCitation['source'],
  resolved: ResolvedSource,
  r: CitationAudit,
  signal: 'engine' | 'ranker' | 'support',
  documents: ReadonlyMap<string, Document>,
): CitationView {
  // One scale for the cited source and its suggestions: the calibrated probability of support when the
  // flag rule carries one, else the raw signal the flags use.
  const probability = r.verification ? r.verification.probability !== undefined : (r.recommendations?.suggestions ?? []).some((s) => s.probability !== undefined);
  const byRanker = signal === 'ranker' && r.verification?.rankerScore !== undefined && r.recommendations?.rankedBy !== 'verification';
  const bySupport = signal === 'support';
  const raw = (s: { score: number; rerankScore?: number; support?: number }) => (byRanker ? s.rerankScore! : bySupport ? (s.support ?? s.score) : s.score);
  const suggestions: SuggestionView[] = (r.recommendations?.suggestions ?? [])
    .filter((s) => documents.has(s.docId))
    .map((s) => ({ ...sourceView(documents.get(s.docId)!, s.evidence), ...(s.coverage ? { names: namesText(s.coverage) } : {}), score: probability ? (s.probability ?? 0) : raw(s), ...searchFields(s) }));
  const out: CitationView = {
    citationId: r.id,
    index: r.index,
    number: r.index + 1,
    claim: r.claim,
    context: r.context,
    sectionPath: r.sectionPath,
    source,
    tags: r.tags,
    sourceStatus: r.source.status,
    verifiability: (probability ? r.verification?.probability : r.verification ? raw({ score: r.verification.score, ...(r.verification.rankerScore !== undefined ? { rerankScore: r.verification.rankerScore } : {}), ...(r.verification.support !== undefined ? { support: r.verification.support } : {}) }) : undefined) ?? null,
    scoreSignal: probability ? 'probability' : byRanker ? 'ranker' : bySupport ? 'support' : 'engine',
    failedVerification: r.verification?.flagged ?? false,
    suggestions,
    ms: Math.round(r.timingsMs.source + r.timingsMs.retrieve + r.timingsMs.score + r.timingsMs.rank),
  };
  if (r.source.reason && r.source.status !== 'found') out.sourceReason = r.source.reason;
  if (r.resolvedClaim) out.resolvedClaim = r.resolvedClaim;
  if (!suggestions.length && r.recommendations) out.noBetterSource = r.recommendations.noBetterSource ?? 'no better source found in this index';
  if (r.recommendations?.search?.failures.length) out.searchFailures = [...r.recommendations.search.failures];
  const band = r.band ?? citationBand(r);
  out.band = band.band;
  out.bandReason = band.reason;
  if (band.howToCheck) out.howToCheck = band.howToCheck;
  if (r.language) out.language = r.language;
  if (r.verification) out.decision = r.decision ?? decisionOf(r.verification);
  const cov = r.verification?.coverage;
  if (resolved.document && r.verification) out.existing = { ...sourceView(resolved.document, r.verification.evidence), ...(cov ? { names: namesText(cov) } : {}) };
  if (cov) out.coverage = { ...cov, text: `The source ${coverageInWords(cov)}.` };
  return out;
}

/** What a suggestion found by search carries beyond its text: the ready citation, its access date, who found it. */
function searchFields(s: Suggestion): Pick<SuggestionView, 'template' | 'accessDate' | 'foundBy'> {
  const out: Pick<SuggestionView, 'template' | 'accessDate' | 'foundBy'> = {};
  if (s.template) out.template = s.template;
  if (s.accessDate) out.accessDate = s.accessDate;
  if (s.foundBy) {
    const label = (PROVIDER_LABELS as Record<string, string | undefined>)[s.foundBy.provider] ?? s.foundBy.provider;
    out.foundBy = { provider: s.foundBy.provider, label, query: s.foundBy.query, rank: s.foundBy.rank };
  }
  return out;
}

/** "Names 1 of the claim's 4 subject words (not: ...)." for a source card. */
function namesText(coverage: Parameters<typeof coverageInWords>[0]): string {
  const words = coverageInWords(coverage);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}
