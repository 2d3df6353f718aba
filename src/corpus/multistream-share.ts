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

export interface ShareTask {
  file: string;
  start: number;
  end: number;
  /** Whether the share ends the file: its closing tag must be there (a cut dump fails, as read in one go). */
  last: boolean;
  lang?: string;
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
  const chunks: Buffer[] = [];
  try {
    const { stream } = await openDecompressed(file, undefined, { start, end });
    for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  } catch (e) {
    throw new Error(`${where}: not readable bzip2 (${(e as Error).message.split('\n')[0]}); the file may be damaged or cut short: download it again`);
  }
  const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  const site = newSiteInfo(task.lang);
  const pages: PageParts[] = [];
  const parser = pageParser(site, task.lang, (p) => pages.push(p));
  // The wrapper adds no newline, so the parser's lines are the share's own.
  const opened = start > 0;
  const closed = task.last || /<\/mediawiki>\s*$/.test(text);
  try {
    if (opened) parser.write('<mediawiki>');
    parser.write(text);
    if (!closed) parser.write('</mediawiki>');
    parser.close();
  } catch (e) {
    const column = parser.line === 1 && opened ? parser.column - '<mediawiki>'.length : parser.column;
    return { ok: false, line: parser.line, column, message: (e as Error).message.split('\n')[0]!, pages };
  }
  let newlines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines++;
  return { ok: true, pages, newlines, ...(opened ? {} : { site: { base: site.base, namespaces: [...site.namespaces] } }) };
}
