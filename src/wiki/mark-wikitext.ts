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
import { marker } from './markers.js';
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
  const stack: Frame[] = [];
  let out = '';
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
  const rightAfterRef = () => lastRef !== undefined && /^\s*$/.test(out.slice(afterLastRef));
  const emitRef = (occ: RefOccurrence) => {
    out += marker('c', refs.length);
    refs.push(occ);
    afterLastRef = out.length;
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
      out += raw.slice(i, next);
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
        out += raw.slice(i, end);
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
          }
          i = end;
          continue;
        }
      }
      if (tagName === 'gallery' && !/^<gallery[^>]*\/>/i.test(head)) stack.push({ type: 'gallery' });
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
          out += marker('u', uncited.length);
          uncited.push({ start: i, end });
        }
        i = end;
        continue;
      }
      stack.push({ type: 'template', name });
      out += '{{';
      i += 2;
      continue;
    }
    if (ch === '}' && raw[i + 1] === '}') {
      if (stack.at(-1)?.type === 'template') stack.pop();
      out += '}}';
      i += 2;
      continue;
    }
    if (ch === '[' && raw[i + 1] === '[') {
      const target = /^\[\[\s*:?\s*([^|\]\n]*)/.exec(raw.slice(i, i + 300))?.[1] ?? '';
      stack.push({ type: /^(file|image|datei|fichier|bild|media|imagen)\s*:/i.test(target) ? 'file' : 'link' });
      out += '[[';
      i += 2;
      continue;
    }
    if (ch === ']' && raw[i + 1] === ']') {
      const top = stack.at(-1)?.type;
      if (top === 'file' || top === 'link') stack.pop();
      out += ']]';
      i += 2;
      continue;
    }
    if ((ch === ':' || ch === '{' || ch === '|') && atLineStart(raw, lineStart, i)) {
      // an indented table (":{|") is still a table, but wtf_wikipedia reads it as an indented list and
      // puts its cells into the prose; without the colons it recognises it
      if (ch === ':' && /^:+\s*\{\|/.test(raw.slice(i, i + 20))) {
        i++;
        continue;
      }
      if (ch === '{' && raw[i + 1] === '|') stack.push({ type: 'table' });
      else if (ch === '|' && raw[i + 1] === '}' && stack.at(-1)?.type === 'table') stack.pop();
    }
    if (ch === '\n') {
      out += '\n';
      i++;
      if (stack.length === 0 && listBoundary(raw, lineStart, i)) out += '\n';
      lineStart = i;
      if (stack.length === 0 && raw.startsWith('==', i) && raw[i + 2] !== '=') sectionStarts.push(out.length);
      continue;
    }
    out += ch;
    i++;
  }
  return { marked: out, refs, definitions, uncited, sectionStarts };
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

/** Tables open and close only at the start of a line (after optional indentation). */
function atLineStart(raw: string, lineStart: number, i: number): boolean {
  return /^[\s:]*$/.test(raw.slice(lineStart, i));
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
