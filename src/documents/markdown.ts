/**
 * Markdown report -> CitedDocument, read with a CommonMark + GFM parser (micromark / mdast-util-from-markdown,
 * with GFM footnotes, autolink literals and tables, and front matter), not with regexes over the syntax.
 *
 * Citations, in reading order:
 *   - inline links `[text](url)`, reference links `[text][ref]` / `[text]` with a `[ref]: url` definition,
 *     autolinks `<https://...>` and bare URLs (GFM): one citation each, the marker right after the link text
 *     (an autolink shows only its URL, a reference rather than prose: only the marker stays);
 *   - footnote references `[^1]`: the footnote definition is the source (its links and identifiers);
 *   - "[3]" in the text when the document ends with a numbered "References" list (an ordered list, or lines
 *     "[3] ..." / "3. ..."): the entry is the source;
 *   - DOIs, arXiv ids and PubMed ids written in a sentence ("(doi:10.1000/xyz)").
 * Links to places inside the document ("#methods") are navigation, not citations; links with other schemes
 * or relative paths are reported in `skipped`. Links in headings, images, code and raw HTML are not read.
 * Sections: the heading path; a first level-1 heading is the title. Reference and back-matter sections
 * ("References", "Further reading", "See also"...) are not prose.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import type { Definition, FootnoteDefinition, Heading, Nodes, PhrasingContent, Root, RootContent } from 'mdast';
import { assembleDocument, type MarkedLine, type MarkedSection } from './assemble.js';
import { CitationTable } from './citation-table.js';
import { backMatterOf, entryNumber, sourceFromReference } from './references.js';
import type { CitedDocument, DocumentParseOptions, DocumentSource } from './types.js';

export function parseMarkdownTree(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm(), frontmatter(['yaml', 'toml'])], mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])] });
}

export function parseMarkdownDocument(markdown: string, opts: DocumentParseOptions = {}): CitedDocument {
  const tree = parseMarkdownTree(markdown);
  const definitions = new Map<string, Definition>();
  const footnotes = new Map<string, FootnoteDefinition>();
  visit(tree, (n) => {
    if (n.type === 'definition' && !definitions.has(n.identifier)) definitions.set(n.identifier, n);
    if (n.type === 'footnoteDefinition' && !footnotes.has(n.identifier)) footnotes.set(n.identifier, n);
  });

  // Title: an explicit one, else a level-1 heading that opens the document.
  const blocks = tree.children.filter((n) => n.type !== 'yaml' && (n.type as string) !== 'toml' && n.type !== 'definition' && n.type !== 'footnoteDefinition');
  let title = opts.title;
  const first = blocks[0];
  if (first?.type === 'heading' && first.depth === 1) {
    title ??= plain(first.children);
    blocks.shift();
  }
  title ??= '';

  // Split into sections by heading; the references section's entries feed "[n]" markers.
  const table = new CitationTable();
  const numbered = new Map<number, DocumentSource>();
  const parts: { path: string[]; nodes: RootContent[]; back?: 'references' | 'other' }[] = [{ path: [], nodes: [] }];
  const stack: { depth: number; text: string }[] = [];
  for (const node of blocks) {
    if (node.type === 'heading') {
      const text = plain(node.children);
      while (stack.length && stack[stack.length - 1]!.depth >= node.depth) stack.pop();
      stack.push({ depth: node.depth, text });
      const back = backMatterOf(text);
      parts.push({ path: stack.map((h) => h.text), nodes: [], ...(back ? { back } : {}) });
      skipHeadingLinks(node, table);
      continue;
    }
    parts[parts.length - 1]!.nodes.push(node);
  }
  for (const part of parts) if (part.back === 'references') readReferenceList(part.nodes, numbered);

  const ctx: InlineContext = { table, definitions, footnotes, numbered: numbered.size ? numbered : undefined };
  const sections: MarkedSection[] = [];
  for (const part of parts) {
    if (part.back) {
      if (part.back === 'other') visit({ type: 'root', children: part.nodes }, (n) => void (n.type === 'link' && table.skip('back matter (further reading, see also...)', { raw: n.url, url: n.url })));
      continue;
    }
    const lines: MarkedLine[] = [];
    for (const node of part.nodes) blockLines(node, ctx, lines, true);
    sections.push({ path: part.path, lines });
  }
  // Footnotes never referenced give no citation; say so.
  for (const [id, def] of footnotes) if (!ctx.referenced?.has(id)) table.skip(`footnote [^${def.label ?? id}] is never referenced`, footnoteSource(def));
  return assembleDocument({ title, kind: 'markdown', sections, table, ...(opts.contextSentences !== undefined ? { contextSentences: opts.contextSentences } : {}) });
}

interface InlineContext {
  table: CitationTable;
  definitions: Map<string, Definition>;
  footnotes: Map<string, FootnoteDefinition>;
  numbered: Map<number, DocumentSource> | undefined;
  referenced?: Set<string>;
}

/** Block content -> lines of marked text. `paragraph`: the next line starts a paragraph. */
function blockLines(node: RootContent, ctx: InlineContext, out: MarkedLine[], paragraph: boolean): void {
  switch (node.type) {
    case 'paragraph':
      out.push({ text: inline(node.children, ctx).replace(/\s+/g, ' ').trim(), paragraph });
      return;
    case 'list':
      node.children.forEach((item, i) => {
        item.children.forEach((child, j) => blockLines(child, ctx, out, paragraph && i === 0 && j === 0));
      });
      return;
    case 'blockquote':
      node.children.forEach((child, i) => blockLines(child, ctx, out, paragraph || i > 0));
      return;
    case 'table': {
      // A row is one line, each cell named by its column: "Site: Godrevy; Count: 412".
      const [head, ...rows] = node.children;
      const names = head ? head.children.map((c) => plain(c.children)) : [];
      rows.forEach((row, i) => {
        const cells = row.children.map((cell, j) => {
          const v = inline(cell.children, ctx).replace(/\s+/g, ' ').trim();
          return names[j] ? `${names[j]}: ${v}` : v;
        });
        out.push({ text: cells.join('; '), paragraph: paragraph && i === 0 });
      });
      if (head) visit(head, (n) => void (n.type === 'link' && ctx.table.skip('in a table header', { raw: n.url, url: n.url })));
      return;
    }
    default:
      // code, html, thematic breaks, math: not prose
      return;
  }
}

