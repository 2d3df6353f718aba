/**
 * HTML report or blog post -> CitedDocument. Readability (the reader view of Firefox, already used for
 * source pages in src/corpus/html-text.ts) picks the main text, so navigation, sidebars and footers give
 * no citations; linkedom supplies the DOM.
 *
 * Citations, in reading order:
 *   - links to web pages in the main text (`<a href="https://...">`): the marker right after the link text;
 *   - footnote references: an in-page link (`<a href="#fn1">`, usually in `<sup>`) to a note in a notes or
 *     references list: the note's text, links and identifiers are the source; each use is a citation;
 *   - "[3]" in the text when the page has a numbered "References" list;
 *   - DOIs, arXiv ids, PubMed ids and bare URLs written in the text.
 * Notes lists, reference sections and other back matter ("Further reading", "See also") are not prose.
 * Headings give the section path; a first <h1> equal to the title is not a section.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from '../corpus/linkedom.js';
import { withDocumentStructure } from '../corpus/html-text.js';
import { isElement, textOf, type HtmlElement, type HtmlNode } from '../wiki/html-dom.js';
import { assembleDocument, type MarkedLine, type MarkedSection } from './assemble.js';
import { CitationTable } from './citation-table.js';
import { backMatterOf, entryNumber, sourceFromReference } from './references.js';
import type { CitedDocument, DocumentParseOptions, DocumentSource } from './types.js';

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'CANVAS', 'OBJECT', 'HEAD', 'CODE', 'PRE', 'FIGURE', 'IMG', 'BUTTON', 'FORM', 'NAV']);
const BLOCK = new Set([
  'P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'ASIDE', 'UL', 'OL', 'LI', 'DL', 'DT', 'DD', 'TABLE', 'THEAD', 'TBODY',
  'TFOOT', 'TR', 'TD', 'TH', 'BLOCKQUOTE', 'HR', 'ADDRESS', 'DETAILS', 'SUMMARY', 'CAPTION', 'FIGCAPTION',
]);
const HEADING = /^H([1-6])$/;
const NOTES_CONTAINER = 'section.footnotes, div.footnotes, ol.footnotes, aside.footnotes, [role="doc-endnotes"], [role="doc-footnote"], .footnote-list, ol.references, div.references, section.references, #footnotes, #references, #notes';

interface Ctx {
  table: CitationTable;
  byId: Map<string, HtmlElement>;
  /** Elements of the original page that are notes or reference entries (targets of footnote links). */
  notes: Set<HtmlElement>;
  numbered: Map<number, DocumentSource> | undefined;
  baseUrl: string | undefined;
}

