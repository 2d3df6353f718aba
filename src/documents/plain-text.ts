/**
 * Plain text (or the text of a PDF) -> CitedDocument. Its citations are what is written in the sentences:
 * DOIs, arXiv ids, PubMed ids and URLs, and "[3]" markers when the text ends with a numbered
 * "References" list ("[3] ..." or "3. ..." lines).
 *
 * Structure, as far as plain text has one: blocks are separated by blank lines; wrapped lines are joined
 * (src/corpus/paragraphs.ts); a block of one short line without closing punctuation is a heading (also
 * "# Heading"), and headings make a flat section path. A first heading is the title.
 */
import { splitParagraphs } from '../corpus/paragraphs.js';
import { assembleDocument, type MarkedLine, type MarkedSection } from './assemble.js';
import { CitationTable } from './citation-table.js';
import { backMatterOf, numberedEntries, sourceFromReference } from './references.js';
import type { CitedDocument, DocumentKind, DocumentParseOptions, DocumentSource } from './types.js';

const MAX_HEADING = 80;

export function parsePlainTextDocument(text: string, opts: DocumentParseOptions & { kind?: Extract<DocumentKind, 'text' | 'pdf'> } = {}): CitedDocument {
  const blocks = text
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n\s*/)
    .map((b) => b.trim())
    .filter(Boolean);
  let title = opts.title;
  // Sections: headings and the blocks under them.
  const parts: { heading?: string; blocks: string[] }[] = [{ blocks: [] }];
  blocks.forEach((block, i) => {
    const heading = headingOf(block, i === blocks.length - 1);
    if (heading !== undefined) {
      if (i === 0 && title === undefined) title = heading;
      else parts.push({ heading, blocks: [] });
      return;
    }
    // A back-matter heading may share a block with the text around it ("...end of text.\nReferences\n[1] ...",
    // as in PDF text, where pages are joined by a line break): it starts a section there.
    const lines = block.split('\n');
    const at = lines.findIndex((l) => backMatterOf(l.replace(/^#+\s*/, '')) !== undefined);
    if (at >= 0) {
      if (at > 0) parts[parts.length - 1]!.blocks.push(lines.slice(0, at).join('\n'));
      parts.push({ heading: lines[at]!.replace(/^#+\s*/, '').trim(), blocks: at + 1 < lines.length ? [lines.slice(at + 1).join('\n')] : [] });
      return;
    }
    parts[parts.length - 1]!.blocks.push(block);
  });

  const numbered = new Map<number, DocumentSource>();
  for (const p of parts) {
    if (p.heading === undefined || backMatterOf(p.heading) !== 'references') continue;
    for (const [n, entry] of numberedEntries(p.blocks.join('\n').split('\n'))) if (!numbered.has(n)) numbered.set(n, sourceFromReference(entry));
  }
  const table = new CitationTable();
  const markOpts = { urls: true, ...(numbered.size ? { numbered } : {}) };
  const sections: MarkedSection[] = [];
  for (const p of parts) {
    if (p.heading !== undefined && backMatterOf(p.heading)) continue;
    const lines: MarkedLine[] = [];
    for (const block of p.blocks) {
      splitParagraphs(block).forEach((para, i) => lines.push({ text: table.markText(para, markOpts), paragraph: i === 0 }));
    }
    sections.push({ path: p.heading !== undefined ? [p.heading] : [], lines });
  }
  return assembleDocument({ title: title ?? '', kind: opts.kind ?? 'text', sections, table, ...(opts.contextSentences !== undefined ? { contextSentences: opts.contextSentences } : {}) });
}

/** The heading a block stands for, if it is one: a single short line without closing punctuation. */
function headingOf(block: string, last: boolean): string | undefined {
  if (block.includes('\n')) return undefined;
  const md = /^#{1,6}\s+(.+?)\s*#*$/.exec(block);
  if (md) return md[1]!;
  if (last || block.length > MAX_HEADING) return undefined;
  if (/[.!?:;,)\]"”]$/.test(block) && backMatterOf(block) === undefined) return undefined;
  if (/^(?:[-*+•]|\d{1,3}[.)]|\[\d+\])\s/.test(block)) return undefined;
  if (/https?:\/\/|\b10\.\d{4,9}\//.test(block)) return undefined;
  return block;
}
