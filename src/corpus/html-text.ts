/**
 * HTML page -> title and main text. Readability (Firefox's reader view) picks the article and drops
 * navigation, footers and sidebars; it runs on linkedom's DOM (no browser, no jsdom). When Readability
 * finds nothing, the body text is used instead, minus scripts and obvious boilerplate.
 *
 * Block elements become blank lines so paragraphs, headings and list items are never glued together
 * (Readability's own `textContent` would give "end of one.Start of next").
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from './linkedom.js';

export interface PageText {
  title: string;
  text: string;
  /** Absolute http(s) links of the main text, in order, without duplicates. */
  links: string[];
  url?: string;
}

/** The part of a DOM node this file uses (linkedom's nodes, typed loosely by its declarations). */
interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'CANVAS', 'OBJECT', 'HEAD']);
const BOILERPLATE = new Set(['NAV', 'FOOTER', 'ASIDE', 'FORM', 'BUTTON']);
const BLOCK = new Set([
  'P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'ASIDE', 'NAV', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
  'UL', 'OL', 'LI', 'DL', 'DT', 'DD', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'BLOCKQUOTE', 'PRE', 'FIGURE',
  'FIGCAPTION', 'HR', 'ADDRESS', 'DETAILS', 'SUMMARY', 'CAPTION',
]);

export function htmlToText(source: string): PageText {
  const html = withDocumentStructure(source);
  const { document } = parseHTML(html);
  const docTitle = (document.title ?? '').trim();
  const firstH1 = document.querySelector('h1')?.textContent?.trim() ?? '';
  const url = document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? undefined;

  let article: { title?: string | null; content?: DomNode | null } | null = null;
  try {
    // The serializer hands back the article's DOM node itself, so it is not serialised and parsed again.
    article = new Readability<DomNode>(document, { serializer: (node: unknown) => node as DomNode }).parse();
  } catch {
    article = null; // a page Readability cannot handle still has body text
  }
  const links: string[] = [];
  let text = article?.content ? blockText(article.content, false, links) : '';
  if (!text) {
    // Readability changed the DOM it looked at; start again from the original page.
    const fresh = parseHTML(html).document;
    text = fresh.body ? blockText(fresh.body as unknown as DomNode, true, links) : '';
  }
  const title = (article?.title ?? '').trim() || docTitle || firstH1;
  const page: PageText = { title, text, links: [...new Set(links)] };
  if (url) page.url = url;
  return page;
}

/**
 * linkedom builds the tree as written and does not add the <html>/<head>/<body> an HTML5 parser would, so a
 * fragment ("<p>One.</p>") or a page without <body> would have no body and no text. Supply them.
 */
export function withDocumentStructure(html: string): string {
  if (/<html[\s>]/i.test(html) && /<body[\s>]/i.test(html)) return html;
  const head = /<head(?:\s[^>]*)?>([\s\S]*?)<\/head>/i.exec(html)?.[1] ?? /<title[^>]*>[\s\S]*?<\/title>/i.exec(html)?.[0] ?? '';
  const body = html
    .replace(/<!doctype[^>]*>/i, '')
    .replace(/<head(?:\s[^>]*)?>[\s\S]*?<\/head>/i, '')
    .replace(/<title[^>]*>[\s\S]*?<\/title>/i, '')
    .replace(/<\/?(?:html|body)(?:\s[^>]*)?>/gi, '');
  return `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;
}

function blockText(root: DomNode, dropBoilerplate: boolean, links: string[]): string {
  const parts: string[] = [];
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      parts.push((node.nodeValue ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = node.nodeName.toUpperCase();
    if (SKIP.has(tag) || (dropBoilerplate && BOILERPLATE.has(tag))) return;
    if (tag === 'BR') {
      parts.push('\n');
      return;
    }
    if (tag === 'A') {
      const href = node.getAttribute?.('href');
      if (href && /^https?:\/\//i.test(href)) links.push(href);
    }
    const block = BLOCK.has(tag);
    if (block) parts.push('\n\n');
    else if (tag === 'TD' || tag === 'TH') parts.push(' ');
    for (let i = 0; i < node.childNodes.length; i++) walk(node.childNodes[i]!);
    if (block) parts.push('\n\n');
  };
  walk(root);
  return parts
    .join('')
    .replace(/[^\S\n]*\n[^\S\n]*/g, '\n')
    .replace(/[^\S\n]{2,}/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
