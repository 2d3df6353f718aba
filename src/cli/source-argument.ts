/**
 * The source of a claim check as a person names it on the command line or in a pairs file: an http(s) URL
 * (resolved as the audit resolves a citation's URL), '-' for standard input, or a saved file read by its
 * extension (HTML, Markdown, PDF page by page, anything else as plain text). A PDF is known by its
 * signature too (saved without its extension, or piped on stdin); any other binary file is refused with
 * NotTextError ("unreadable: not text", exit 65), never decoded into control characters and scored.
 */
import { basename, extname } from 'node:path';
import type { SourceCheckInput } from '../app/check-source.js';
import { looksLikePdf } from '../corpus/pdf-text.js';
import { pdfToDocument, type PageKind } from '../sources/page-text.js';
import { assertText } from '../util/not-text.js';
import { SettingsError } from '../util/settings-error.js';
import { EXIT } from '../util/exit-codes.js';
import { readNamedFile } from '../util/folder-file.js';
import { readStdinBytes } from './command-verify.js';

/** A saved source named on the command line, at most (a page or a PDF; far more than either needs). */
export const MAX_SOURCE_FILE_BYTES = 64 * 1024 * 1024;

const KIND_OF_EXTENSION: Record<string, PageKind> = { '.html': 'html', '.htm': 'html', '.md': 'markdown', '.markdown': 'markdown' };

/** `--source` as the check reads it. `option` names the flag or field in errors. */
export async function readSourceArgument(where: string, title?: string, option = '--source'): Promise<SourceCheckInput['source']> {
  const named = title ? { title } : {};
  if (/^https?:\/\//i.test(where)) return { url: where, ...named };
  let bytes: Buffer;
  if (where === '-') bytes = await readStdinBytes();
  else {
    // A regular file under the cap (util/folder-file.ts): a FIFO or a device (/dev/zero) is refused, never read.
    const read = await readNamedFile(where, { maxBytes: MAX_SOURCE_FILE_BYTES });
    if (!read.ok) {
      const why = read.problem === 'missing' ? 'no such file' : read.reason.replace(/^.*?: (refused: )?/, '').replace(/; save the page as an ordinary file$/, '');
      throw new SettingsError(option, `cannot read ${where}: ${why}. Give a saved page (.txt, .md, .html, .pdf), '-' for stdin, or an http(s) URL`, read.problem === 'missing' ? EXIT.NO_INPUT : EXIT.DATA);
    }
    bytes = read.bytes;
  }
  const name = where === '-' ? 'stdin' : where;
  const ext = where === '-' ? '' : extname(where).toLowerCase();
  if (ext === '.pdf' || looksLikePdf(bytes)) {
    const pdf = await pdfToDocument(new Uint8Array(bytes), where === '-' ? 'source:stdin' : `file://${where}`, title ?? (where === '-' ? 'stdin' : basename(where)));
    if (!pdf.ok) throw new SettingsError(option, `cannot read ${name} as a PDF: ${pdf.reason}`, EXIT.DATA);
    return { document: title ? { ...pdf.document, title } : pdf.document };
  }
  assertText(bytes, name);
  if (!/\S/.test(bytes.toString('utf8'))) throw new SettingsError(option, `${name} is empty: nothing to check the claim against`, EXIT.DATA);
  // No title from the file name: the title is read with the page's text (its words count as the page's),
  // and "scifact-9394119.txt" is not the source's title. An HTML page's own <title> is used.
  return { text: bytes.toString('utf8'), ...named, ...(where === '-' ? {} : { kind: KIND_OF_EXTENSION[ext] ?? 'text' }) };
}
