/**
 * One claim against one source, the single-citation form of the audit (SIDE: "does the cited source
 * support this statement, and what would be better to cite?"). It runs the audit the composition root
 * assembled (audit.ts): the same engine, support signal, calibrated threshold, contradiction rule and
 * suggestions as `veracite audit`, so `veracite check`, `Veracite.check` and POST /v1/citations/check
 * answer a citation exactly as an audit of its article would.
 */
import type { AuditPipeline } from './audit.js';
import { CitationAuditor } from '../audit/audit.js';
import { citationBand } from '../audit/bands.js';
import { citationView, type CitationView } from '../audit/citation-view.js';
import type { AuditCitation, AuditProvenance, BandInfo, CitationAudit } from '../audit/types.js';
import type { Document } from '../corpus/types.js';
import { splitSentences } from '../corpus/sentences.js';
import { pageToDocument, type PageKind } from '../sources/page-text.js';
import type { ResolvedSource } from '../sources/types.js';
import type { CitationTags } from '../wiki/types.js';
import { assertText } from '../util/not-text.js';

export interface SourceCheckInput {
  /** The statement the source is cited for. */
  claim: string;
  /** Sentences before the claim, oldest first (the audit's query context reads them). */
  context?: string[];
  /** Article title (used to search for suggestions). */
  title?: string;
  sectionPath?: string[];
  /**
   * The source: a URL (looked up in --sources / the index; fetched only with live fetching on), its text
   * (`kind`: how to read it, 'text' by default), or a document already read (a PDF's pages).
   */
  source: { url: string; title?: string } | { text: string; title?: string; kind?: PageKind } | { document: Document };
  /** Better-supporting documents wanted from the index (0 = none). */
  suggestions: number;
}

export interface SourceCheck {
  /** The audit's record of the citation (verification, evidence, recommendations), as in an audit report. */
  audit: CitationAudit;
  /** The one label of the pair (audit/bands.ts): the band, with the reason in words (and what to do when it could not be checked). */
  band: BandInfo;
  /** The editors' view: the probability of support and the suggestions on one scale (the API's answer). */
  view: CitationView;
  /** What produced it (index snapshot, models, configuration hash, the flag threshold), as an audit report records. */
  provenance: AuditProvenance;
}

/** The text before the claim as people give it (one string, or its sentences oldest first) -> its sentences. */
export function contextSentences(context: string | readonly string[] | undefined): string[] {
  return typeof context === 'string' ? splitSentences(context) : [...(context ?? [])];
}

/** "History > Early years" -> ['History', 'Early years']. */
export function sectionPathOf(section: string | undefined): string[] {
  return section ? section.split('>').map((s) => s.trim()).filter(Boolean) : [];
}

const NO_TAGS: CitationTags = { failedVerification: false, citationNeeded: false, deadLink: false };
const SHOWN_RAW = 200;

function sourceOf(input: SourceCheckInput['source']): { source: AuditCitation['source']; resolved?: ResolvedSource } {
  const named = (title: string | undefined) => (title ? { title } : {});
  if ('url' in input) return { source: { raw: input.url, url: input.url, ...named(input.title) } };
  // Binary data given as the source's text is refused, not read (it would be scored as sentences).
  if ('text' in input) assertText(input.text, 'the source text');
  const document = 'document' in input ? input.document : pageToDocument(input.text, input.kind ?? 'text', 'source:text', input.title ?? 'Source text');
  const raw = 'text' in input ? input.text : document.sentences.join(' ');
  const resolved: ResolvedSource = document.sentences.length
    ? { status: 'found', document, attempts: [] }
    : { status: 'unsupported', reason: 'no sentences in the source text', attempts: [] };
  return { source: { raw: raw.length > SHOWN_RAW ? `${raw.slice(0, SHOWN_RAW)}…` : raw, ...named('document' in input ? input.document.title : input.title) }, resolved };
}

/** Checks one claim against one source with the pipeline's audit. `signal` stops it between stages. */
export async function checkSource(pipeline: AuditPipeline, input: SourceCheckInput, signal?: AbortSignal): Promise<SourceCheck> {
  const given = sourceOf(input.source);
  const resolved = given.resolved ?? (await pipeline.resolver().resolve(given.source));
  signal?.throwIfAborted();
  const citation: AuditCitation = {
    id: 'check',
    index: 0,
    claim: input.claim,
    context: input.context ?? [],
    sectionPath: input.sectionPath ?? [],
    articleTitle: input.title ?? '',
    source: given.source,
    tags: NO_TAGS,
  };
  // The suggestion count is per call: a throw-away auditor with that setting (construction is free).
  const { config } = pipeline.auditor;
  const auditor = new CitationAuditor(pipeline.deps, {
    ...config,
    recommend: { ...config.recommend, enabled: config.recommend.enabled && input.suggestions > 0, suggestions: Math.max(1, input.suggestions) },
  });
  const audit = await auditor.auditCitation(citation, resolved, signal);
  const [view, provenance] = await Promise.all([citationViewOf(pipeline, given.source, resolved, audit), auditor.provenance()]);
  return { audit, band: audit.band ?? citationBand(audit, auditor.bands), view, provenance };
}

/** The editors' view of one audited citation: reads the suggested documents' texts from the index. */
export async function citationViewOf(pipeline: AuditPipeline, source: AuditCitation['source'], resolved: ResolvedSource, r: CitationAudit): Promise<CitationView> {
  const ids = (r.recommendations?.suggestions ?? []).map((s) => s.docId);
  const store = pipeline.deps.store;
  const docs = new Map<string, Document>(store && ids.length ? (await store.getDocuments(ids)).map((d) => [d.id, d]) : []);
  // Suggestions found by search are in no index: their texts are kept by the pipeline.
  for (const id of ids) if (!docs.has(id) && pipeline.searchDocuments?.has(id)) docs.set(id, pipeline.searchDocuments.get(id)!);
  return citationView(source, resolved, r, pipeline.auditor.flagSignal, docs);
}
