/** The document kind of an audit input read before kinds existed (format only). */
import type { AuditInput, DocumentKind } from './types.js';

export function documentKindOf(format: AuditInput['format']): DocumentKind {
  if (format === 'wikitext') return 'wikipedia-wikitext';
  if (format === 'html') return 'wikipedia-html';
  return format;
}
