/**
 * One pass over raw wikitext that finds every reference and replaces it by a marker token (markers.ts),
 * so that wtf_wikipedia can render the text while the markers keep the references' positions.
 *
 * What counts as one citation ("one citation per ref"): every place in the article where a footnote is
 * produced, i.e. every `<ref>...</ref>` with content, every reuse `<ref name="a"/>` (or `<ref name="a"></ref>`),
 * and every `{{sfn}}`-family template outside a ref. Not citations: refs inside `<!-- comments -->` and
 * `<nowiki>`/`<pre>`/`<math>` (MediaWiki does not render them), and list-defined refs inside
 * `<references>...</references>` or `{{reflist|refs=...}}`, which only give a name its content.
 *
 * While scanning we keep a stack of the constructs we are inside (templates, tables, file links,
 * galleries), for two reasons: refs under a reference-list template are definitions, and a ref that
 * wtf_wikipedia drops from the prose (infobox field, table cell, caption) is reported with the construct
 * that held it.
 */
import { marker, SENTENCE_GAP } from './markers.js';
import {
  CITATION_NEEDED_TEMPLATES,
  DEAD_LINK_TEMPLATES,
  FAILED_VERIFICATION_TEMPLATES,
  PAGE_TEMPLATES,
  SHORT_CITATION_TEMPLATES,
  VERBATIM_TAGS,
  isReferenceListTemplate,
  refAttributes,
  templateEnd,
  templateNameAt,
} from './wikitext-syntax.js';
import type { CitationKind, CitationTags } from './types.js';

export interface RefOccurrence {
  kind: CitationKind;
  /** [start, end) of the ref / reuse tag / template in the raw wikitext. */
  start: number;
  end: number;
  raw: string;
  /** What is between `<ref ...>` and `</ref>` ('' for a reuse; the template for a short citation). */
  content: string;
  name?: string;
  group?: string;
  /** Outermost construct holding the ref ("template:infobox uk place", "table", "file", "gallery"); '' in prose. */
  where: string;
  tags: CitationTags;
  /** A `{{rp|...}}` page template written right after the ref (or reuse), raw. */
  rp?: string;
}

export interface RefDefinition {
  raw: string;
  content: string;
}

export interface MarkedWikitext {
  /** The wikitext with refs replaced by `c` markers, lone {{citation needed}} by `u` markers, comments removed. */
  marked: string;
  /** Indexed by the `c` marker id. */
  refs: RefOccurrence[];
  /** Named ref contents by `${group}\u0000${name}`: the first definition wins, as in MediaWiki. */
  definitions: Map<string, RefDefinition>;
  /** [start, end) of each lone {{citation needed}} in the raw wikitext, indexed by the `u` marker id. */
  uncited: { start: number; end: number }[];
  /**
   * Offsets in `marked` where a top-level `== heading ==` line starts (outside templates, tables, links,
   * galleries and verbatim blocks), after a newline: where a long article can be cut into pieces that
   * wtf_wikipedia renders one by one, as it would have split them itself (parse-wikitext.ts).
   */
  sectionStarts: number[];
  /**
   * Offsets in `marked` where a paragraph starts after a blank line at the top level, and (sparser) where a
   * sentence starts after a sentence end or a ref at the top level: where an over-long stretch without
   * headings can be cut (parse-wikitext.ts), so that no piece wtf_wikipedia renders is very long.
   */
  paragraphStarts: number[];
  sentenceStarts: number[];
}

/**
 * Deepest nesting of templates, links, tables and galleries read. Real articles nest a handful deep;
 * thousands of unclosed `{{x|` are an attack on the renderers (wtf_wikipedia recurses), refused cleanly.
 */
export const MAX_NESTING = 100;

/** Wikitext that cannot be read within the parser's structural limits (names the limit and where). */
export class WikitextLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WikitextLimitError';
  }
}

type Frame = { type: 'template'; name: string } | { type: 'table' | 'file' | 'link' | 'gallery' };

export function definitionKey(group: string | undefined, name: string): string {
  return `${group ?? ''}\u0000${name}`;
}

/** Characters where markup we care about can start; everything else is copied through in runs. */
const SPECIAL = new Set(['<', '{', '}', '[', ']', '\n', ':', '|']);
const PLAIN_RUN = /[<{}[\]\n:|]/g;
const REF_OPEN = /^<ref(\s[^>]*?)?(\/?)>/i;
const REF_CLOSE = /<\/ref\s*>/gi;
const REFERENCES_OPEN = /^<references\b([^>]*?)(\/?)>/i;
const REFERENCES_CLOSE = /<\/references\s*>/gi;