function inline(nodes: readonly PhrasingContent[], ctx: InlineContext): string {
  let out = '';
  for (const n of nodes) {
    switch (n.type) {
      case 'text':
        out += ctx.table.markText(n.value, ctx.numbered ? { numbered: ctx.numbered } : {});
        break;
      case 'inlineCode':
        out += n.value;
        break;
      case 'break':
        out += ' ';
        break;
      case 'emphasis':
      case 'strong':
      case 'delete':
        out += inline(n.children, ctx);
        break;
      case 'link':
        out += linkCitation(n.url, n.children, n.title ?? undefined, ctx);
        break;
      case 'linkReference': {
        const def = ctx.definitions.get(n.identifier);
        out += def ? linkCitation(def.url, n.children, def.title ?? undefined, ctx) : inline(n.children, ctx);
        break;
      }
      case 'footnoteReference': {
        const def = ctx.footnotes.get(n.identifier);
        if (!def) break; // GFM only parses a reference whose definition exists
        (ctx.referenced ??= new Set()).add(n.identifier);
        out += ctx.table.add(footnoteSource(def), 'footnote', `fn:${n.identifier}`);
        break;
      }
      default:
        // images, inline HTML, footnote definitions: no prose text
        break;
    }
  }
  return out;
}

function linkCitation(url: string, children: readonly PhrasingContent[], title: string | undefined, ctx: InlineContext): string {
  const text = inline(children, ctx);
  if (url.startsWith('#')) return text; // a place in this document
  if (!/^https?:\/\//i.test(url)) {
    ctx.table.skip(`not a web link (${url.split(':')[0] || 'relative'})`, { raw: url });
    return text;
  }
  // An autolink shows its own URL: that is the reference, not part of the sentence.
  const isAutolink = children.length === 1 && children[0]!.type === 'text' && sameUrl(children[0]!.value, url);
  const visible = plain(children).trim();
  const source: DocumentSource = sourceFromReference(visible && !isAutolink ? `${visible} ${url}` : url, [url]);
  source.url = url;
  if (title) source.title = title;
  else if (visible && !isAutolink) source.title = visible;
  return (isAutolink ? '' : text) + ctx.table.add(source, 'link');
}

