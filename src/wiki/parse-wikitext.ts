/**
 * Raw wikitext -> Article with one Citation per footnote in the prose.
 *
 * Pipeline: markWikitext replaces every ref by a marker token (and records where it was and what it
 * says); wtf_wikipedia renders the marked text into sections and paragraphs of plain text, the markers
 * riding along; assembleArticle splits sentences (src/corpus/sentences.ts) and turns each marker into a
 * claim. A reuse `<ref name="a"/>` gets the source fields of the ref that defines "a", wherever that is
 * (before, after, or in the reference list).
 *
 * Refs that wtf_wikipedia leaves out of the prose (infobox fields, table cells, image captions,
 * galleries, {{efn}} notes) have no sentence to cite; they are listed in `Article.skipped` with the
 * construct that held them, not given a made-up claim.
 *
 * A long article is rendered a piece at a time (pieces cut before top-level headings, WIKITEXT_CHUNK_CHARS),
 * which bounds the work between two yields (parseWikitextAsync) and lets a parse with `maxCitations` stop
 * once it holds that many: the refs of pieces never rendered are never read.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ArticleAssembler, type CitationInput } from './assemble-article.js';
import { definitionKey, markSteps, type MarkedWikitext, type RefOccurrence } from './mark-wikitext.js';
import { markerIds } from './markers.js';
import { Bibliography, rpPages } from './citation-templates.js';
import { readRefSource, readShortSource, type RefSourceFields } from './read-ref-source.js';
import { renderSections, type RenderState } from './render-sections.js';
import { DEFAULT_CONTEXT_SENTENCES, type Article, type ParseOptions } from './types.js';

/**
 * A long article is rendered in pieces of about this many characters, cut before top-level headings:
 * wtf_wikipedia splits sections at headings itself, so the pieces render as the whole would, and the
 * parse can stop once it holds `maxCitations` and yield between pieces (parseWikitextAsync).
 */
export const WIKITEXT_CHUNK_CHARS = 32 * 1024;
/** Work between two yields, ms: a slice ends at the first ref or section past it. */
const SLICE_MS = 15;

