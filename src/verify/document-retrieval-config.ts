/** Document retrieval's configuration and defaults, apart from the retrieval (entity mentions load compromise) so that the settings read them cheaply. */
import type { SearchMode } from '../retrieve/retriever.js';

export interface DocumentRetrievalConfig {
  mode: SearchMode;
  /** Documents taken from passage retrieval. */
  retrievalDocs: number;
  titleMatch: boolean;
  /** Documents taken from title matching. */
  titleDocs: number;
  /** Cap on the union. */
  maxDocs: number;
}

export const DEFAULT_DOCUMENT_RETRIEVAL: DocumentRetrievalConfig = { mode: 'bm25', retrievalDocs: 10, titleMatch: true, titleDocs: 5, maxDocs: 10 };
