/**
 * MediaWiki XML export (`pages-articles*.xml.bz2`, the multistream form, plain `.xml`, `.xml.gz`; schema
 * export-0.10/0.11): one page at a time through a SAX parser (saxes) over a decompressing stream, so memory
 * holds one page, whatever the dump's size.
 *
 * Main-namespace pages only. A redirect (`<redirect title=...>`) or a page transcluding a disambiguation
 * template is reported through `onPage` and not yielded; every other page is an article, its wikitext
 * turned into prose by `wikitextToText` (the wiki layer's parser, passed in). A page with several
 * revisions (history and adds-changes files) is read at its latest revision.
 *
 * Records for `skip` are the yielded ones (articles and bad pages); skipped pages are not converted, only
 * reported to `onPage`, which is what makes resuming cheap next to reading.
 */
import { stat } from 'node:fs/promises';
import { SaxesParser } from 'saxes';
import { openDecompressed } from './decompress.js';
import { RecordError, type RawDocument, type ReadOptions, type ReadResult, type WikiPageEvent } from './types.js';
import { dumpFiles, langOfDbName, MEDIAWIKI_FILE, pageUrl, wikiBaseOf, wikipediaBase, wikiPageId, wikitextIsDisambiguation, wikitextLinks } from './wiki-pages.js';

/** Pages converted at once by an asynchronous (worker-thread) converter, at most. */
const WINDOW = 64;

interface PageParts {
  line: number;
  title?: string;
  ns?: string;
  pageId?: string;
  redirect?: string;
  revisionId: number;
  text?: string;
}

/** Export XML files of a path: the file, or the `.xml[.bz2|.gz]` files of a folder in name order. */
export function mediawikiFiles(path: string): Promise<string[]> {
  return dumpFiles(path, MEDIAWIKI_FILE, 'MediaWiki XML (.xml, .xml.bz2, .xml.gz)');
}

export async function* readMediawiki(path: string, opts: ReadOptions = {}): AsyncGenerator<ReadResult> {
  const convert = opts.wikitextToText;
  if (!convert) throw new Error(`${path}: reading MediaWiki XML needs a wikitext parser (ReadOptions.wikitextToText); index it through veracite (Veracite.ingest), which passes the wiki layer's`);
  let toSkip = opts.skip ?? 0;
  const files = await mediawikiFiles(path);
  // Compressed bytes over all files, for one ETA.
  const sizes: number[] = [];
  for (const file of files) sizes.push((await stat(file)).size);
  const total = sizes.reduce((a, b) => a + b, 0);
  let before = 0;
  for (const [fileIndex, file] of files.entries()) {
    const pages: PageParts[] = [];
    const site: { base: string | undefined; namespaces: Set<string> } = { base: opts.lang ? wikipediaBase(opts.lang) : undefined, namespaces: new Set() };
    const parser = new SaxesParser({ position: true });
    const stack: string[] = [];
    let page: PageParts | undefined;
    let revision: { id: number; text?: string } | undefined;
    let buf: string[] | undefined;
    let nsName = false;
    parser.on('opentag', (tag) => {
      const name = tag.name;
      stack.push(name);
      if (name === 'page') page = { line: parser.line, revisionId: -1 };
      else if (page && name === 'redirect') page.redirect = String(tag.attributes['title'] ?? '');
      else if (page && name === 'revision') revision = { id: -1 };
      if (isCollected(stack)) buf = [];
      nsName = name === 'namespace' && stack[stack.length - 2] === 'namespaces';
      if (nsName) buf = [];
      if (name === 'mediawiki' && !opts.lang) {
        const lang = tag.attributes['xml:lang'];
        if (typeof lang === 'string' && lang) site.base ??= wikipediaBase(lang);
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
        } else if (revision && parent === 'revision') {
          if (name === 'id') revision.id = Number(value);
          else if (name === 'text') revision.text = value;
        } else if (parent === 'siteinfo') {
          if (name === 'base' && !opts.lang) site.base = wikiBaseOf(value.trim());
          else if (name === 'dbname' && !site.base) {
            const lang = langOfDbName(value.trim());
            if (lang) site.base = wikipediaBase(lang);
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
        pages.push(page);
        page = undefined;
      }
    });
    const { stream } = await openDecompressed(file, opts.onBytes ? (read) => opts.onBytes!(before + read, total) : undefined);
    const decoder = new TextDecoder('utf-8');
    // Pages in reading order; a converter on worker threads works on up to WINDOW of them at once.
    const inOrder: (ReadResult | Promise<ReadResult>)[] = [];
    const queue = () => {
      for (const p of pages.splice(0)) {
        const r = pageRecord(file, p, site.base, site.namespaces, opts.onPage, toSkip > 0 ? undefined : convert);
        if (!r) continue;
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        inOrder.push(r);
      }
    };
    let broken: Error | undefined;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        try {
          parser.write(decoder.decode(chunk, { stream: true }));
        } catch (e) {
          broken = e as Error;
          break;
        }
        queue();
        while (inOrder.length > WINDOW) yield await inOrder.shift()!;
      }
      if (!broken) {
        parser.write(decoder.decode());
        parser.close();
      }
    } catch (e) {
      broken ??= e as Error;
    }
    if (broken) {
      stream.destroy();
      throw new Error(`${file}:${parser.line}:${parser.column}: not a readable MediaWiki XML export (${broken.message.split('\n')[0]})`, { cause: broken });
    }
    queue();
    while (inOrder.length) yield await inOrder.shift()!;
    before += sizes[fileIndex]!;
  }
}