export function markWikitext(raw: string): MarkedWikitext {
  const steps = markSteps(raw);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Characters scanned between two yields of markSteps (a few ms of work). */
const CHARS_PER_SLICE = 64 * 1024;

/** markWikitext as a generator that yields every CHARS_PER_SLICE characters (parse-wikitext.ts slices its work). */
export function* markSteps(raw: string): Generator<void, MarkedWikitext> {
  const refs: RefOccurrence[] = [];
  const definitions = new Map<string, RefDefinition>();
  const uncited: { start: number; end: number }[] = [];
  const sectionStarts: number[] = [];
  const paragraphStarts: number[] = [];
  const sentenceStarts: number[] = [];
  const stack: Frame[] = [];
  const push = (f: Frame) => {
    if (stack.length >= MAX_NESTING) {
      const line = lineOf(raw, i);
      throw new WikitextLimitError(`templates, links or tables nested more than ${MAX_NESTING} deep (line ${line}): such nesting is not article text; close the open "{{" / "[[" / "{|" before it`);
    }
    stack.push(f);
  };
  /** A sparse list of top-level sentence starts is enough to cut at: one per SENTENCE_CUT_GAP characters. */
  // inside a single-bracket external link "[url text. More]": no cut there
  let inExternalLink = false;
  const sentenceStart = (at: number) => {
    if (stack.length === 0 && !inExternalLink && at - (sentenceStarts.at(-1) ?? 0) >= SENTENCE_CUT_GAP) sentenceStarts.push(at);
  };
  // First character of the current line that is not indentation ([\s:]), found once per line: a table
  // opens only at a line start, and testing the line so far at each "{" or "|" was quadratic on one long line.
  let indentEnd = -1;
  const atLineStart = (at: number) => {
    if (indentEnd < lineStart) {
      NOT_INDENT.lastIndex = lineStart;
      indentEnd = NOT_INDENT.exec(raw)?.index ?? raw.length;
    }
    return at <= indentEnd;
  };
  const out = new MarkedOutput();
  /** Output length right after the last citation marker, and that citation: for tags written after it. */
  let afterLastRef = -1;
  let lastRef: RefOccurrence | undefined;
  let lineStart = 0;

  const define = (group: string | undefined, name: string | undefined, rawRef: string, content: string) => {
    if (!name || !content.trim()) return;
    const key = definitionKey(group, name);
    if (!definitions.has(key)) definitions.set(key, { raw: rawRef, content });
  };
  const inReferenceList = () => stack.some((f) => f.type === 'template' && isReferenceListTemplate(f.name));
  const rightAfterRef = () => lastRef !== undefined && out.blankSince(afterLastRef);
  const emitRef = (occ: RefOccurrence) => {
    if (SENTENCE_FINAL.test(out.tail)) out.write(SENTENCE_GAP);
    out.write(marker('c', refs.length));
    refs.push(occ);
    afterLastRef = out.length;
    out.markBlankFrom();
    lastRef = occ;
  };

  let i = 0;
  let pause = CHARS_PER_SLICE;
  while (i < raw.length) {
    if (i >= pause) {
      yield;
      pause = i + CHARS_PER_SLICE;
    }
    const ch = raw[i]!;
    if (!SPECIAL.has(ch)) {
      // copy plain text up to the next character that can start markup in one go
      PLAIN_RUN.lastIndex = i;
      const next = PLAIN_RUN.exec(raw)?.index ?? raw.length;
      const run = raw.slice(i, next);
      if (stack.length === 0 && run.length > 2) {
        SENTENCE_END.lastIndex = 0;
        let last = -1;
        for (let m = SENTENCE_END.exec(run); m; m = SENTENCE_END.exec(run)) last = m.index + m[0].length;
        if (last > 0 && last < run.length) sentenceStart(out.length + last);
      }
      out.write(run);
      i = next;
      continue;
    }

    if (ch === '<') {
      if (raw.startsWith('<!--', i)) {
        const close = raw.indexOf('-->', i + 4);
        i = close < 0 ? raw.length : close + 3;
        continue;
      }
      const head = raw.slice(i, i + 400);
      const tagName = /^<([a-zA-Z]+)/.exec(head)?.[1]?.toLowerCase();
      if (tagName && VERBATIM_TAGS.has(tagName)) {
        const end = verbatimEnd(raw, i, tagName);
        out.write(raw.slice(i, end));
        i = end;
        continue;
      }
      if (tagName === 'references') {
        const open = REFERENCES_OPEN.exec(head);
        if (open) {
          const group = refAttributes(open[1] ?? '').group;
          let end = i + open[0].length;
          if (!open[2]) {
            REFERENCES_CLOSE.lastIndex = end;
            const close = REFERENCES_CLOSE.exec(raw);
            const bodyEnd = close ? close.index : raw.length;
            for (const d of listDefinedRefs(raw.slice(end, bodyEnd))) define(d.group ?? group, d.name, d.raw, d.content);
            end = close ? close.index + close[0].length : raw.length;
          }
          i = end;
          continue;
        }
      }
      if (tagName === 'ref') {
        const open = REF_OPEN.exec(head);
        if (open) {
          const attrs = refAttributes(open[1] ?? '');
          let end = i + open[0].length;
          let content = '';
          if (!open[2]) {
            REF_CLOSE.lastIndex = end;
            const close = REF_CLOSE.exec(raw);
            // an unclosed ref: MediaWiki shows an error; we keep the tag alone as a (bad) reuse
            if (close) {
              content = raw.slice(end, close.index);
              end = close.index + close[0].length;
            }
          }
          const rawRef = raw.slice(i, end);
          define(attrs.group, attrs.name, rawRef, content);
          if (!inReferenceList()) {
            emitRef({
              kind: content.trim() ? 'ref' : 'reuse',
              start: i,
              end,
              raw: rawRef,
              content,
              ...attrs,
              where: where(stack),
              tags: { failedVerification: false, citationNeeded: false, deadLink: false },
            });
            if (raw[end] === ' ') sentenceStart(out.length + 1);
          }
          i = end;
          continue;
        }
      }
      if (tagName === 'gallery' && !/^<gallery[^>]*\/>/i.test(head)) push({ type: 'gallery' });
      if (raw.startsWith('</gallery', i) && stack.at(-1)?.type === 'gallery') stack.pop();
    }

    if (ch === '{' && raw[i + 1] === '{') {
      const name = templateNameAt(raw, i);
      if (SHORT_CITATION_TEMPLATES.has(name)) {
        const end = templateEnd(raw, i);
        const text = raw.slice(i, end);
        emitRef({
          kind: 'short',
          start: i,
          end,
          raw: text,
          content: text,
          where: where(stack),
          tags: { failedVerification: false, citationNeeded: false, deadLink: false },
        });
        i = end;
        continue;
      }
      const isFv = FAILED_VERIFICATION_TEMPLATES.has(name);
      const isCn = CITATION_NEEDED_TEMPLATES.has(name);
      const isDead = DEAD_LINK_TEMPLATES.has(name);
      const isPage = PAGE_TEMPLATES.has(name);
      if (isFv || isCn || isDead || (isPage && rightAfterRef())) {
        const end = templateEnd(raw, i);
        if (rightAfterRef()) {
          // the tag judges the ref it follows; a page template just belongs to it
          if (isFv) lastRef!.tags.failedVerification = true;
          if (isCn) lastRef!.tags.citationNeeded = true;
          if (isDead) lastRef!.tags.deadLink = true;
          if (isPage) lastRef!.rp ??= raw.slice(i, end);
        } else if (isCn && !inReferenceList()) {
          out.write(marker('u', uncited.length));
          uncited.push({ start: i, end });
        }
        i = end;
        continue;
      }
      push({ type: 'template', name });
      out.write('{{');
      i += 2;
      continue;
    }
    if (ch === '}' && raw[i + 1] === '}') {
      if (stack.at(-1)?.type === 'template') stack.pop();
      out.write('}}');
      i += 2;
      continue;
    }
    if (ch === '[' && raw[i + 1] === '[') {
      const target = /^\[\[\s*:?\s*([^|\]\n]*)/.exec(raw.slice(i, i + 300))?.[1] ?? '';
      push({ type: /^(file|image|datei|fichier|bild|media|imagen)\s*:/i.test(target) ? 'file' : 'link' });
      out.write('[[');
      i += 2;
      continue;
    }
    if (ch === ']' && raw[i + 1] === ']') {
      const top = stack.at(-1)?.type;
      if (top === 'file' || top === 'link') stack.pop();
      out.write(']]');
      i += 2;
      continue;
    }
    if ((ch === ':' || ch === '{' || ch === '|') && atLineStart(i)) {
      // an indented table (":{|") is still a table, but wtf_wikipedia reads it as an indented list and
      // puts its cells into the prose; without the colons it recognises it
      if (ch === ':' && /^:+\s*\{\|/.test(raw.slice(i, i + 20))) {
        i++;
        continue;
      }
      if (ch === '{' && raw[i + 1] === '|') push({ type: 'table' });
      else if (ch === '|' && raw[i + 1] === '}' && stack.at(-1)?.type === 'table') stack.pop();
    }
    if (ch === '[') inExternalLink = true;
    else if (ch === ']') inExternalLink = false;
    if (ch === '\n') {
      inExternalLink = false;
      out.write('\n');
      i++;
      if (stack.length === 0 && listBoundary(raw, lineStart, i)) out.write('\n');
      lineStart = i;
      if (stack.length === 0 && raw.startsWith('==', i) && raw[i + 2] !== '=') sectionStarts.push(out.length);
      else if (stack.length === 0 && out.tail === '\n\n' && raw[i] !== '\n' && raw[i] !== undefined) paragraphStarts.push(out.length);
      continue;
    }
    out.write(ch);
    i++;
  }
  return { marked: out.toString(), refs, definitions, uncited, sectionStarts, paragraphStarts, sentenceStarts };
}

/**
 * The marked text as it is written: a list of parts, with its last two characters and whether only
 * whitespace was written since a mark. Reading the end of a string built by `+=` flattens all of it, which
 * made the scan quadratic once it looked back after every ref and every newline.
 */
class MarkedOutput {
  private readonly parts: string[] = [];
  private current = '';
  length = 0;
  tail = '';
  private blank = true;
  private blankFrom = -1;

  write(s: string): void {
    if (!s) return;
    this.current += s;
    this.length += s.length;
    this.tail = s.length >= 2 ? s.slice(-2) : (this.tail + s).slice(-2);
    if (this.blank && /\S/.test(s)) this.blank = false;
    if (this.current.length >= 4096) {
      this.parts.push(this.current);
      this.current = '';
    }
  }

  /** Start watching for non-whitespace from the current end (the offset is `length` now). */
  markBlankFrom(): void {
    this.blank = true;
    this.blankFrom = this.length;
  }

  /** Only whitespace written since offset `at` (which must be the last markBlankFrom). */
  blankSince(at: number): boolean {
    return at === this.blankFrom && this.blank;
  }

  toString(): string {
    return this.parts.join('') + this.current;
  }
}

const NOT_INDENT = /[^\s:]/g;
/** What wtf_wikipedia's sentence split takes for a sentence end when whitespace follows (see SENTENCE_GAP). */
const SENTENCE_FINAL = /[.!?]"?$/;
/** A sentence end inside a run of plain text: terminal punctuation, closing quotes, then spaces. */
const SENTENCE_END = /[.!?]["'”’)\]]*[ \t]+/g;
/** Characters between two recorded sentence starts (they are cut points only for over-long paragraphs). */
const SENTENCE_CUT_GAP = 512;

function lineOf(raw: string, at: number): number {
  let line = 1;
  for (let k = raw.indexOf('\n'); k >= 0 && k < at; k = raw.indexOf('\n', k + 1)) line++;
  return line;
}

/**
 * wtf_wikipedia moves a paragraph's list items after its prose ("Intro.\n* a\nMore." renders as
 * "Intro. More.\n* a"), which would put context sentences out of order. A blank line between prose and
 * list lines makes them separate paragraphs, kept in order.
 */
function listBoundary(raw: string, prevLineStart: number, nextLineStart: number): boolean {
  const prev = raw[prevLineStart];
  const next = raw[nextLineStart];
  if (prev === undefined || next === undefined || prev === '\n' || next === '\n') return false;
  return isListChar(prev) !== isListChar(next);
}

function isListChar(c: string): boolean {
  return c === '*' || c === '#' || c === ';' || c === ':';
}

function verbatimEnd(raw: string, at: number, tag: string): number {
  const open = /^<[^>]*>/.exec(raw.slice(at, at + 400));
  if (!open || open[0].endsWith('/>')) return at + (open?.[0].length ?? 1);
  const close = new RegExp(`</${tag}\\s*>`, 'gi');
  close.lastIndex = at + open[0].length;
  const m = close.exec(raw);
  return m ? m.index + m[0].length : raw.length;
}

/** The outermost construct that holds the current position, as a skip reason. */
function where(stack: Frame[]): string {
  for (const f of stack) {
    if (f.type === 'template') return `template:${f.name}`;
    if (f.type !== 'link') return f.type;
  }
  return '';
}

/** Ref definitions inside `<references>...</references>`. */
function listDefinedRefs(body: string): { name?: string; group?: string; raw: string; content: string }[] {
  const found: { name?: string; group?: string; raw: string; content: string }[] = [];
  for (const m of body.replace(/<!--[\s\S]*?-->/g, '').matchAll(/<ref(\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/ref\s*>)/gi)) {
    found.push({ ...refAttributes(m[1] ?? ''), raw: m[0], content: m[2] ?? '' });
  }
  return found;
}
