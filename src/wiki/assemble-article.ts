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
  /** The rest of the section added last (a long section rendered in pieces): same section, same context. */
  continues?: boolean;
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

/** A sentence: its span in the article text and its own text (a slice of its line, never of the article). */
interface Sentence extends Span {
  text: string;
}

interface Located {
  /** The whole sentence. */
  claim: Sentence;
  /** Sentence start -> marker (same start as `claim`). */
  prefix: Sentence;
  /** Index in the section's sentence list of the first sentence not in the context. */
  contextEnd: number;
}

/**
 * Every string a citation keeps (claim, prefix, context) is cut from its line, never from the growing
 * article text: a slice of a string built by `+=` flattens it and keeps that whole copy alive, so on a
 * 5 MB article each citation held its own copy of the text so far (1.5 GB for 8,700 citations).
 */
export function assembleArticle(input: AssembleInput): Article {
  const assembler = new ArticleAssembler(input.title, input.citations, input.uncited, input.contextSentences);
  for (const section of input.sections) assembler.add(section);
  return assembler.finish();
}

/**
 * assembleArticle one section at a time, for a reader that renders a long article in slices: `placed`
 * says how many citations the sections so far hold (the first `placed` citations are final once added),
 * and `finish(reachedId)` leaves out of `skipped` the refs whose markers sit in sections never added.
 */
export class ArticleAssembler {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly sections: ArticleSection[] = [];
  private readonly placed = new Map<number, Citation>();
  private readonly uncitedClaims: UncitedClaim[] = [];
  private readonly noClaim = new Set<number>();
  private readonly headingIds = new Set<number>();

  constructor(
    private readonly title: string,
    private readonly citations: CitationInput[],
    private readonly uncited: { start: number; end: number }[] | undefined,
    private readonly contextSentences: number,
  ) {}

  get placedCount(): number {
    return this.placed.size;
  }

  private append(s: string): void {
    if (!s) return;
    this.parts.push(s);
    this.length += s.length;
  }

  /** The last section's sentences, for a section that continues it. */
  private lastSentences: Sentence[] = [];
  private lastHadText = false;

  add(section: MarkedSection): void {
    for (const id of section.headingMarkerIds ?? []) this.headingIds.add(id);
    const continued = section.continues === true ? this.sections.pop() : undefined;
    // a section whose first piece held no text starts where its text does
    let start = continued && this.lastHadText ? continued.start : -1;
    const sentences: Sentence[] = continued ? this.lastSentences : [];
    this.lastSentences = sentences;
    const contextOf = (end: number) => sentences.slice(Math.max(0, end - this.contextSentences), end).map((s) => s.text);

    section.paragraphs.forEach((paragraph) => {
      paragraph.forEach((line, lineNo) => {
        const { text: lineText, marks } = stripMarkers(line.text);
        if (!lineText && marks.length === 0) return;
        if (this.length > 0) this.append(lineNo === 0 ? '\n\n' : '\n');
        if (start < 0) start = this.length;
        const offset = this.length;
        this.append(lineText);
        const firstOfLine = sentences.length;
        sentences.push(...locate(lineText, splitSentences(lineText), offset));

        for (const mark of marks) {
          const at = claimAt(lineText, offset, sentences, firstOfLine, offset + mark.pos);
          if (!at) {
            if (mark.kind === 'c') this.noClaim.add(mark.id);
            continue;
          }
          const common = {
            claim: at.claim.text,
            claimPrefix: at.prefix.text,
            context: contextOf(at.contextEnd),
            sectionPath: [...section.path],
            charStart: at.claim.start,
            charEnd: at.claim.end,
            claimPrefixEnd: at.prefix.end,
          };
          if (mark.kind === 'u') {
            const tag = this.uncited?.[mark.id];
            this.uncitedClaims.push(tag ? { ...common, wikitextStart: tag.start, wikitextEnd: tag.end } : common);
            continue;
          }
          const info = this.citations[mark.id];
          if (!info || this.placed.has(mark.id)) continue;
          this.placed.set(mark.id, {
            id: '',
            index: -1,
            ...common,
            articleTitle: this.title,
            source: info.source,
            tags: info.tags,
            kind: info.kind,
            ...(info.wikitextStart !== undefined ? { wikitextStart: info.wikitextStart, wikitextEnd: info.wikitextEnd } : {}),
          });
        }
      });
    });
    this.lastHadText = start >= 0;
    this.sections.push({ path: section.path, start: start < 0 ? this.length : start, end: this.length });
  }

  /**
   * The article. `reachedId`: refs with a marker id at or above it were never rendered (a parse that
   * stopped at its citation limit); they are neither citations nor skipped.
   */
  finish(reachedId = Infinity): Article {
    // reading order of the markers (Map insertion order), which is also the order of footnotes on the page
    const citations = [...this.placed.values()];
    citations.forEach((c, index) => {
      c.index = index;
      c.id = `${this.title}#${index}`;
    });
    const skipped: SkippedRef[] = [];
    this.citations.forEach((info, id) => {
      if (this.placed.has(id) || id >= reachedId) return;
      const reason = this.headingIds.has(id) ? 'heading' : this.noClaim.has(id) ? 'no-claim' : info.where || 'dropped';
      skipped.push({
        reason,
        source: info.source,
        ...(info.wikitextStart !== undefined ? { wikitextStart: info.wikitextStart, wikitextEnd: info.wikitextEnd } : {}),
      });
    });
    return { title: this.title, text: this.parts.join(''), sections: this.sections, citations, uncitedClaims: this.uncitedClaims, skipped };
  }
}

/** Offsets of the splitter's sentences (trimmed substrings, in order) in the article text. */
function locate(line: string, parts: string[], offset: number): Sentence[] {
  const spans: Sentence[] = [];
  let cursor = 0;
  for (const part of parts) {
    const at = line.indexOf(part, cursor);
    if (at < 0) continue; // cannot happen with splitSentences (it slices the input); kept as a guard
    spans.push({ start: offset + at, end: offset + at + part.length, text: part });
    cursor = at + part.length;
  }
  return spans;
}

/**
 * The claim for a marker at absolute offset `pos`: the sentence of this line that starts before the
 * marker (whole), and its prefix cut at the marker. A marker at the very start of a line (a ref written on
 * its own line, or before any text of a list item) has no text before it in its line: it then cites the
 * previous sentence of the section, or if there is none the line's first sentence (prefix = sentence).
 * `line` is the text of this line, which starts at `offset` in the article.
 */
function claimAt(line: string, offset: number, sentences: Sentence[], firstOfLine: number, pos: number): Located | undefined {
  for (let k = sentences.length - 1; k >= firstOfLine; k--) {
    const s = sentences[k]!;
    if (s.start >= pos) continue;
    const prefix = trimSpan(line, { start: s.start - offset, end: Math.min(pos, s.end) - offset });
    if (prefix) return { claim: s, prefix: { start: prefix.start + offset, end: prefix.end + offset, text: line.slice(prefix.start, prefix.end) }, contextEnd: k };
  }
  const whole = (s: Sentence | undefined, k: number): Located | undefined => (s ? { claim: s, prefix: s, contextEnd: k } : undefined);
  if (firstOfLine > 0) return whole(sentences[firstOfLine - 1], firstOfLine - 1);
  return whole(sentences[firstOfLine], firstOfLine);
}

function trimSpan(text: string, span: Span): Span | undefined {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return end > start ? { start, end } : undefined;
}
