/**
 * A source uploaded with POST /v1/citations/check (the web page's "Check a source" form): a file sent as
 * base64 in the JSON body with its declared type, bounded in size and type. HTML, Markdown and plain text
 * are read as `veracite check --source FILE` reads them (by type; binary data is refused); a PDF is read
 * page by page. The declared type must match the bytes: a "PDF" that is not one, or "text" that is binary,
 * is a 400 naming the field.
 */
import { z } from 'zod';
import type { SourceCheckInput } from '../app/check-source.js';
import { looksLikePdf } from '../corpus/pdf-text.js';
import { pdfToDocument, type PageKind } from '../sources/page-text.js';
import { notTextReason } from '../util/not-text.js';
import { HttpError, ValidationError } from './errors.js';
import type { DocumentReader } from '../documents/document-reader.js';

/** Declared types accepted, and how each is read. */
export const UPLOAD_TYPES = {
  'text/html': 'html',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'application/pdf': 'pdf',
} as const satisfies Record<string, PageKind | 'pdf'>;
export type UploadType = keyof typeof UPLOAD_TYPES;

/** Largest uploaded file (decoded): 1 MiB, whose base64 (1.4 MB) fits the default 2 MB body limit. */
export const MAX_UPLOAD_BYTES = 1024 * 1024;
const MAX_BASE64 = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4;

export const UploadedSource = z
  .object({
    file: z
      .object({
        name: z.string().max(255).optional().describe('The file\'s name, for messages.'),
        type: z.enum(Object.keys(UPLOAD_TYPES) as [UploadType, ...UploadType[]]).describe('Declared type: text/html, text/plain, text/markdown or application/pdf.'),
        base64: z
          .string()
          .min(1)
          .max(MAX_BASE64, { error: `the file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB` })
          .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'not base64' })
          .describe(`The file's bytes, base64 (at most ${MAX_UPLOAD_BYTES} bytes decoded).`),
      })
      .strict(),
    title: z.string().max(500).optional(),
  })
  .strict()
  .describe('An uploaded file: HTML, plain text, Markdown or PDF, base64 with its declared type.');
export type UploadedSourceInput = z.infer<typeof UploadedSource>;

function refuse(message: string): never {
  throw new ValidationError('body', [{ path: 'source.file', message, code: 'custom' }]);
}

/** The uploaded file as the check reads a source: text with its kind, or a PDF's pages. */
export async function readUploadedSource(src: UploadedSourceInput, reader?: Pick<DocumentReader, 'pdf'>): Promise<SourceCheckInput['source']> {
  const bytes = Buffer.from(src.file.base64, 'base64');
  const name = src.file.name || 'the uploaded file';
  const named = src.title ? { title: src.title } : {};
  if (bytes.length > MAX_UPLOAD_BYTES) refuse(`${name} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB`);
  const kind = UPLOAD_TYPES[src.file.type];
  if (kind === 'pdf') {
    if (!looksLikePdf(bytes)) refuse(`${name} was sent as a PDF but is not one (no %PDF- signature)`);
    const pdf = reader ? await reader.pdf({ bytes: new Uint8Array(bytes), url: `upload:${name}`, title: src.title ?? name }) : await pdfToDocument(new Uint8Array(bytes), `upload:${name}`, src.title ?? name);
    if (!pdf.ok && pdf.limit) throw new HttpError(413, 'document_over_budget', `${name}: ${pdf.reason}`);
    if (!pdf.ok) refuse(`cannot read ${name} as a PDF: ${pdf.reason}`);
    return { document: src.title ? { ...pdf.document, title: src.title } : pdf.document };
  }
  if (looksLikePdf(bytes)) refuse(`${name} is a PDF: send it as application/pdf`);
  const text = bytes.toString('utf8');
  const why = notTextReason(bytes);
  if (why) refuse(`unreadable: ${name} is not text (${why})`);
  if (!text.trim()) refuse(`${name} is empty`);
  return { text, kind, ...named };
}
