/**
 * Rendered Wikipedia article HTML -> Article, the same shape parseWikitext gives.
 *
 * Footnote markers are `<sup class="reference"><a href="#cite_note-NAME-3">[3]</a></sup>`; each becomes a
 * marker token in its paragraph's text, and the `<li id="cite_note-NAME-3">` of `ol.references` with the
 * same id gives the source. A second marker pointing at the same note is a reuse of a named ref.
 * Maintenance templates render as `<sup class="noprint Inline-Template ...">[failed verification]</sup>`;
 * right after a marker they tag that citation, a lone [citation needed] marks an uncited claim.
 *
 * Prose is what sits in `p`, lists, `dl` and `blockquote` of the content; tables (infoboxes included),
 * figures, galleries, navboxes, hatnotes and the reference list are not prose, and footnote markers inside
 * them are reported in `skipped`. Headings h2..h6 (bare, or wrapped in `div.mw-heading` as the 2024+
 * markup does) give the section path.
 */
import { parseHTML } from '../corpus/linkedom.js';
import { assembleArticle, type CitationInput, type MarkedSection } from './assemble-article.js';
import { hasClass, isElement, textOf, TEXT_NODE, type HtmlElement, type HtmlNode } from './html-dom.js';
import { marker } from './markers.js';
import { readHtmlSource, type HtmlSourceFields } from './read-html-source.js';
import { DEFAULT_CONTEXT_SENTENCES, type Article, type ParseOptions } from './types.js';

const SKIP_TAGS = new Set(['TABLE', 'FIGURE', 'STYLE', 'SCRIPT', 'NOSCRIPT', 'LINK', 'META', 'IMG', 'SVG']);
const SKIP_CLASSES = [
  'infobox', 'navbox', 'reflist', 'references', 'mw-references-wrap', 'thumb', 'hatnote', 'shortdescription',
  'metadata', 'toc', 'gallery', 'mw-editsection', 'sistersitebox', 'ambox', 'catlinks', 'printfooter',
  'noprint', 'mw-empty-elt', 'navigation-not-searchable', 'side-box', 'notelist',
];
const HEADING = /^H([2-6])$/;

interface HtmlDocument {
  title: string;
  querySelector(selector: string): HtmlElement | null;
}

export function parseWikipediaHtml(html: string, opts: ParseOptions = {}): Article {
  const { document } = parseHTML(html) as unknown as { document: HtmlDocument };
  const root =
    document.querySelector('.mw-parser-output') ?? document.querySelector('#mw-content-text') ?? document.querySelector('body');
  const title =
    opts.title ?? (textOf(document.querySelector('#firstHeading')) || (document.title ?? '').replace(/ [-–—] Wikipedia$/, '').trim());
  const walker = new Walker(root);
  if (root) walker.block(root);
  walker.reportUnvisited();
  return assembleArticle({
    title,
    sections: walker.sections,
    citations: walker.citations,
    contextSentences: opts.contextSentences ?? DEFAULT_CONTEXT_SENTENCES,
  });
}

/** A line being built: its text with markers, and the citation a maintenance tag would attach to. */
interface LineState {
  text: string;
  lastRef?: CitationInput;
  afterLastRef: number;
}

class Walker {
  readonly sections: MarkedSection[] = [{ path: [], paragraphs: [] }];
  readonly citations: CitationInput[] = [];
  private readonly headings: { level: number; title: string }[] = [];
  private readonly notes = new Map<string, HtmlElement>();
  private readonly noteSources = new Map<string, HtmlSourceFields>();
  private readonly visited = new Set<HtmlElement>();
  private uncited = 0;

  constructor(private readonly root: HtmlElement | null) {
    for (const li of Array.from(root?.querySelectorAll('ol.references li[id]') ?? [])) this.notes.set(li.getAttribute('id')!, li);
  }

  block(node: HtmlElement): void {
    for (const child of Array.from(node.childNodes)) {
      if (!isElement(child)) continue;
      const level = HEADING.exec(child.tagName)?.[1];
      if (level) {
        this.heading(Number(level), child);
        continue;
      }
      if (hasClass(child, 'mw-heading')) {
        const h = child.querySelector('h2, h3, h4, h5, h6');
        if (h) this.heading(Number(h.tagName[1]), h);
        continue;
      }
      if (SKIP_TAGS.has(child.tagName) || SKIP_CLASSES.some((c) => hasClass(child, c))) continue;
      if (child.tagName === 'OL' && hasClass(child, 'references')) continue;
      switch (child.tagName) {
        case 'P':
          this.paragraph([this.inline(child)]);
          break;
        case 'UL':
        case 'OL':
          this.paragraph(this.listLines(child));
          break;
        case 'DL':
          this.paragraph(Array.from(child.childNodes).filter(isElement).map((d) => this.inline(d)));
          break;
        case 'BLOCKQUOTE':
          if (child.querySelector('p')) this.block(child);
          else this.paragraph([this.inline(child)]);
          break;
        default:
          this.block(child);
      }
    }
  }

