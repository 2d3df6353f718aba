/**
 * What source lookup found for a citation. A page we could not read is reported with why (`dead`,
 * `unreachable`, `unsupported`, `unreadable`, `blocked`, `not-found`, `no-url`) and is never scored:
 * "could not check" must not read as "the source does not support the claim".
 */
import type { Document } from '../corpus/types.js';
import type { WorkIds } from './work-ids.js';

export type SourceStatus =
  /** Text found (index, snapshot folder, cache or live fetch). */
  | 'found'
  /**
   * Not in the index nor the snapshot folder, and live fetch was off; or (`workNotFound`) the DOI / arXiv
   * / PubMed resolver says the cited work does not exist.
   */
  | 'not-found'
  /**
   * The page is gone (HTTP 404/410, or a domain without DNS record while the archive answered) and no
   * archived copy could be read.
   */
  | 'dead'
  /** No answer (offline, no DNS answer, timeout, refused connection), HTTP 5xx/403/429, too many redirects. */
  | 'unreachable'
  /** A content type we do not read, a page over the size cap, or a page without main text. */
  | 'unsupported'
  /** A PDF we cannot take text from: no text layer (a scan without OCR), encrypted or damaged. */
  | 'unreadable'
  /** The SSRF guard refused the address (private, loopback, metadata...). */
  | 'blocked'
  /** The citation has no URL (a book, an {{sfn}} short citation...). */
  | 'no-url';

/** `api`: a metadata API's abstract or open full text (Crossref, Europe PMC, arXiv; work-records.ts). */
export type SourceVia = 'index' | 'snapshot' | 'cache' | 'fetch' | 'archive' | 'api';

/** One place we looked, in order, for the report. */
export interface SourceAttempt {
  via: SourceVia;
  url: string;
  outcome: SourceStatus;
  reason?: string;
  httpStatus?: number;
}

export interface ResolvedSource {
  status: SourceStatus;
  /** Where the text came from when found. */
  via?: SourceVia;
  /** The cited URL (or archive URL when the citation has only that). */
  url?: string;
  /** The URL whose content was used (after redirects; the archive URL when the archived copy was read). */
  usedUrl?: string;
  /** Id of the indexed document when found in the index. */
  docId?: string;
  document?: Document;
  /** Why it was not found / not readable (last failure). */
  reason?: string;
  /** The identifier resolver (doi.org, arXiv, PubMed) answered that the cited work does not exist. */
  workNotFound?: boolean;
  /** Found through a metadata API: which one, and whether the text is the whole work or its abstract only. */
  resolvedBy?: { api: string; fullText: boolean };
  attempts: SourceAttempt[];
}

/** The reference fields source lookup uses (a subset of the parser's CitationSource). */
export interface SourceRef {
  url?: string;
  archiveUrl?: string;
  archiveDate?: string;
  accessDate?: string;
  date?: string;
  deadUrl?: boolean;
  title?: string;
  /** DOI / arXiv / PubMed ids of the cited work: resolved to their landing page when there is no URL. */
  ids?: WorkIds;
}
