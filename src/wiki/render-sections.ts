/**
 * Marked wikitext -> sections of plain-text lines, by wtf_wikipedia.
 *
 * wtf_wikipedia does the rendering (links to their text, templates such as {{convert}} or {{lang}} to
 * theirs, bold/italics away, infoboxes, tables, captions and galleries out of the prose); our marker
 * tokens pass through as ordinary characters. A paragraph's text holds its prose on the first line
 * (wtf joins a paragraph's lines with spaces) and its list items on the following lines as " * item".
 */
import { wtf } from './wtf.js';
import { dropMarkers, markerIds } from './markers.js';

/** The slice of wtf_wikipedia's API used here (its bundled types say `object`). */
interface WtfSection {
  title(): string;
  depth(): number;
  paragraphs(): { text(): string }[];
}

export interface RenderedLine {
  text: string;
  /** List items are units of their own: a sentence never runs from one item into the next. */
  listItem: boolean;
}

export interface RenderedSection {
  path: string[];
  paragraphs: RenderedLine[][];
  /** Citation markers found in the heading itself: such refs have no claim. */
  headingMarkerIds: number[];
  /** Continues the section before it (a piece cut inside a section). */
  continues?: boolean;
}

/**
 * Where rendering stands in an article rendered in pieces (each piece starting at a top-level heading):
 * the open headings, and whether the lead has been seen.
 */
export interface RenderState {
  stack: { depth: number; title: string }[];
  started: boolean;
}

/**
 * `state`: carried from the previous piece of the same article (parse-wikitext.ts renders long ones in pieces).
 * `continues`: the piece starts inside a section (cut at a paragraph or sentence), so its untitled first
 * section is the rest of the open one, not a new section.
 */
export function renderSections(marked: string, state: RenderState = { stack: [], started: false }, continues = false): RenderedSection[] {
  const doc = wtf(marked) as unknown as { sections(): WtfSection[] };
  const out: RenderedSection[] = [];
  const stack = state.stack;
  doc.sections().forEach((section, n) => {
    const rawTitle = section.title() ?? '';
    const title = dropMarkers(rawTitle).replace(/\s+/g, ' ').trim();
    // the first section is the lead (no heading) unless the page starts with a heading
    const rest = continues && n === 0 && !title;
    if (rest) {
      // the rest of the section open before this piece: same path
    } else if (state.started || n > 0 || title) {
      const depth = section.depth();
      while (stack.length > 0 && stack.at(-1)!.depth >= depth) stack.pop();
      stack.push({ depth, title });
    }
    out.push({
      path: stack.map((s) => s.title),
      paragraphs: section.paragraphs().map((p) => lines(p.text())),
      headingMarkerIds: markerIds(rawTitle, 'c'),
      ...(rest ? { continues: true } : {}),
    });
  });
  if (out.length > 0) state.started = true;
  return out;
}

function lines(paragraphText: string): RenderedLine[] {
  const found: RenderedLine[] = [];
  for (const line of paragraphText.split('\n')) {
    const item = /^\s*\*\s?/.exec(line);
    const text = item ? line.slice(item[0].length) : line;
    if (text.trim()) found.push({ text, listItem: item !== null });
  }
  return found;
}
