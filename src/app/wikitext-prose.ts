/**
 * Wikitext -> the prose an index holds, for the MediaWiki dump reader (src/corpus cannot import the wiki
 * layer): the wiki layer's parser, so templates, tables, references and infoboxes are handled exactly as
 * the audit handles them (infoboxes, tables and captions out of the prose, references out of sentences).
 * Loaded only when a dump is read.
 */
export async function wikitextProse(): Promise<(wikitext: string, title: string) => string> {
  const { parseWikitext } = await import('../wiki/parse-wikitext.js');
  return (wikitext, title) => parseWikitext(wikitext, { title, contextSentences: 0 }).text;
}

/** Whether an ingest of this path and format may read MediaWiki XML (and so needs the parser). */
export function mayReadMediawiki(path: string, format: string | undefined): boolean {
  return format === 'mediawiki' || ((format === undefined || format === 'auto') && /\.xml(\.bz2|\.gz)?$/i.test(path));
}
