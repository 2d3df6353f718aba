/**
 * One share of a multistream dump, read where it is called (a worker thread of read-multistream.ts):
 * bytes [start, end) decompressed (they begin at a bzip2 stream's start, so they decompress on their own)
 * and parsed into pages. A share in the middle of the file is a run of `<page>` elements without the root
 * element, so it is parsed inside a `<mediawiki>` wrapper; the first share carries the real opening tag
 * and siteinfo, the last the real closing tag.
 */
import { open } from 'node:fs/promises';
import { openDecompressed } from './decompress.js';
import { newSiteInfo, pageParser, type PageParts } from './mediawiki-sax.js';
import { countNewlines, PageBudget } from './page-budget.js';

export interface ShareTask {
  file: string;
  start: number;
  end: number;
  /** Whether the share ends the file: its closing tag must be there (a cut dump fails, as read in one go). */
  last: boolean;
  lang?: string;
  /** The page budget (ReadOptions.maxPageBytes): a larger page becomes a stub the reader reports. */
  maxPageBytes: number;
}

export type ShareResult =
  | {
      ok: true;
      pages: PageParts[];
      /** Newlines in the share's text: the next share's first line follows them. */
      newlines: number;
      /** The first share only: what its siteinfo says. */
      site?: { base: string | undefined; namespaces: string[] };
    }
  /**
   * XML that does not parse: line (within the share) and column, for the caller to place in the file;
   * `pages`: those the parser finished before it.
   */
  | { ok: false; line: number; column: number; message: string; pages: PageParts[] };

const BZIP2_MAGIC = 'BZh';

export async function readShare(task: ShareTask): Promise<ShareResult> {
  const { file, start, end } = task;
  const where = `${file} bytes ${start}-${end}`;
  const fd = await open(file, 'r');
  try {
    const head = Buffer.alloc(3);
    await fd.read(head, 0, 3, start);
    if (head.toString('latin1') !== BZIP2_MAGIC) throw new Error(`${file}: no bzip2 stream starts at byte ${start} (an offset of its multistream index): the index does not belong to this dump; pass the right --index-file, or --read-workers 0 to read the dump without one`);
  } finally {
    await fd.close();
  }
  const site = newSiteInfo(task.lang);
  const pages: PageParts[] = [];
  let budget: PageBudget | undefined;
  const parser = pageParser(site, task.lang, (p) => pages.push(p), () => budget!.lineOffset);
  budget = new PageBudget(task.maxPageBytes, (text) => parser.write(text));
  // The wrapper adds no newline, so the parser's lines are the share's own.
  const opened = start > 0;
  // Decompressed text streams through the page budget into the parser: a share is never held whole, so a
  // bomb inflating to GBs costs time, not memory.
  const decoder = new TextDecoder('utf-8');
  let newlines = 0;
  let tail = '';
  let xmlError: Error | undefined;
  const parse = (fn: () => void) => {
    if (xmlError) return;
    try {
      fn();
    } catch (e) {
      xmlError = e as Error;
    }
  };
  const feed = (text: string) => {
    newlines += countNewlines(text);
    tail = (tail + text).slice(-64);
    parse(() => budget!.push(text));
  };
  if (opened) parse(() => parser.write('<mediawiki>'));
  const { stream } = await openDecompressed(file, undefined, { start, end });
  try {
    for await (const c of stream as AsyncIterable<Buffer>) {
      feed(decoder.decode(c, { stream: true }));
      // Broken XML: the rest of the share is not needed.
      if (xmlError) break;
    }
  } catch (e) {
    throw new Error(`${where}: not readable bzip2 (${(e as Error).message.split('\n')[0]}); the file may be damaged or cut short: download it again`);
  } finally {
    stream.destroy();
  }
  if (!xmlError) {
    feed(decoder.decode());
    const closed = task.last || /<\/mediawiki>\s*$/.test(tail);
    parse(() => budget!.end());
    if (!closed) parse(() => parser.write('</mediawiki>'));
    parse(() => parser.close());
  }
  if (xmlError) {
    const column = parser.line === 1 && opened ? parser.column - '<mediawiki>'.length : parser.column;
    return { ok: false, line: parser.line + budget.lineOffset, column, message: xmlError.message.split('\n')[0]!, pages };
  }
  return { ok: true, pages, newlines, ...(opened ? {} : { site: { base: site.base, namespaces: [...site.namespaces] } }) };
}
