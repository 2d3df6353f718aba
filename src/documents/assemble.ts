/**
 * Marked lines -> CitedDocument: the plain text, the sections' ranges, and one citation per marker token,
 * in reading order. The claim is the WHOLE sentence that holds the marker (the project's convention, see
 * docs: the span from the sentence start up to the marker is kept as `claimPrefix`); several markers on
 * one sentence give several citations with the same claim. A marker before any text of its line (a
 * footnote on its own line) cites the previous sentence of the section, or else the line's first sentence.
 *
 * Sentences never cross lines: a line is a paragraph, a list item or a table cell.
 */
import { splitSentences } from '../corpus/sentences.js';
import { DEFAULT_CONTEXT_SENTENCES } from '../wiki/types.js';
import { stripMarkers } from '../wiki/markers.js';
import type { CitationTable } from './citation-table.js';
import type { CitedDocument, DocumentCitation, DocumentKind, DocumentSection } from './types.js';

export interface MarkedLine {
  text: string;
  /** Starts a paragraph (blank line before it in the text) rather than a new line of the same block. */
  paragraph: boolean;
}

export interface MarkedSection {
  path: string[];
  lines: MarkedLine[];
}

interface Span {
  start: number;
  end: number;
}

export function assembleDocument(input: { title: string; kind: DocumentKind; sections: MarkedSection[]; table: CitationTable; contextSentences?: number }): CitedDocument {
  const ctxN = input.contextSentences ?? DEFAULT_CONTEXT_SENTENCES;
  let text = '';
  const sections: DocumentSection[] = [];
  const placed = new Map<number, DocumentCitation>();
  const noClaim = new Set<number>();
  for (const section of input.sections) {
    const sentences: Span[] = [];
    let start = -1;
    for (const line of section.lines) {
      const { text: lineText, marks } = stripMarkers(attachMarkers(line.text));
      if (!lineText && !marks.length) continue;
      if (text.length > 0) text += line.paragraph ? '\n\n' : '\n';
      if (start < 0) start = text.length;
      const offset = text.length;
      text += lineText;
      const firstOfLine = sentences.length;
      sentences.push(...locate(lineText, splitSentences(lineText), offset));
      for (const mark of marks) {
        if (mark.kind !== 'c' || placed.has(mark.id)) continue;
        const at = sentenceAt(sentences, firstOfLine, offset + mark.pos);
        if (at === undefined) {
          noClaim.add(mark.id);
          continue;
        }
        const s = sentences[at]!;
        const entry = input.table.entries[mark.id]!;
        const prefixEnd = Math.min(Math.max(offset + mark.pos, s.start), s.end);
        placed.set(mark.id, {
          id: '',
          index: -1,
          claim: text.slice(s.start, s.end),
          claimPrefix: text.slice(s.start, prefixEnd).trim(),
          context: sentences.slice(Math.max(0, at - ctxN), at).map((x) => text.slice(x.start, x.end)),
          sectionPath: [...section.path],
          articleTitle: input.title,
          charStart: s.start,
          charEnd: s.end,
          source: entry.source,
          tags: { failedVerification: false, citationNeeded: false, deadLink: false },
          kind: entry.kind,
          marker: entry.marker,
        });
      }
    }
    sections.push({ path: section.path, start: start < 0 ? text.length : start, end: text.length });
  }
  const citations = [...placed.values()];
  citations.forEach((c, index) => {
    c.index = index;
    c.id = `${input.title}#${index}`;
  });
  const skipped = [...input.table.skipped];
  input.table.entries.forEach((e, id) => {
    if (!placed.has(id)) skipped.push({ reason: noClaim.has(id) ? 'no sentence before the marker' : 'not in the prose', source: e.source });
  });
  return { title: input.title, kind: input.kind, text, sections, citations, skipped };
}

/** Offsets of the splitter's sentences (trimmed substrings, in order) in the document text. */
function locate(line: string, parts: string[], offset: number): Span[] {
  const spans: Span[] = [];
  let cursor = 0;
  for (const part of parts) {
    const at = line.indexOf(part, cursor);
    if (at < 0) continue;
    spans.push({ start: offset + at, end: offset + at + part.length });
    cursor = at + part.length;
  }
  return spans;
}

/** The sentence a marker at `pos` belongs to: the last one of its line that starts before it. */
function sentenceAt(sentences: readonly Span[], firstOfLine: number, pos: number): number | undefined {
  for (let k = sentences.length - 1; k >= firstOfLine; k--) if (sentences[k]!.start < pos) return k;
  if (firstOfLine > 0) return firstOfLine - 1;
  return sentences.length > firstOfLine ? firstOfLine : undefined;
}

/**
 * "north coast [1]." -> "north coast<token>." and "rare (doi:10.1/x)." -> "rare<token>.": documents put a
 * space before their markers, Wikipedia does not; without this the claim would read "north coast ." once
 * the marker is gone.
 */
function attachMarkers(line: string): string {
  return line
    .replace(/\s*[([]\s*((?:\uE000c\d+\uE001\s*)+)[)\]]/g, (_m, tokens: string) => tokens.replace(/\s+/g, '')) // "(doi:...)", "[<sup>1</sup>]"
    .replace(/\s+((?:\uE000c\d+\uE001)+)(?=[\s.,;:!?)\]]|$)/g, '$1');
}
