/**
 * MediaWiki XML export (`pages-articles*.xml.bz2`, the multistream form, plain `.xml`, `.xml.gz`; schema
 * export-0.10/0.11): one page at a time through a SAX parser (saxes) over a decompressing stream, so memory
 * holds one page, whatever the dump's size. A multistream dump given with its index (`--index-file`, or the
 * `...-multistream-index.txt.bz2` beside it) is read in parallel by stream (read-multistream.ts), in the
 * same page order.
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
import { openDecompressed } from './decompress.js';
import { newSiteInfo, pageParser, type PageParts, type SiteInfo } from './mediawiki-sax.js';
import { DEFAULT_MAX_PAGE_BYTES, oversizeProblem, PageBudget } from './page-budget.js';
import { multistreamIndexOf, multistreamPages } from './read-multistream.js';
import { RecordError, SourceReadError, type RawDocument, type ReadOptions, type ReadResult, type WikiPageEvent } from './types.js';
import { dumpFiles, MEDIAWIKI_FILE, pageUrl, wikiPageId, wikitextIsDisambiguation, wikitextLinks } from './wiki-pages.js';

/** Pages converted at once by an asynchronous (worker-thread) converter, at most. */
const WINDOW = 64;

/** Export XML files of a path: the file, or the `.xml[.bz2|.gz]` files of a folder in name order. */
export function mediawikiFiles(path: string): Promise<string[]> {
  return dumpFiles(path, MEDIAWIKI_FILE, 'MediaWiki XML (.xml, .xml.bz2, .xml.gz)');
}

export async function* readMediawiki(path: string, opts: ReadOptions = {}): AsyncGenerator<ReadResult> {
  const convert = opts.wikitextToText;
  if (!convert) throw new Error(`${path}: reading MediaWiki XML needs a wikitext parser (ReadOptions.wikitextToText); index it through veracite (Veracite.ingest), which passes the wiki layer's`);
  let toSkip = opts.skip ?? 0;
  const files = await mediawikiFiles(path);
  if (opts.indexFile && files.length !== 1) throw new Error(`${path}: --index-file names the index of one multistream dump; give that dump file, not a folder of ${files.length} files (each dump's own index is found beside it by name)`);
  // Compressed bytes over all files, for one ETA.
  const sizes: number[] = [];
  for (const file of files) sizes.push((await stat(file)).size);
  const total = sizes.reduce((a, b) => a + b, 0);
  let before = 0;
  for (const [fileIndex, file] of files.entries()) {
    const site = newSiteInfo(opts.lang);
    const onBytes = opts.onBytes ? (read: number) => opts.onBytes!(before + read, total) : undefined;
    // A multistream dump with its index: its bzip2 streams are decompressed and parsed on worker threads,
    // and come back in file order, so pages (and the resume count) are exactly the sequential read's.
    const index = await multistreamIndexOf(file, opts);
    const maxPage = opts.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
    const batches = index ? multistreamPages(file, index.file, site, { workers: index.workers, lang: opts.lang, onBytes, maxPageBytes: maxPage }) : sequentialPages(file, site, opts.lang, onBytes, maxPage);
    // Pages in reading order; a converter on worker threads works on up to WINDOW of them at once.
    const inOrder: (ReadResult | Promise<ReadResult>)[] = [];
    try {
      for await (const pages of batches) {
        for (const p of pages) {
          const r = p.oversize !== undefined ? oversizeRecord(file, p, maxPage) : pageRecord(file, p, site.base, site.namespaces, opts.onPage, toSkip > 0 ? undefined : convert);
          if (!r) continue;
          if (toSkip > 0) {
            toSkip--;
            continue;
          }
          inOrder.push(r);
          while (inOrder.length > WINDOW) yield await inOrder.shift()!;
        }
      }
    } catch (e) {
      // The file cannot be read past here: the pages before it still come out (being converted), then the error.
      if (!(e instanceof SourceReadError)) throw e;
      while (inOrder.length) yield await inOrder.shift()!;
      throw e;
    }
    while (inOrder.length) yield await inOrder.shift()!;
    before += sizes[fileIndex]!;
  }
}

/** A page over the budget: a bad record naming it (skipped and counted, or the ingest's stop with --on-error stop). */
function oversizeRecord(file: string, p: PageParts, maxPage: number): ReadResult | undefined {
  if (p.ns !== undefined && p.ns !== '0') return undefined;
  return { ok: false, error: new RecordError(file, p.line, 'revision.text', oversizeProblem(p.title ?? `(no title, id ${p.pageId ?? '?'})`, p.oversize!, maxPage)) };
}

/**
 * The whole file through one parser on this thread: pages as each decompressed chunk completes them. The
 * page budget sits before the parser, so no page over it is ever held.
 */
async function* sequentialPages(file: string, site: SiteInfo, lang: string | undefined, onBytes: ((read: number) => void) | undefined, maxPage: number): AsyncGenerator<PageParts[]> {
  const pages: PageParts[] = [];
  let budget: PageBudget | undefined;
  const parser = pageParser(site, lang, (p) => pages.push(p), () => budget!.lineOffset);
  budget = new PageBudget(maxPage, (text) => parser.write(text));
  const { stream } = await openDecompressed(file, onBytes);
  const decoder = new TextDecoder('utf-8');
  let broken: Error | undefined;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      try {
        budget.push(decoder.decode(chunk, { stream: true }));
      } catch (e) {
        broken = e as Error;
        break;
      }
      yield pages.splice(0);
    }
    if (!broken) {
      budget.push(decoder.decode());
      budget.end();
      parser.close();
    }
  } catch (e) {
    broken ??= e as Error;
  }
  if (broken) {
    stream.destroy();
    // Pages the parser finished before the break are read.
    if (pages.length) yield pages.splice(0);
    const line = parser.line + budget.lineOffset;
    throw new SourceReadError(file, line, `${file}:${line}:${parser.column}: not a readable MediaWiki XML export (${broken.message.split('\n')[0]})`, { cause: broken });
  }
  yield pages.splice(0);
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
  const event: WikiPageEvent = { id, title: p.title, kind: 'article', loc, ...(base ? { wikiBase: base } : {}), ...(convert ? {} : { resumed: true }) };
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
