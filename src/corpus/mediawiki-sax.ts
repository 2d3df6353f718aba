/**
 * The SAX side of reading a MediaWiki XML export: a saxes parser that collects each `<page>` (title, ns,
 * id, redirect, latest revision's text) and the siteinfo the pages need (wiki base URL, namespace names).
 * Shared by the sequential reader (one parser over the whole decompressed file) and the multistream
 * workers (one parser per share of bzip2 streams), so both see pages alike.
 */
import { SaxesParser } from 'saxes';
import { langOfDbName, wikiBaseOf, wikipediaBase } from './wiki-pages.js';

/** One page as read from the XML, before it is classified and converted. */
export interface PageParts {
  /** 1-based line of the `<page>` tag in the decompressed file. */
  line: number;
  title?: string;
  ns?: string;
  pageId?: string;
  redirect?: string;
  revisionId: number;
  text?: string;
  /** A page over the page budget (page-budget.ts): its size in chars; it has no text. */
  oversize?: number;
}

/** What siteinfo says: the wiki's article URL prefix and its namespace names (lower case). */
export interface SiteInfo {
  base: string | undefined;
  namespaces: Set<string>;
}

export function newSiteInfo(lang: string | undefined): SiteInfo {
  return { base: lang ? wikipediaBase(lang) : undefined, namespaces: new Set() };
}

/**
 * A parser that pushes each finished page to `onPage` and fills `site` from the header. `lang` (the
 * user's --lang) wins over what the dump says about its language.
 */
export function pageParser(site: SiteInfo, lang: string | undefined, onPage: (p: PageParts) => void, lineOffset: () => number = () => 0): SaxesParser {
  const parser = new SaxesParser({ position: true });
  const stack: string[] = [];
  let page: PageParts | undefined;
  let revision: { id: number; text?: string } | undefined;
  let buf: string[] | undefined;
  let nsName = false;
  parser.on('opentag', (tag) => {
    const name = tag.name;
    stack.push(name);
    if (name === 'page') page = { line: parser.line + lineOffset(), revisionId: -1 };
    else if (page && name === 'redirect') page.redirect = String(tag.attributes['title'] ?? '');
    else if (page && name === 'revision') revision = { id: -1 };
    if (isCollected(stack)) buf = [];
    nsName = name === 'namespace' && stack[stack.length - 2] === 'namespaces';
    if (nsName) buf = [];
    if (name === 'mediawiki' && !lang) {
      const xmlLang = tag.attributes['xml:lang'];
      if (typeof xmlLang === 'string' && xmlLang) site.base ??= wikipediaBase(xmlLang);
    }
  });
  parser.on('text', (t: string) => {
    if (buf) buf.push(t);
  });
  parser.on('closetag', (tag) => {
    const name = tag.name;
    const value = buf ? buf.join('') : undefined;
    const parent = stack[stack.length - 2];
    if (value !== undefined) {
      if (nsName && value.trim()) site.namespaces.add(value.trim().toLowerCase());
      else if (page && parent === 'page') {
        if (name === 'title') page.title = value;
        else if (name === 'ns') page.ns = value.trim();
        else if (name === 'id') page.pageId = value.trim();
        else if (name === 'oversize') page.oversize = Number(value);
      } else if (revision && parent === 'revision') {
        if (name === 'id') revision.id = Number(value);
        else if (name === 'text') revision.text = value;
      } else if (parent === 'siteinfo') {
        if (name === 'base' && !lang) site.base = wikiBaseOf(value.trim());
        else if (name === 'dbname' && !site.base) {
          const code = langOfDbName(value.trim());
          if (code) site.base = wikipediaBase(code);
        }
      }
    }
    buf = undefined;
    nsName = false;
    stack.pop();
    if (name === 'revision' && page && revision) {
      // Revisions come oldest first; the highest id is the page as it is now.
      if (revision.id >= page.revisionId) {
        page.revisionId = revision.id;
        page.text = revision.text ?? '';
      }
      revision = undefined;
    } else if (name === 'page' && page) {
      onPage(page);
      page = undefined;
    }
  });
  return parser;
}

/** Text of these elements is kept: page title/ns/id, revision id/text, siteinfo base/dbname. */
function isCollected(stack: string[]): boolean {
  const name = stack[stack.length - 1]!;
  const parent = stack[stack.length - 2];
  if (parent === 'page') return name === 'title' || name === 'ns' || name === 'id' || name === 'oversize';
  if (parent === 'revision') return name === 'id' || name === 'text';
  if (parent === 'siteinfo') return name === 'base' || name === 'dbname';
  return false;
}
