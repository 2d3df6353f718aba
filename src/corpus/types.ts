/**
 * Data shapes that flow from corpus readers into the store.
 *
 * A reader yields RawDocuments (text may be unsplit); `prepareDocument` turns one into a Document with a
 * fixed sentence list; `chunkPassages` groups those sentences into ~100-word Passages that remember the
 * sentence range they cover, so evidence found in a passage maps back to sentence ids.
 */

/** Where a record came from, so errors and provenance can name file and line. */
export interface RecordLocation {
  file: string;
  /** 1-based line number for line-oriented formats; 0 for whole-file formats (txt/md/html). */
  line: number;
}

export interface RawDocument {
  id: string;
  title: string;
  url?: string;
  /** Unsplit text. Exactly one of `text` / `sentences` is normally set; `sentences` wins when both are. */
  text?: string;
  /** Sentence list given by the source (FEVER lines, SciFact abstracts): kept exactly as given. */
  sentences?: string[];
  /** Outgoing links (e.g. FEVER/Wikipedia hyperlinks), used by the evidence hop stage. */
  links?: string[];
  /** Text page by page (a PDF): split like `text`, and each sentence remembers its page (page-sentences.ts). */
  pages?: string[];
}

export interface Document {
  id: string;
  title: string;
  url?: string;
  sentences: string[];
  links?: string[];
  /**
   * For paged sources (PDF): the 1-based page each sentence starts on, parallel to `sentences`, so
   * evidence can say "p. 12". A parallel array rather than markers in the text: sentence strings, ids and
   * every consumer that does not care about pages stay as they are.
   */
  sentencePages?: number[];
}

export interface Passage {
  /** `${docId}#${index}` */
  id: string;
  docId: string;
  title: string;
  /** 0-based position of the passage in its document. */
  index: number;
  /** Sentences [sentenceStart, sentenceEnd) of the document. */
  sentenceStart: number;
  sentenceEnd: number;
  text: string;
}

/** A malformed record: names the file, the line and the field so the user can fix the input. */
export class RecordError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string | undefined,
    readonly problem: string,
  ) {
    super(`${file}:${line}${field ? ` field "${field}"` : ''}: ${problem}`);
    this.name = 'RecordError';
  }
}

/**
 * A source that cannot be read past a point (XML that does not parse, a damaged compressed stream): the
 * reader has yielded every record before it, and names the file and line. Ingest keeps what was read
 * (issue 45) and reports this as the reason it stopped.
 */
export class SourceReadError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SourceReadError';
  }
}

export type ReadResult =
  | { ok: true; doc: RawDocument; loc: RecordLocation }
  | { ok: false; error: RecordError };

export type CorpusFormat = 'jsonl' | 'scifact' | 'fever' | 'kilt' | 'wice' | 'folder' | 'mediawiki' | 'cirrus';

/**
 * A main-namespace page of a Wikimedia dump as the reader saw it: an article (indexed), or a redirect or
 * disambiguation page (recorded, not indexed). Reported for every page, those skipped on resume included,
 * so an update can tell which pages a complete dump still holds.
 */
export interface WikiPageEvent {
  /** Document id the page has (or would have) in the index: the title with underscores. */
  id: string;
  title: string;
  kind: 'article' | 'redirect' | 'disambiguation';
  /** A redirect's target title. */
  target?: string;
  /** The wiki's article URL prefix (`https://en.wikipedia.org/wiki/`), when known. */
  wikiBase?: string;
  loc: RecordLocation;
  /**
   * Reported while skipping the records an earlier run committed (a resume): what the ingest recorded for
   * this page then is in the index already.
   */
  resumed?: boolean;
  /**
   * The page's redirects were all reported just before it (CirrusSearch lists them on their target): a
   * redirect to it that was not is gone. MediaWiki XML reports redirects as pages of their own, so not there.
   */
  redirectsListed?: boolean;
}

export interface ReadOptions {
  /** Skip this many leading records (used to resume an interrupted ingest). */
  skip?: number;
  /**
   * MediaWiki XML: wikitext -> plain prose. The corpus layer has no wikitext parser of its own; the
   * composition root passes the wiki layer's (src/wiki/parse-wikitext.ts), as the audit reads articles.
   */
  wikitextToText?: (wikitext: string, title: string) => string | Promise<string>;
  /** Dumps: every main-namespace page seen (see WikiPageEvent). */
  onPage?: (page: WikiPageEvent) => void;
  /** Dumps: compressed bytes read so far and the total, for progress and ETA. */
  onBytes?: (read: number, total: number) => void;
  /** Dumps: language code of the edition (`en`, `de`) when the dump does not name it. */
  lang?: string;
  /**
   * MediaWiki multistream `.xml.bz2`: its index (`...-multistream-index.txt.bz2`, lines `offset:page
   * id:title`), so the dump is read in parallel by stream. Default: the index beside the dump, by name.
   */
  indexFile?: string;
  /** Worker threads reading a multistream dump's streams (default: cores - 1, at least 1); 0 reads it on one thread. */
  readWorkers?: number;
  /**
   * MediaWiki XML: the most XML one page may take (chars; default DEFAULT_MAX_PAGE_BYTES, 64 MB); CirrusSearch:
   * the most one document line may take (bytes, bounded-lines.ts). A larger page is not read but yielded as a bad
   * record naming it (corpus/page-budget.ts).
   */
  maxPageBytes?: number;
}
