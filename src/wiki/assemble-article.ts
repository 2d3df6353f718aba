/**
 * Rendered sections with marker tokens -> Article: the plain text, the sections' ranges in it, and one
 * Citation per marker with its claim and context. Shared by the wikitext and the HTML readers, which
 * differ only in how they produce the marked lines.
 *
 * The claim is the whole sentence holding the marker: an editor checks a citation against the sentence
 * it sits in, and the clause before a mid-sentence marker ("Bodmin (Bosvena") is no claim at all. SIDE's
 * "text before the citation" is kept as `claimPrefix`: from the sentence's start up to the marker, which is
 * the whole sentence for a marker after its final punctuation. Several markers in one sentence give
 * several citations with the same claim (and each its own prefix).
 */
import { splitSentences } from '../corpus/sentences.js';
import { stripMarkers } from './markers.js';
import type {
  Article,
  ArticleSection,
  Citation,
  CitationKind,
  CitationSource,
  CitationTags,
  SkippedRef,
  UncitedClaim,
} from './types.js';

/** A paragraph as lines (prose, or one list item each) that may hold marker tokens. */
export interface MarkedSection {
  path: string[];
  paragraphs: { text: string }[][];
  /** Citation markers that sat in the heading: reported as skipped ("heading"). */
  headingMarkerIds?: number[];
}

/** What the reader knows about the citation behind `c` marker number i. */
export interface CitationInput {
  source: CitationSource;
  tags: CitationTags;
  kind: CitationKind;
  /** Why it may be missing from the prose ("table", "template:infobox", ...); '' when it is in prose. */
  where: string;
  wikitextStart?: number;
  wikitextEnd?: number;
}

export interface AssembleInput {
  title: string;
  sections: MarkedSection[];
  citations: CitationInput[];
  /** Wikitext offsets of the {{citation needed}} behind `u` marker number i, when known. */
  uncited?: { start: number; end: number }[];
  contextSentences: number;
}

interface Span {
  start: number;
  end: number;
}

interface Located {
  /** The whole sentence. */
  claim: Span;
  /** Sentence start -> marker (same start as `claim`). */
  prefix: Span;
  /** Index in the section's sentence list of the first sentence not in the context. */
  contextEnd: number;
}

export function assembleArticle(input: AssembleInput): Article {
  let text = '';
  const sections: ArticleSection[] = [];
  const placed = new Map<number, Citation>();
  const uncitedClaims: UncitedClaim[] = [];
  const noClaim = new Set<number>();
  const headingIds = new Set<number>();

  for (const section of input.sections) {
    for (const id of section.headingMarkerIds ?? []) headingIds.add(id);
    let start = -1;
    const sentences: Span[] = [];
    const contextOf = (end: number) =>
      sentences.slice(Math.max(0, end - input.contextSentences), end).map((s) => text.slice(s.start, s.end));

    section.paragraphs.forEach((paragraph) => {
      paragraph.forEach((line, lineNo) => {
        const { text: lineText, marks } = stripMarkers(line.text);
        if (!lineText && marks.length === 0) return;
        if (text.length > 0) text += lineNo === 0 ? '\n\n' : '\n';
        if (start < 0) start = text.length;
        const offset = text.length;
        text += lineText;
        const firstOfLine = sentences.length;
        sentences.push(...locate(lineText, splitSentences(lineText), offset));

        for (const mark of marks) {
          const at = claimAt(text, sentences, firstOfLine, offset + mark.pos);
          if (!at) {
            if (mark.kind === 'c') noClaim.add(mark.id);
            continue;
          }
          const common = {
            claim: text.slice(at.claim.start, at.claim.end),
            claimPrefix: text.slice(at.prefix.start, at.prefix.end),
            context: contextOf(at.contextEnd),
            sectionPath: [...section.path],
            charStart: at.claim.start,
            charEnd: at.claim.end,
            claimPrefixEnd: at.prefix.end,
          };
          if (mark.kind === 'u') {
            const tag = input.uncited?.[mark.id];
            uncitedClaims.push(tag ? { ...common, wikitextStart: tag.start, wikitextEnd: tag.end } : common);
            continue;
          }
          const info = input.citations[mark.id];
          if (!info || placed.has(mark.id)) continue;
          placed.set(mark.id, {
            id: '',
            index: -1,
            ...common,
            articleTitle: input.title,
            source: info.source,
            tags: info.tags,
            kind: info.kind,
            ...(info.wikitextStart !== undefined ? { wikitextStart: info.wikitextStart, wikitextEnd: info.wikitextEnd } : {}),
          });
        }
      });
    });
    sections.push({ path: section.path, start: start < 0 ? text.length : start, end: text.length });
  }

  // reading order of the markers (Map insertion order), which is also the order of footnotes on the page
  const citations = [...placed.values()];
  citations.forEach((c, index) => {
    c.index = index;
    c.id = `${input.title}#${index}`;
  });
  const skipped: SkippedRef[] = [];
  input.citations.forEach((info, id) => {
    if (placed.has(id)) return;
    const reason = headingIds.has(id) ? 'heading' : noClaim.has(id) ? 'no-claim' : info.where || 'dropped';
    skipped.push({
      reason,
      source: info.source,
      ...(info.wikitextStart !== undefined ? { wikitextStart: info.wikitextStart, wikitextEnd: info.wikitextEnd } : {}),
    });
  });
  return { title: input.title, text, sections, citations, uncitedClaims, skipped };
}

/** Offsets of the splitter's sentences (trimmed substrings, in order) in the article text. */
function locate(line: string, parts: string[], offset: number): Span[] {
  const spans: Span[] = [];
  let cursor = 0;
  for (const part of parts) {
    const at = line.indexOf(part, cursor);
    if (at < 0) continue; // cannot happen with splitSentences (it slices the input); kept as a guard
    spans.push({ start: offset + at, end: offset + at + part.length });
    cursor = at + part.length;
  }
  return spans;
}

/**
 * The claim for a marker at absolute offset `pos`: the sentence of this line that starts before the
 * marker (whole), and its prefix cut at the marker. A marker at the very start of a line (a ref written on
 * its own line, or before any text of a list item) has no text before it in its line: it then cites the
 * previous sentence of the section, or if there is none the line's first sentence (prefix = sentence).
 */
function claimAt(text: string, sentences: Span[], firstOfLine: number, pos: number): Located | undefined {
  for (let k = sentences.length - 1; k >= firstOfLine; k--) {
    const s = sentences[k]!;
    if (s.start >= pos) continue;
    const prefix = trimSpan(text, { start: s.start, end: Math.min(pos, s.end) });
    if (prefix) return { claim: s, prefix, contextEnd: k };
  }
  const whole = (s: Span | undefined, k: number): Located | undefined => (s ? { claim: s, prefix: s, contextEnd: k } : undefined);
  if (firstOfLine > 0) return whole(sentences[firstOfLine - 1], firstOfLine - 1);
  return whole(sentences[firstOfLine], firstOfLine);
}

function trimSpan(text: string, span: Span): Span | undefined {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return end > start ? { start, end } : undefined;
}