export function parseHtmlDocument(source: string, opts: DocumentParseOptions = {}): CitedDocument {
  const html = withDocumentStructure(source);
  const original = parseHTML(html).document as unknown as { title?: string; body: HtmlElement; querySelectorAll(sel: string): ArrayLike<HtmlElement>; querySelector(sel: string): HtmlElement | null };
  const byId = new Map<string, HtmlElement>();
  for (const el of Array.from(original.querySelectorAll('[id]'))) if (!byId.has(el.getAttribute('id')!)) byId.set(el.getAttribute('id')!, el);
  const baseUrl = opts.baseUrl ?? original.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? undefined;

  // Notes and reference sections of the original page: their entries are sources, never prose.
  const notes = new Set<HtmlElement>();
  for (const c of Array.from(original.querySelectorAll(NOTES_CONTAINER))) for (const li of Array.from(c.querySelectorAll('li, p'))) notes.add(li);
  const numbered = new Map<number, DocumentSource>();
  for (const section of backMatterSections(original.body)) {
    if (section.kind !== 'references') continue;
    for (const el of section.elements) readEntries(el, numbered, notes);
  }
  const table = new CitationTable();
  const ctx: Ctx = { table, byId, notes, numbered: numbered.size ? numbered : undefined, baseUrl };

  // Main text: Readability on a second copy (it changes the DOM it reads).
  const copy = parseHTML(html).document;
  let article: { title?: string | null; content?: HtmlElement | null } | null = null;
  try {
    article = new Readability<HtmlElement>(copy, { keepClasses: true, serializer: (n: unknown) => n as HtmlElement }).parse();
  } catch {
    article = null;
  }
  const root = article?.content ?? (parseHTML(html).document.body as unknown as HtmlElement);
  const title = opts.title ?? ((article?.title ?? '').trim() || (original.title ?? '').trim() || textOf(original.querySelector('h1')));

  const sections: MarkedSection[] = [{ path: [], lines: [] }];
  const stack: { level: number; text: string }[] = [];
  let back = false;
  let line = '';
  let paragraph = true;
  const flush = (nextParagraph: boolean) => {
    const t = line.replace(/\s+/g, ' ').trim();
    if (t) sections[sections.length - 1]!.lines.push({ text: t, paragraph });
    if (t) paragraph = nextParagraph;
    else paragraph ||= nextParagraph;
    line = '';
  };
  const walk = (node: HtmlNode) => {
    if (node.nodeType === 3) {
      if (!back) line += ctx.table.markText(node.nodeValue ?? '', { urls: true, ...(ctx.numbered ? { numbered: ctx.numbered } : {}) });
      return;
    }
    if (!isElement(node)) return;
    const tag = node.nodeName.toUpperCase();
    if (SKIP.has(tag) || isNotesList(node, ctx)) return;
    const h = HEADING.exec(tag);
    if (h) {
      flush(true);
      const text = textOf(node);
      if (!text || (stack.length === 0 && tag === 'H1' && text === title)) return;
      const level = Number(h[1]);
      while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text });
      back = backMatterOf(text) !== undefined;
      sections.push({ path: stack.map((s) => s.text), lines: [] });
      for (const a of Array.from(node.querySelectorAll('a[href]'))) if (/^https?:/i.test(a.getAttribute('href')!)) table.skip('in a heading', { raw: a.getAttribute('href')!, url: a.getAttribute('href')! });
      paragraph = true;
      return;
    }
    if (back) return;
    if (tag === 'BR') {
      line += ' ';
      return;
    }
    if (tag === 'A') {
      anchor(node, ctx, (s) => (line += s), walk);
      return;
    }
    const block = BLOCK.has(tag);
    if (block) flush(tag !== 'LI' && tag !== 'TD' && tag !== 'TH' && tag !== 'DD');
    for (let i = 0; i < node.childNodes.length; i++) walk(node.childNodes[i]!);
    if (block) flush(tag !== 'LI' && tag !== 'TD' && tag !== 'TH' && tag !== 'DD');
  };
  walk(root);
  flush(true);
  return assembleDocument({ title, kind: 'html', sections, table, ...(opts.contextSentences !== undefined ? { contextSentences: opts.contextSentences } : {}) });
}