function sameUrl(text: string, url: string): boolean {
  const t = text.trim();
  return t === url || `http://${t}` === url || `https://${t}` === url || `mailto:${t}` === url;
}

function footnoteSource(def: FootnoteDefinition): DocumentSource {
  const links: string[] = [];
  visit(def, (n) => void (n.type === 'link' && links.push(n.url)));
  return sourceFromReference(plain(def.children), links);
}

/** Entries of a numbered references section: an ordered list, or paragraphs/lines labelled "[n]" / "n.". */
function readReferenceList(nodes: readonly RootContent[], out: Map<number, DocumentSource>): void {
  for (const node of nodes) {
    if (node.type === 'list') {
      node.children.forEach((item, i) => {
        const links: string[] = [];
        visit(item, (n) => void (n.type === 'link' && links.push(n.url)));
        const text = plain(item.children);
        const labelled = entryNumber(text);
        const n = labelled ? labelled.n : node.ordered ? (node.start ?? 1) + i : i + 1;
        if (!out.has(n)) out.set(n, sourceFromReference(labelled ? labelled.rest : text, links));
      });
    } else if (node.type === 'paragraph') {
      // "[1] Smith ..." lines: one paragraph, split at its line breaks; links go with their line.
      let lineText = '';
      let lineLinks: string[] = [];
      const flush = () => {
        const e = entryNumber(lineText);
        if (e && !out.has(e.n)) out.set(e.n, sourceFromReference(e.rest, lineLinks));
        lineText = '';
        lineLinks = [];
      };
      const walk = (n: Nodes) => {
        if (n.type === 'text') {
          const pieces = n.value.split('\n');
          pieces.forEach((p, i) => {
            if (i > 0) flush();
            lineText += p;
          });
        } else if (n.type === 'break') flush();
        else if (n.type === 'link') {
          lineLinks.push(n.url);
          lineText += plain(n.children);
        } else if ('children' in n) for (const c of n.children) walk(c as Nodes);
        else if ('value' in n && typeof n.value === 'string') lineText += n.value;
      };
      node.children.forEach((c) => walk(c));
      flush();
    }
  }
}

function skipHeadingLinks(h: Heading, table: CitationTable): void {
  visit(h, (n) => {
    if (n.type === 'link') table.skip('in a heading', { raw: n.url, url: n.url });
    if (n.type === 'footnoteReference') table.skip('in a heading', { raw: `[^${n.identifier}]` });
  });
}

/** Plain text of inline content (for titles, headings, reference entries). */
function plain(nodes: readonly Nodes[]): string {
  let out = '';
  for (const n of nodes) {
    if (n.type === 'footnoteReference' || n.type === 'image' || n.type === 'html') continue;
    if ('value' in n && typeof n.value === 'string') out += n.value;
    else if (n.type === 'break') out += ' ';
    else if ('children' in n) out += (n.type === 'paragraph' || n.type === 'listItem' ? ' ' : '') + plain(n.children as Nodes[]);
  }
  return out.replace(/\s+/g, ' ').trim();
}

function visit(node: Nodes, fn: (n: Nodes) => void): void {
  fn(node);
  if ('children' in node) for (const c of node.children as Nodes[]) visit(c, fn);
}
