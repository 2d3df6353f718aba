/**
 * An article read from wikitext (src/wiki parseWikitext) -> a page in MediaWiki's rendered markup, for the
 * wiki gadget to run on: `h1#firstHeading`, the prose in `#mw-content-text .mw-parser-output` with footnote
 * markers `<sup class="reference"><a href="#cite_note-NAME-N">[N]</a></sup>` where the refs stood, and the
 * reference list `ol.references` with one `<li id="cite_note-...">` per cited work (a reused named ref shares
 * its note and number, as MediaWiki numbers them). The prose is the parser's plain text (links and
 * emphasis are not kept), so the page reads as the audit reads the article; a banner above the title (kept
 * in view when the page scrolls) says what the page is, so a screenshot of it cannot pass for a real wiki's.
 *
 * Used by scripts/gadget-screenshot.ts on the shipped sample (data/samples/audit); test/sample-wiki-page.test.ts
 * checks that the server's HTML reader finds the same citations, claims and sources in it.
 */
import type { Article, Citation, CitationSource } from '../src/wiki/index.js';

export interface WikiPageOptions {
  /** The line above the title saying what this page is and where it comes from. */
  banner: string;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** MediaWiki's note ids keep a ref name's characters but spaces, which become underscores. */
const anchor = (name: string): string => name.trim().replace(/\s+/g, '_');

interface Note {
  id: string;
  number: number;
  name?: string;
  source: CitationSource;
  /** The ids of the markers pointing at this note, in reading order (the back links). */
  refs: string[];
}

/** One note per cited work: named refs by name, every unnamed ref its own, numbered by first use. */
function notesOf(citations: readonly Citation[]): Map<Citation, Note> {
  const byName = new Map<string, Note>();
  const out = new Map<Citation, Note>();
  let number = 0;
  for (const c of [...citations].sort((a, b) => a.index - b.index)) {
    const name = c.source.name;
    let note = name ? byName.get(name) : undefined;
    if (!note) {
      number++;
      note = { id: name ? `cite_note-${anchor(name)}-${number}` : `cite_note-${number}`, number, source: c.source, refs: [], ...(name ? { name } : {}) };
      if (name) byName.set(name, note);
    }
    note.refs.push(note.name ? `cite_ref-${anchor(note.name)}_${note.number}-${note.refs.length}` : `cite_ref-${note.number}`);
    out.set(c, note);
  }
  return out;
}

function footnote(note: Note, refId: string): string {
  return `<sup id="${esc(refId)}" class="reference"><a href="#${esc(note.id)}"><span class="cite-bracket">[</span>${note.number}<span class="cite-bracket">]</span></a></sup>`;
}

/** A reference list entry as {{cite journal}} / {{cite web}} / {{cite book}} render it (CS1). */
function referenceItem(note: Note): string {
  const s = note.source;
  const back =
    note.refs.length === 1
      ? `<span class="mw-cite-backlink"><b><a href="#${esc(note.refs[0]!)}">^</a></b></span>`
      : `<span class="mw-cite-backlink">^ ${note.refs.map((r, i) => `<a href="#${esc(r)}"><sup><i><b>${String.fromCharCode(97 + i)}</b></i></sup></a>`).join(' ')}</span>`;
  const title = s.title ?? s.url ?? 'Untitled';
  const kind = s.url ? (s.ids?.doi || s.ids?.pmid || /semanticscholar|doi\.org|pubmed/i.test(s.url) ? 'journal' : 'web') : 'book';
  const head = s.url ? `<a rel="nofollow" class="external text" href="${esc(s.url)}">"${esc(title)}"</a>` : `<i>${esc(title)}</i>`;
  const rest = [s.work ? `<i>${esc(s.work)}</i>` : '', s.publisher ? esc(s.publisher) : '', s.date ? esc(s.date) : ''].filter(Boolean);
  // The COinS span MediaWiki puts after each CS1 citation: the same metadata, machine-readable.
  const coins = new URLSearchParams({ ctx_ver: 'Z39.88-2004', [kind === 'book' ? 'rft.btitle' : 'rft.atitle']: title });
  if (s.work) coins.set('rft.jtitle', s.work);
  if (s.url) coins.set('rft_id', s.url);
  return `<li id="${esc(note.id)}">${back} <span class="reference-text"><cite class="citation ${kind} cs1">${[head, ...rest].join('. ')}.</cite><span title="${esc(coins.toString())}" class="Z3988"></span></span></li>`;
}

/** One paragraph of the article's text [start, end) with its footnote markers put back where they stood. */
function paragraphHtml(article: Article, start: number, end: number, at: Map<number, string[]>): string {
  const lines: { from: number; to: number }[] = [];
  let from = start;
  for (let i = start; i <= end; i++) {
    if (i === end || article.text[i] === '\n') {
      lines.push({ from, to: i });
      from = i + 1;
    }
  }
  const render = (a: number, b: number): string => {
    let html = '';
    let last = a;
    for (let i = a; i <= b; i++) {
      const marks = at.get(i);
      if (!marks) continue;
      html += esc(article.text.slice(last, i)) + marks.join('');
      last = i;
    }
    return html + esc(article.text.slice(last, b));
  };
  const [first, ...items] = lines;
  const prose = first && first.to > first.from ? `<p>${render(first.from, first.to)}</p>\n` : '';
  // The parser writes a paragraph's list items on the lines after its prose.
  const list = items.length ? `<ul>\n${items.map((l) => `<li>${render(l.from, l.to).replace(/^\s*\*\s*/, '')}</li>`).join('\n')}\n</ul>\n` : '';
  return prose + list;
}

export function renderWikiPage(article: Article, o: WikiPageOptions): string {
  const notes = notesOf(article.citations);
  const at = new Map<number, string[]>();
  const used = new Map<Note, number>();
  for (const c of [...article.citations].sort((a, b) => a.index - b.index)) {
    const note = notes.get(c)!;
    const k = used.get(note) ?? 0;
    used.set(note, k + 1);
    const list = at.get(c.claimPrefixEnd) ?? [];
    list.push(footnote(note, note.refs[k]!));
    at.set(c.claimPrefixEnd, list);
  }

  let body = '';
  const referencesAt = article.sections.findIndex((s) => /^(references|notes|footnotes)$/i.test(s.path.at(-1) ?? ''));
  article.sections.forEach((section, i) => {
    if (section.path.length) {
      const level = Math.min(6, section.path.length + 1);
      body += `<div class="mw-heading mw-heading${level}"><h${level}>${esc(section.path.at(-1)!)}</h${level}></div>\n`;
    }
    let start = section.start;
    for (let j = section.start; j <= section.end; j++) {
      const breakHere = j === section.end || (article.text[j] === '\n' && article.text[j + 1] === '\n');
      if (!breakHere) continue;
      if (j > start) body += paragraphHtml(article, start, j, at);
      start = j + 2;
      j++;
    }
    if (i === referencesAt) body += referenceList(notes);
  });
  if (referencesAt < 0) body += `<div class="mw-heading mw-heading2"><h2>References</h2></div>\n${referenceList(notes)}`;

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(article.title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<div class="page">
<p class="banner">${esc(o.banner)}</p>
<h1 id="firstHeading">${esc(article.title)}</h1>
<div id="mw-content-text"><div class="mw-parser-output">
${body}</div></div>
</div>
</body>
</html>
`;
}

function referenceList(notes: Map<Citation, Note>): string {
  const unique = [...new Set(notes.values())].sort((a, b) => a.number - b.number);
  return `<div class="mw-references-wrap"><ol class="references">\n${unique.map(referenceItem).join('\n')}\n</ol></div>\n`;
}

/** A plain reading page in the manner of a wiki's default skin (no images, no fonts to load). */
const PAGE_CSS = `
body{margin:0;background:#f8f9fa;color:#202122;font:15px/1.6 sans-serif}
.page{max-width:880px;margin:0 auto;padding:12px 24px 40px;background:#fff;min-height:100vh}
.banner{position:sticky;top:0;z-index:1;margin:0 0 8px;padding:4px 8px;background:#eaf3ff;border:1px solid #a3d3ff;font-size:13px;color:#202122}
h1{font:28px/1.3 Georgia,'Linux Libertine','Times New Roman',serif;margin:12px 0 4px;padding-bottom:4px;border-bottom:1px solid #a2a9b1}
h2{font:22px/1.3 Georgia,'Linux Libertine','Times New Roman',serif;margin:20px 0 6px;padding-bottom:2px;border-bottom:1px solid #a2a9b1}
h3{font-size:17px;margin:16px 0 4px}
p{margin:6px 0 10px}
a{color:#36c;text-decoration:none}
sup.reference{font-size:75%;line-height:1;white-space:nowrap}
ol.references{font-size:90%}
`;