/** A link in the main text: a footnote reference, a citation of a web page, or neither. */
function anchor(a: HtmlElement, ctx: Ctx, emit: (s: string) => void, walk: (n: HtmlNode) => void): void {
  const href = (a.getAttribute('href') ?? '').trim();
  if (href.startsWith('#')) {
    const target = ctx.byId.get(decodeURIComponentSafe(href.slice(1)));
    if (target && isNote(target, ctx)) {
      emit(ctx.table.add(noteSource(target), 'footnote', `fn:${href}`));
      return; // the note number ("1", "[1]") is not prose
    }
    for (let i = 0; i < a.childNodes.length; i++) walk(a.childNodes[i]!);
    return;
  }
  for (let i = 0; i < a.childNodes.length; i++) walk(a.childNodes[i]!);
  const url = absolute(href, ctx.baseUrl);
  if (!url) {
    if (href && !/^(mailto|tel|javascript):/i.test(href)) ctx.table.skip(`not a web link (${href})`, { raw: href });
    return;
  }
  const text = textOf(a);
  const source = sourceFromReference(text && text !== url ? `${text} ${url}` : url, [url]);
  source.url = url;
  if (text && text !== url && !/^https?:\/\//i.test(text)) source.title = text;
  emit(ctx.table.add(source, 'link'));
}

function absolute(href: string, base: string | undefined): string | undefined {
  if (/^https?:\/\//i.test(href)) return href;
  if (!base || !href || /^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined;
  try {
    const u = new URL(href, base);
    return /^https?:$/.test(u.protocol) ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function isNote(target: HtmlElement, ctx: Ctx): boolean {
  if (ctx.notes.has(target)) return true;
  const li = target.closest('li');
  return !!li && ctx.notes.has(li);
}

/** A notes list or a reference list inside the main text: sources, not prose. */
function isNotesList(el: HtmlElement, ctx: Ctx): boolean {
  const tag = el.nodeName.toUpperCase();
  if (tag !== 'OL' && tag !== 'UL' && tag !== 'SECTION' && tag !== 'DIV' && tag !== 'ASIDE') return false;
  if ((el as unknown as { matches(sel: string): boolean }).matches(NOTES_CONTAINER)) return true;
  if (tag !== 'OL' && tag !== 'UL') return false;
  // Readability's copy is another DOM: its items are matched to the original's notes by id.
  for (const li of Array.from((el as TreeElement).children)) {
    const id = li.getAttribute('id');
    const orig = id ? ctx.byId.get(id) : undefined;
    if (orig && ctx.notes.has(orig)) return true;
  }
  return false;
}

/** The note's text without its back-links ("↩"), with its links and identifiers. */
function noteSource(note: HtmlElement): DocumentSource {
  const links: string[] = [];
  let text = '';
  const walk = (n: HtmlNode) => {
    if (n.nodeType === 3) {
      text += n.nodeValue ?? '';
      return;
    }
    if (!isElement(n)) return;
    if (n.nodeName.toUpperCase() === 'A') {
      const href = n.getAttribute('href') ?? '';
      if (href.startsWith('#')) return; // back-link to the text
      if (/^https?:\/\//i.test(href)) links.push(href);
    }
    if (BLOCK.has(n.nodeName.toUpperCase())) text += ' ';
    for (let i = 0; i < n.childNodes.length; i++) walk(n.childNodes[i]!);
  };
  walk(note.nodeName.toUpperCase() === 'LI' || note.nodeName.toUpperCase() === 'P' ? note : (note.closest('li') ?? note));
  const labelled = entryNumber(text.replace(/\s+/g, ' ').trim());
  return sourceFromReference(labelled ? labelled.rest : text, links);
}

interface BackMatterSection {
  kind: 'references' | 'other';
  elements: HtmlElement[];
}

/** The tree navigation this file uses beyond html-dom.ts (linkedom has it). */
interface TreeElement extends HtmlElement {
  parentElement: TreeElement | null;
  nextElementSibling: TreeElement | null;
  children: ArrayLike<TreeElement>;
}

/** Headings of back matter on the original page and the elements after each, up to the next heading of the same or a higher level. */
function backMatterSections(body: HtmlElement): BackMatterSection[] {
  const out: BackMatterSection[] = [];
  for (const h of Array.from(body.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const kind = backMatterOf(textOf(h));
    if (!kind) continue;
    const level = Number(h.nodeName[1]);
    const elements: HtmlElement[] = [];
    // The heading may sit alone in a wrapper (<div class="heading"><h2>): walk up while it is the only content.
    let start = h as TreeElement;
    while (start.parentElement && start.parentElement.children.length === 1 && start.parentElement !== body) start = start.parentElement;
    for (let el = start.nextElementSibling; el; el = el.nextElementSibling) {
      const inner = HEADING.test(el.nodeName.toUpperCase()) ? el : el.querySelector('h1, h2, h3, h4, h5, h6');
      if (inner && Number(inner.nodeName[1]) <= level) break;
      elements.push(el);
    }
    out.push({ kind, elements });
  }
  return out;
}

/** Entries of a references block: <ol> items by position, or items / paragraphs labelled "[n]" / "n.". */
function readEntries(el: HtmlElement, out: Map<number, DocumentSource>, notes: Set<HtmlElement>): void {
  const tag = el.nodeName.toUpperCase();
  const lists = tag === 'OL' || tag === 'UL' ? [el] : Array.from(el.querySelectorAll('ol, ul'));
  for (const list of lists) {
    const start = Number(list.getAttribute('start') ?? '1') || 1;
    Array.from((list as TreeElement).children).forEach((li, i) => {
      if (li.nodeName.toUpperCase() !== 'LI') return;
      notes.add(li);
      const src = noteSource(li);
      const labelled = entryNumber(textOf(li));
      const n = labelled ? labelled.n : list.nodeName.toUpperCase() === 'OL' ? start + i : i + 1;
      if (!out.has(n)) out.set(n, src);
    });
  }
  const paragraphs = tag === 'P' ? [el] : lists.length ? [] : Array.from(el.querySelectorAll('p'));
  for (const p of paragraphs) {
    const labelled = entryNumber(textOf(p));
    if (!labelled) continue;
    notes.add(p);
    if (!out.has(labelled.n)) out.set(labelled.n, noteSource(p));
  }
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
