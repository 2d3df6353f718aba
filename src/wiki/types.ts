/**
 * Shapes of an article read for citation checking (SIDE): every citation becomes a Citation whose claim is
 * the whole sentence holding its marker (SIDE's text before the marker is kept as `claimPrefix`), with the
 * sentences before it as context.
 *
 * Offsets (`charStart`, `charEnd`, `claimPrefixEnd`, section `start`/`end`) index `Article.text`, the plain
 * text we build, so `article.text.slice(c.charStart, c.charEnd) === c.claim` and
 * `article.text.slice(c.charStart, c.claimPrefixEnd) === c.claimPrefix` always hold.
 */

import type { WorkIds } from '../sources/work-ids.js';

/**
 * Identifiers of the cited work, as its reference gives them (cite templates' doi=, pmid=, pmc=, arxiv=,
 * isbn=, issn=, bibcode=, s2cid=, jstor=, hdl=, oclc=; {{doi|...}}-style templates; "ISBN ..." / "PMID ..."
 * written in a free-form ref). The same shape as the sources layer's `WorkIds`, which resolves them.
 */
export type CitationIdentifiers = WorkIds;

/** Where the cited material is, as far as the reference tells us. */
export interface CitationSource {
  url?: string;
  title?: string;
  /** Newspaper, website, journal, magazine... (cite templates' work/website/newspaper/journal). */
  work?: string;
  publisher?: string;
  date?: string;
  accessDate?: string;
  archiveUrl?: string;
  archiveDate?: string;
  /** From `url-status=dead|unfit|usurped` or `deadurl=yes` (true), `url-status=live` / `deadurl=no` (false). */
  deadUrl?: boolean;
  /** DOI, PubMed, PMC, arXiv, ISBN... of the cited work (src/wiki/citation-templates.ts). */
  ids?: CitationIdentifiers;
  /** The cited page(s): `page=` / `pages=` / `at=`, a short footnote's `p=` / `pp=` / `loc=`, or `{{rp|...}}`. */
  pages?: string;
  /** `quote=` of the cite template. */
  quote?: string;
  /**
   * For a short footnote (`{{sfn}}`, `{{harvnb}}`, alone or inside a ref): the wikitext of the full entry in
   * the bibliography it points at (matched by author last names and year, or by `ref={{sfnref|...}}`),
   * whose fields (URL, identifiers, title...) this source carries.
   */
  fullEntry?: string;
  /**
   * The reference as written: the `<ref>...</ref>` wikitext (for a reuse `<ref name="a"/>`, the defining
   * ref's wikitext, since that is where the fields come from), the `{{sfn}}` template, or, for HTML input,
   * the `<li>` of the reference list.
   */
  raw: string;
  /** The ref name (`<ref name="a">`), when it has one. */
  name?: string;
}

/** Inline maintenance templates attached to the citation (right after the ref, or inside it for dead links). */
export interface CitationTags {
  failedVerification: boolean;
  citationNeeded: boolean;
  deadLink: boolean;
}

/**
 * How the citation appears in the article: a ref with its own content, the reuse of a named ref
 * (`<ref name="a"/>`, or a second footnote link to the same note in HTML), or a short citation template
 * (`{{sfn}}`, `{{harvnb}}`) outside any ref.
 */
export type CitationKind = 'ref' | 'reuse' | 'short';

export interface Citation {
  /** `${articleTitle}#${index}`: stable as long as the article text does not change. */
  id: string;
  /** 0-based position among the article's citations, in reading order. */
  index: number;
  /**
   * The whole sentence that holds the citation marker (for a mid-sentence ref too: an editor reads the
   * sentence). Several markers in one sentence give several citations with this same claim.
   */
  claim: string;
  /**
   * SIDE's "text before the citation": the sentence from its start up to the marker. Equal to `claim` for
   * a marker after the sentence's final punctuation; a clause ("Bodmin (Bosvena") for a mid-sentence one.
   */
  claimPrefix: string;
  /** Preceding sentences of the same section, oldest first, at most `contextSentences` of them. */
  context: string[];
  /** Headings from the top-level section down, e.g. ["History", "Early years"]; [] for the lead. */
  sectionPath: string[];
  articleTitle: string;
  /** `Article.text.slice(charStart, charEnd) === claim`. */
  charStart: number;
  charEnd: number;
  /** `Article.text.slice(charStart, claimPrefixEnd) === claimPrefix` (the marker sits at or after it). */
  claimPrefixEnd: number;
  source: CitationSource;
  tags: CitationTags;
  kind: CitationKind;
  /** Offsets of the ref (or reuse tag, or sfn template) in the input wikitext; absent for other inputs. */
  wikitextStart?: number;
  wikitextEnd?: number;
}

/** A sentence tagged {{citation needed}} without any ref before the tag (claim and prefix as for citations). */
export interface UncitedClaim {
  claim: string;
  claimPrefix: string;
  context: string[];
  sectionPath: string[];
  charStart: number;
  charEnd: number;
  claimPrefixEnd: number;
  /** Offsets of the {{citation needed}} template in the input wikitext; absent for other inputs. */
  wikitextStart?: number;
  wikitextEnd?: number;
}

/**
 * A reference that produced no citation, and why. Refs in infoboxes, tables, image captions, galleries and
 * notes ({{efn}}) have no sentence of prose before them, so they are reported here rather than given an
 * invented claim.
 */
export interface SkippedRef {
  /** e.g. "template:Infobox UK place", "table", "file", "gallery", "heading", "no-claim", "dropped". */
  reason: string;
  source: CitationSource;
  wikitextStart?: number;
  wikitextEnd?: number;
}

export interface ArticleSection {
  path: string[];
  /** [start, end) in Article.text; start === end for a section without prose. */
  start: number;
  end: number;
}

export interface Article {
  title: string;
  /** Plain text of the prose: paragraphs separated by a blank line, list items by a newline. */
  text: string;
  sections: ArticleSection[];
  citations: Citation[];
  uncitedClaims: UncitedClaim[];
  skipped: SkippedRef[];
  /**
   * The article has more citations than `ParseOptions.maxCitations` and the reader stopped once it saw
   * one more: `citations` are the first ones; `text`, `sections`, `skipped` and `uncitedClaims` end where
   * it stopped.
   */
  truncated?: boolean;
}

export interface ParseOptions {
  /** Article title; defaults to "" (wikitext has no title of its own). */
  title?: string;
  /** How many preceding sentences of the same section go into `context` (default 5). */
  contextSentences?: number;
  /**
   * Read at most this many citations (the first ones, in reading order) and stop: a long wikitext is
   * rendered a piece at a time, so only the pieces up to the one after the last are parsed
   * (`Article.truncated` when there are more).
   */
  maxCitations?: number;
  /** Wikitext: size of the pieces (cut at top-level headings) rendered at a time, characters (default 32 KiB; tests use less). */
  chunkChars?: number;
  /** Wikitext: longest stretch without a heading rendered at once; longer ones are cut at paragraph or sentence starts (default 8 KiB). */
  maxPieceChars?: number;
}

export const DEFAULT_CONTEXT_SENTENCES = 5;
