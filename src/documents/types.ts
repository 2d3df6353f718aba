/**
 * A document with citations beyond Wikipedia (a Markdown or HTML report, a blog post, plain text, a PDF),
 * read into the same shape as a Wikipedia article: one citation per marker, whose claim is the WHOLE
 * sentence carrying the marker (`claimPrefix` = sentence start -> marker), with the preceding sentences of
 * its section as context and the heading path as `sectionPath`. Offsets index `CitedDocument.text`:
 * `doc.text.slice(c.charStart, c.charEnd) === c.claim`.
 */
import type { DocumentKind } from '../audit/types.js';
import type { WorkIds } from '../sources/work-ids.js';
import type { Citation, CitationSource } from '../wiki/types.js';

export type { DocumentKind };

/** How the citation is written in the document. */
export type MarkerKind =
  /** An inline or reference-style link: `[text](url)`, `[text][ref]`, `<a href>`, an autolink. */
  | 'link'
  /** A footnote reference: `[^1]`, `<sup><a href="#fn1">`. */
  | 'footnote'
  /** `[3]` in the text, pointing into a numbered "References" list. */
  | 'numbered'
  /** A DOI, arXiv id or PubMed id written in the sentence. */
  | 'identifier'
  /** A bare URL written in the sentence (plain text). */
  | 'url';

export interface DocumentSource extends CitationSource {
  ids?: WorkIds;
}

/**
 * A citation of a document beyond Wikipedia: the wiki parser's Citation (whole-sentence claim, prefix,
 * context, section path, offsets), with identifiers on the source and the kind of marker that made it.
 * Wikipedia maintenance tags do not exist here (all false); kind 'reuse' marks the second and later use of
 * the same footnote or numbered reference.
 */
export interface DocumentCitation extends Omit<Citation, 'source' | 'claimPrefixEnd' | 'wikitextStart' | 'wikitextEnd'> {
  source: DocumentSource;
  marker: MarkerKind;
}

/** A reference or link that gave no citation, and why (in a heading, no entry for [7], not a web link...). */
export interface SkippedCitation {
  reason: string;
  source: DocumentSource;
}

export interface DocumentSection {
  path: string[];
  start: number;
  end: number;
}

export interface CitedDocument {
  title: string;
  kind: DocumentKind;
  text: string;
  sections: DocumentSection[];
  citations: DocumentCitation[];
  skipped: SkippedCitation[];
}

export interface DocumentParseOptions {
  /** Default: the first level-1 heading, the HTML <title>, or ''. */
  title?: string;
  /** Preceding sentences of the same section kept as context (default 5). */
  contextSentences?: number;
  /** Base URL for relative links (HTML pages read from a URL). */
  baseUrl?: string;
  /** A PDF's limits (corpus/pdf-limits.ts): over them, reading throws PdfLimitError. */
  pdf?: { maxInflatedBytes?: number; maxTextChars?: number };
}