  /** Footnote markers never reached by the walk: in tables, infoboxes, figures, headings. */
  reportUnvisited(): void {
    for (const sup of Array.from(this.root?.querySelectorAll('sup.reference') ?? [])) {
      if (this.visited.has(sup)) continue;
      const where = sup.closest('h1, h2, h3, h4, h5, h6')
        ? 'heading'
        : sup.closest('.infobox')
          ? 'infobox'
          : sup.closest('table')
            ? 'table'
            : sup.closest('figure, .thumb')
              ? 'file'
              : sup.closest('.gallery')
                ? 'gallery'
                : 'dropped';
      this.citations.push({ ...this.citationFor(sup), where });
    }
  }

  private heading(level: number, h: HtmlElement): void {
    const headline = h.querySelector('.mw-headline') ?? h;
    const title = plainText(headline);
    while (this.headings.length > 0 && this.headings.at(-1)!.level >= level) this.headings.pop();
    this.headings.push({ level, title });
    this.sections.push({ path: this.headings.map((x) => x.title), paragraphs: [] });
  }

  private paragraph(lines: string[]): void {
    const kept = lines.filter((l) => l.trim());
    if (kept.length > 0) this.sections.at(-1)!.paragraphs.push(kept.map((text) => ({ text })));
  }

  /** One line per list item; nested lists follow their parent item as lines of their own. */
  private listLines(list: HtmlElement): string[] {
    const lines: string[] = [];
    for (const li of Array.from(list.childNodes)) {
      if (!isElement(li) || li.tagName !== 'LI') continue;
      lines.push(this.inline(li));
      for (const sub of Array.from(li.childNodes)) {
        if (isElement(sub) && (sub.tagName === 'UL' || sub.tagName === 'OL')) lines.push(...this.listLines(sub));
      }
    }
    return lines;
  }

  private inline(el: HtmlElement): string {
    const line: LineState = { text: '', afterLastRef: -1 };
    this.inlineInto(el, line);
    return line.text;
  }

  private inlineInto(el: HtmlElement, line: LineState): void {
    for (const node of Array.from(el.childNodes) as HtmlNode[]) {
      if (node.nodeType === TEXT_NODE) {
        line.text += node.nodeValue ?? '';
        continue;
      }
      if (!isElement(node)) continue;
      if (node.tagName === 'SUP' && hasClass(node, 'reference')) {
        const input = { ...this.citationFor(node), where: '' };
        this.visited.add(node);
        line.text += marker('c', this.citations.length);
        this.citations.push(input);
        line.lastRef = input;
        line.afterLastRef = line.text.length;
        continue;
      }
      if (hasClass(node, 'Inline-Template')) {
        this.maintenanceTag(node, line);
        continue;
      }
      if (node.tagName === 'BR') {
        line.text += ' ';
        continue;
      }
      if (node.tagName === 'UL' || node.tagName === 'OL' || SKIP_TAGS.has(node.tagName)) continue;
      if (SKIP_CLASSES.some((c) => hasClass(node, c))) continue;
      this.inlineInto(node, line);
    }
  }

  private maintenanceTag(node: HtmlElement, line: LineState): void {
    const what = textOf(node).toLowerCase();
    const fv = /failed verification|verification failed|not in (?:citation|source)/.test(what);
    const cn = /citation needed/.test(what);
    const dead = /dead link/.test(what);
    if (line.lastRef && /^\s*$/.test(line.text.slice(line.afterLastRef))) {
      if (fv) line.lastRef.tags.failedVerification = true;
      if (cn) line.lastRef.tags.citationNeeded = true;
      if (dead) line.lastRef.tags.deadLink = true;
    } else if (cn) {
      line.text += marker('u', this.uncited++);
    }
  }

  private citationFor(sup: HtmlElement): Omit<CitationInput, 'where'> {
    const href = sup.querySelector('a')?.getAttribute('href') ?? '';
    const noteId = decodeURIComponent(href.slice(href.indexOf('#') + 1));
    const li = this.notes.get(noteId);
    const seen = this.noteSources.has(noteId);
    let fields = this.noteSources.get(noteId);
    if (!fields) {
      const name = /^cite_note-(.+)-\d+$/.exec(noteId)?.[1];
      fields = li ? readHtmlSource(li, name) : { source: { raw: sup.outerHTML }, deadLinkTag: false };
      if (li) this.noteSources.set(noteId, fields);
    }
    return {
      source: { ...fields.source },
      tags: { failedVerification: false, citationNeeded: false, deadLink: fields.deadLinkTag },
      kind: seen ? 'reuse' : 'ref',
    };
  }
}

/** Text of a heading without its [edit] link or footnote markers. */
function plainText(el: HtmlElement): string {
  let out = '';
  for (const node of Array.from(el.childNodes)) {
    if (node.nodeType === TEXT_NODE) out += node.nodeValue ?? '';
    else if (isElement(node) && !hasClass(node, 'mw-editsection') && !hasClass(node, 'reference')) out += plainText(node);
  }
  return out.replace(/\s+/g, ' ').trim();
}
