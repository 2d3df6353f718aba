/**
 * A MediaWiki export of made-up articles, for tests and benchmarks of the dump readers (issue 45): page
 * `i` (1-based) is titled "Page i" and its text holds a word no other page has (`pageWord(i)`), so a
 * search for it finds that page and no other. `broken` puts malformed XML (a mistyped closing tag) in
 * that page's title.
 */

/**
 * The word only page `i` holds: letters only, so the analyzer keeps it as one token, and ending in "x",
 * which no English stemming rule touches (a final "y" would become "i": page 24's word would be page 8's).
 */
export function pageWord(i: number): string {
  let s = '';
  for (let n = i; n > 0; n = Math.floor(n / 26)) s = String.fromCharCode(97 + (n % 26)) + s;
  return `zqv${s}x`;
}

export function pageXml(i: number, opts: { broken?: boolean; text?: string } = {}): string {
  const title = opts.broken ? `<title>Page ${i}</titel>` : `<title>Page ${i}</title>`;
  const text = opts.text ?? `'''Page ${i}''' is a made-up article about the ${pageWord(i)} stone. The ${pageWord(i)} stone is found in quarries and was described in a survey of minerals.\n\nIt is grey and hard.`;
  return `  <page>\n    ${title}\n    <ns>0</ns>\n    <id>${i}</id>\n    <revision>\n      <id>${1000000 + i}</id>\n      <text xml:space="preserve">${text}</text>\n    </revision>\n  </page>\n`;
}

export const EXPORT_HEAD = `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">\n  <siteinfo>\n    <sitename>Wikipedia</sitename>\n    <dbname>enwiki</dbname>\n    <base>https://en.wikipedia.org/wiki/Main_Page</base>\n  </siteinfo>\n`;
export const EXPORT_TAIL = '</mediawiki>\n';

/** `pages` made-up pages, `broken` (1-based) malformed. */
export function syntheticExport(pages: number, opts: { broken?: number } = {}): string {
  const parts = [EXPORT_HEAD];
  for (let i = 1; i <= pages; i++) parts.push(pageXml(i, { broken: i === opts.broken }));
  parts.push(EXPORT_TAIL);
  return parts.join('');
}