export function parseWikitext(wikitext: string, opts: ParseOptions = {}): Article {
  const steps = parseSteps(wikitext, opts);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * parseWikitext in slices that yield to the event loop (a few tens of ms each on a 5 MB article), for a
 * server that must keep answering while it reads a long article; `signal` stops it between slices.
 */
export async function parseWikitextAsync(wikitext: string, opts: ParseOptions & { signal?: AbortSignal } = {}): Promise<Article> {
  const steps = parseSteps(wikitext, opts);
  for (;;) {
    opts.signal?.throwIfAborted();
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}

/** The parse, as a generator that yields between slices of work; the result is its return value. */
function* parseSteps(wikitext: string, opts: ParseOptions): Generator<void, Article> {
  const { refs, definitions, marked, uncited, sectionStarts, paragraphStarts, sentenceStarts } = yield* markSteps(wikitext);
  let sliceStart = performance.now();
  const due = () => performance.now() - sliceStart > SLICE_MS;
  // a named ref reused n times is read once (wtf_wikipedia costs ~0.5 ms a ref)
  const read = new Map<string, RefSourceFields>();
  // the article's full citations, for short footnotes ({{sfn}}, {{harvnb}}): scanned on first need
  let bib: Bibliography | undefined;
  const bibliography = () => (bib ??= new Bibliography(wikitext));
  const readOnce = (content: string, raw: string, name?: string): RefSourceFields => {
    let fields = read.get(raw);
    if (!fields) read.set(raw, (fields = readRefSource(content, raw, name, bibliography)));
    // each citation gets its own copy: callers may annotate one citation's source
    return { source: { ...fields.source }, deadLinkTag: fields.deadLinkTag };
  };
  const citationOf = (occ: RefOccurrence): CitationInput => {
    const { source, deadLinkTag } = sourceOf(occ, definitions, readOnce, bibliography);
    const rp = occ.rp ? rpPages(occ.rp) : undefined;
    if (rp) source.pages = rp;
    return {
      source,
      tags: { ...occ.tags, deadLink: occ.tags.deadLink || deadLinkTag },
      kind: occ.kind,
      where: occ.where,
      wikitextStart: occ.start,
      wikitextEnd: occ.end,
    };
  };
  // Filled a piece at a time: the refs of pieces never rendered are never read.
  const citations = new Array<CitationInput>(refs.length);
  const assembler = new ArticleAssembler(opts.title ?? '', citations, uncited, opts.contextSentences ?? DEFAULT_CONTEXT_SENTENCES);
  const limit = opts.maxCitations ?? Infinity;
  const state: RenderState = { stack: [], started: false };
  const pieces = cutPieces(marked, sectionStarts, opts.chunkChars ?? WIKITEXT_CHUNK_CHARS, { paragraphStarts, sentenceStarts, maxChars: opts.maxPieceChars ?? MAX_PIECE_CHARS });
  let nextId = 0;
  for (let k = 0; k < pieces.length; k++) {
    const piece = marked.slice(pieces[k]!.start, pieces[k]!.end);
    // markers are numbered in reading order, so a piece holds the refs [nextId, its last id]
    const ids = markerIds(piece, 'c');
    const end = ids.length ? ids.at(-1)! + 1 : nextId;
    for (let id = nextId; id < end; id++) {
      citations[id] = citationOf(refs[id]!);
      if (due()) {
        yield;
        sliceStart = performance.now();
      }
    }
    nextId = end;
    for (const section of renderSections(piece, state, pieces[k]!.continues)) {
      assembler.add(section);
      if (due()) {
        yield;
        sliceStart = performance.now();
      }
    }
    // one citation past the limit tells an article with more from one with exactly `limit`
    if (assembler.placedCount > limit) {
      const article = assembler.finish(nextId);
      article.citations.length = limit;
      article.truncated = true;
      return article;
    }
    yield;
    sliceStart = performance.now();
  }
  return assembler.finish();
}

/**
 * Longest stretch of marked text rendered in one piece when it has no top-level heading to cut at. wtf_wikipedia's
 * sentence split is quadratic in a paragraph whose sentences end in refs (its split regex needs whitespace
 * after the full stop, and a ref marker sits there): a 1 MB one-paragraph article took minutes. Real
 * paragraphs are a few KB; a longer stretch is cut at a paragraph start, else at a sentence start.
 */
export const MAX_PIECE_CHARS = 16 * 1024;
/** Sentence starts are cut points only in a paragraph this many times MAX_PIECE_CHARS long (never in real text). */
const LONG_PARAGRAPH = 4;

interface Piece {
  start: number;
  end: number;
  /** Starts inside a section (not at a heading): its text continues the section before it. */
  continues: boolean;
}

/**
 * [start, end) pieces of the marked text of about `size` characters, each after the first starting at a
 * top-level heading; the newline before the heading belongs to neither (wtf_wikipedia's section split
 * drops it too). A stretch between two such cuts longer than `maxChars` is cut further at top-level
 * paragraph starts, else at top-level sentence starts (`continues` pieces).
 */
function cutPieces(marked: string, sectionStarts: number[], size: number, inner: { paragraphStarts: number[]; sentenceStarts: number[]; maxChars: number }): Piece[] {
  const pieces: Piece[] = [];
  let start = 0;
  let continues = false;
  const close = (end: number, next: number, nextContinues: boolean) => {
    pieces.push({ start, end, continues });
    start = next;
    continues = nextContinues;
  };
  const splitLong = (end: number) => {
    while (end - start > inner.maxChars) {
      const near = start + inner.maxChars;
      const at =
        lastCutWithin(inner.paragraphStarts, start, near) ??
        firstCutWithin(inner.paragraphStarts, start, Math.min(end, start + LONG_PARAGRAPH * inner.maxChars)) ??
        // no paragraph start for LONG_PARAGRAPH pieces: no real article has such a paragraph; cut at sentences
        lastCutWithin(inner.sentenceStarts, start, near) ??
        firstCutWithin(inner.sentenceStarts, start, end) ??
        // not even a sentence start (refs without a full stop between them, 'a<ref>b</ref>' x 20,000: 17 s, and
        // minutes when longer): after a ref token or a space, so that no stretch is left for the quadratic split
        lastTokenOrSpaceCut(marked, start, near);
      if (at === undefined) return;
      close(at, at, true);
    }
  };
  for (const at of sectionStarts) {
    if (at - start < size || marked[at - 1] !== '\n' || !HEADING.test(marked.slice(at, at + 220))) continue;
    splitLong(at - 1);
    close(at - 1, at, false);
  }
  splitLong(marked.length);
  pieces.push({ start, end: marked.length, continues });
  return pieces;
}

/** Index of the first element of sorted `cuts` above `x`. */
function firstAbove(cuts: number[], x: number): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cuts[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The last offset in sorted `cuts` within (from, to], if any. */
function lastCutWithin(cuts: number[], from: number, to: number): number | undefined {
  const at = cuts[firstAbove(cuts, to) - 1];
  return at !== undefined && at > from ? at : undefined;
}

/** The last offset in (from, to] right after a ref token's end or a whitespace character, if any. */
function lastTokenOrSpaceCut(marked: string, from: number, to: number): number | undefined {
  for (let i = to; i > from; i--) {
    const c = marked.charCodeAt(i - 1);
    if (c === 0xe001 || c === 0x20 || c === 0x0a || c === 0x09) return i;
  }
  return undefined;
}

/** The first offset in sorted `cuts` within (from, to), if any. */
function firstCutWithin(cuts: number[], from: number, to: number): number | undefined {
  const at = cuts[firstAbove(cuts, from)];
  return at !== undefined && at < to ? at : undefined;
}
/** A heading line as wtf_wikipedia's section split sees it (src/02-section/index.js). */
const HEADING = /^={2,6}.{1,200}?={2,6}/;

function sourceOf(
  occ: RefOccurrence,
  definitions: MarkedWikitext['definitions'],
  read: (content: string, raw: string, name?: string) => RefSourceFields,
  bibliography: () => Bibliography,
): RefSourceFields {
  if (occ.kind === 'short') return { source: readShortSource(occ.raw, bibliography()), deadLinkTag: false };
  if (occ.kind === 'reuse') {
    const def = occ.name ? definitions.get(definitionKey(occ.group, occ.name)) : undefined;
    // a reuse of a name defined nowhere: MediaWiki shows an error; we keep the bare tag as the source
    if (!def) return { source: { raw: occ.raw, ...(occ.name ? { name: occ.name } : {}) }, deadLinkTag: false };
    return read(def.content, def.raw, occ.name);
  }
  return read(occ.content, occ.raw, occ.name);
}