/** Text of these elements is kept: page title/ns/id, revision id/text, siteinfo base/dbname. */
function isCollected(stack: string[]): boolean {
  const name = stack[stack.length - 1]!;
  const parent = stack[stack.length - 2];
  if (parent === 'page') return name === 'title' || name === 'ns' || name === 'id';
  if (parent === 'revision') return name === 'id' || name === 'text';
  if (parent === 'siteinfo') return name === 'base' || name === 'dbname';
  return false;
}

const REDIRECT_TEXT = /^\s*#\s*redirect\s*:?\s*\[\[([^\]|#]+)/i;

/**
 * One page: undefined for pages outside the main namespace and for redirects and disambiguation pages
 * (reported to `onPage`); a record (document or error) otherwise. Without `convert` (a page skipped on
 * resume) only the page's kind is worked out.
 */
function pageRecord(file: string, p: PageParts, base: string | undefined, namespaces: ReadonlySet<string>, onPage: ReadOptions['onPage'], convert: ReadOptions['wikitextToText']): ReadResult | Promise<ReadResult> | undefined {
  const loc = { file, line: p.line };
  if (p.title === undefined || !p.title.trim()) return { ok: false, error: new RecordError(file, p.line, 'title', 'page without a title') };
  if (p.ns === undefined) return { ok: false, error: new RecordError(file, p.line, 'ns', `page "${p.title}" without a namespace`) };
  if (p.ns !== '0') return undefined;
  const id = wikiPageId(p.title);
  const text = p.text ?? '';
  const event: WikiPageEvent = { id, title: p.title, kind: 'article', loc, ...(base ? { wikiBase: base } : {}) };
  const redirect = p.redirect ?? REDIRECT_TEXT.exec(text)?.[1]?.trim();
  if (redirect !== undefined) {
    onPage?.({ ...event, kind: 'redirect', target: redirect });
    return undefined;
  }
  if (wikitextIsDisambiguation(text)) {
    onPage?.({ ...event, kind: 'disambiguation' });
    return undefined;
  }
  onPage?.(event);
  if (!convert) return { ok: true, doc: { id, title: p.title }, loc };
  if (p.text === undefined) return { ok: false, error: new RecordError(file, p.line, 'revision.text', `page "${p.title}" has no revision text`) };
  const title = p.title;
  const failed = (e: unknown): ReadResult => ({ ok: false, error: new RecordError(file, p.line, 'revision.text', `page "${title}": wikitext could not be read (${(e as Error).message})`) });
  const done = (prose: string): ReadResult => {
    const doc: RawDocument = { id, title, text: prose };
    if (base) doc.url = pageUrl(base, id);
    const links = wikitextLinks(text, namespaces);
    if (links.length) doc.links = links;
    return { ok: true, doc, loc };
  };
  let prose: string | Promise<string>;
  try {
    prose = convert(text, title);
  } catch (e) {
    return failed(e);
  }
  return typeof prose === 'string' ? done(prose) : prose.then(done, failed);
}
