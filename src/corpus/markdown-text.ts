/**
 * Markdown -> title and plain text, enough for sentence splitting: headings, list items and table rows
 * become their own paragraphs, link and emphasis syntax is removed (link targets are kept as links), code
 * blocks and front matter are dropped (not prose). Not a full CommonMark parser, on purpose.
 */

export interface MarkdownText {
  /** The first heading, if any. */
  title?: string;
  text: string;
  links: string[];
}

const FENCE = /^\s{0,3}(```|~~~)/;
const ATX = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const SETEXT = /^\s{0,3}(=+|-+)\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

export function markdownToText(markdown: string): MarkdownText {
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, '').split(/\r?\n/);
  const out: string[] = [];
  const links: string[] = [];
  let title: string | undefined;
  const heading = (t: string) => {
    const h = inline(t, links);
    title ??= h;
    out.push('', h, '');
  };
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.indexOf('---', 1); // YAML front matter
    if (end > 0) i = end + 1;
  }
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      const fence = FENCE.exec(line)![1]!;
      while (i + 1 < lines.length && !lines[i + 1]!.trimStart().startsWith(fence)) i++;
      i++;
      out.push('');
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      heading(atx[1]!);
      continue;
    }
    const next = lines[i + 1];
    if (line.trim() && next !== undefined && SETEXT.test(next) && !LIST_ITEM.test(line)) {
      heading(line.trim());
      i++;
      continue;
    }
    if (RULE.test(line) || TABLE_SEPARATOR.test(line)) {
      out.push('');
      continue;
    }
    let t = line.replace(/^\s*(>\s?)+/, ''); // block quotes
    if (LIST_ITEM.test(t)) {
      out.push('');
      t = t.replace(LIST_ITEM, '');
    } else if (t.trimStart().startsWith('|')) {
      out.push('');
      t = t.replace(/\|/g, ' ');
    }
    out.push(inline(t, links));
  }
  const text = out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  const result: MarkdownText = { text, links: [...new Set(links)] };
  if (title) result.title = title;
  return result;
}

function inline(s: string, links: string[]): string {
  return s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: keep the alt text
    .replace(/\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g, (_m, text: string, href: string) => {
      if (/^https?:\/\//i.test(href)) links.push(href);
      return text;
    })
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1') // reference links
    .replace(/<(https?:\/\/[^>\s]+)>/g, (_m, href: string) => {
      links.push(href);
      return href;
    })
    .replace(/<\/?[a-zA-Z][^>]*>/g, '') // inline HTML tags
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_]*?\S)[*_](?![\w*])/g, '$1$2')
    .trimEnd();
}
