/**
 * Builds the small Wikimedia dump fixtures in data/samples/wikimedia/ (issue 38) from the wikitext in
 * ../shared/data/wikitext (CC BY-SA, see the README written beside them):
 *
 *   node --import tsx scripts/build-wiki-fixtures.ts [--shared ../shared/data/wikitext]
 *
 * - enwiki-sample-pages-articles-multistream.xml.bz2 (+ -index.txt.bz2): export-0.11 schema, written as
 *   Wikimedia writes the multistream form (siteinfo in its own bzip2 stream, then a stream per 2 pages, then
 *   the closing tag), with the offset:page id:title index;
 * - enwiki-sample-cirrussearch-content.json.gz: the CirrusSearch bulk form of the same articles, prose
 *   from the project's own wikitext parser (Cirrus ships rendered text);
 * - enwiki-sample-adds-changes.xml.gz + enwiki-sample-deletions.txt: a later day's changes (one page
 *   edited, with two revisions, one new page, one page turned into a redirect, one redirect retargeted to
 *   the new page) and a page deleted;
 * - enwiki-sample-later-pages-articles.xml.bz2: a complete later dump (two pages gone).
 * Needs the `bzip2` program (Debian: bzip2); node:zlib writes the gzip files.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { parseWikitext } from '../src/wiki/parse-wikitext.js';

const { values } = parseArgs({ options: { shared: { type: 'string', default: '../shared/data/wikitext' }, out: { type: 'string', default: 'data/samples/wikimedia' } } });
const SHARED = values.shared!;
const OUT = values.out!;

interface Page {
  id: number;
  title: string;
  ns?: number;
  revisions: { id: number; timestamp: string; text: string }[];
  redirect?: string;
}

const read = (name: string) => readFileSync(join(SHARED, name), 'utf8').trim();
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const rev = (id: number, day: string, text: string) => ({ id, timestamp: `${day}T12:00:00Z`, text });

const DISAMBIGUATION = `'''Atlas''' may refer to:\n\n* [[Atlas (mythology)]], a Titan in Greek mythology\n* [[Atlas (anatomy)]], the first cervical vertebra\n* [[The Atlas (newspaper)]], a British weekly newspaper\n\n{{disambiguation}}`;
const MILSTEAD = read('Charlie-Milstead.txt');
const MILSTEAD_EDIT = `${MILSTEAD}\n\n==Later life==\nMilstead later coached high school football in East Texas, where his teams won two district titles.`;

const base: Page[] = [
  { id: 1001, title: 'Charlie Milstead', revisions: [rev(9001, '2024-01-01', MILSTEAD)] },
  { id: 1002, title: 'Goryeo ware', revisions: [rev(9002, '2024-01-01', read('Goryeo-ware.txt'))] },
  { id: 1003, title: 'Alexander Y Type', revisions: [rev(9003, '2024-01-01', read('Alexander-Y-Type.txt'))] },
  { id: 1004, title: 'The Atlas (newspaper)', revisions: [rev(9004, '2024-01-01', read('The-Atlas-(newspaper).txt'))] },
  { id: 1005, title: 'Toronto, Ontario', redirect: 'Toronto', revisions: [rev(9005, '2024-01-01', read('redirect.txt'))] },
  { id: 1006, title: 'Atlas', revisions: [rev(9006, '2024-01-01', DISAMBIGUATION)] },
  { id: 1007, title: 'Talk:Goryeo ware', ns: 1, revisions: [rev(9007, '2024-01-01', 'Is the glaze section sourced? ~~~~')] },
  // Redirects the index records as title aliases: one to an article of the dump, one to a page it lacks.
  { id: 1009, title: 'Goryeo celadon', redirect: 'Goryeo ware', revisions: [rev(9013, '2024-01-01', '#REDIRECT [[Goryeo ware]]\n\n{{R from alternative name}}')] },
  { id: 1010, title: 'Etaples canton', redirect: 'Étaples', revisions: [rev(9014, '2024-01-01', '#REDIRECT [[Étaples]]')] },
];
const etaples: Page = { id: 1008, title: 'Canton of Étaples', revisions: [rev(9010, '2024-01-02', read('Canton-of-Etaples.txt'))] };
const changes: Page[] = [
  // Edited twice that day: a history (adds-changes) file carries both revisions, oldest first.
  { id: 1001, title: 'Charlie Milstead', revisions: [rev(9008, '2024-01-02', MILSTEAD.replace('former', 'retired')), rev(9009, '2024-01-02', MILSTEAD_EDIT)] },
  etaples,
  { id: 1003, title: 'Alexander Y Type', redirect: 'Alexander Y-type', revisions: [rev(9011, '2024-01-02', '#REDIRECT [[Alexander Y-type]]')] },
  // Retargeted to the new article.
  { id: 1010, title: 'Etaples canton', redirect: 'Canton of Étaples', revisions: [rev(9012, '2024-01-02', '#REDIRECT [[Canton of Étaples]]')] },
];
const later: Page[] = [changes[0]!, base[1]!, etaples, base[4]!, base[5]!, base[6]!, base[7]!, changes[3]!].map((p) => ({ ...p, revisions: [p.revisions[p.revisions.length - 1]!] }));

function siteinfo(): string {
  const ns = [[-2, 'Media'], [-1, 'Special'], [0, ''], [1, 'Talk'], [2, 'User'], [4, 'Wikipedia'], [6, 'File'], [10, 'Template'], [14, 'Category']] as const;
  return `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.11/ http://www.mediawiki.org/xml/export-0.11.xsd" version="0.11" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>enwiki</dbname>
    <base>https://en.wikipedia.org/wiki/Main_Page</base>
    <generator>MediaWiki 1.43.0-wmf.1</generator>
    <case>first-letter</case>
    <namespaces>
${ns.map(([k, n]) => (n ? `      <namespace key="${k}" case="first-letter">${n}</namespace>` : `      <namespace key="${k}" case="first-letter" />`)).join('\n')}
    </namespaces>
  </siteinfo>
`;
}

function pageXml(p: Page): string {
  const revisions = p.revisions.map((r, i) => `    <revision>
      <id>${r.id}</id>
${i > 0 ? `      <parentid>${p.revisions[i - 1]!.id}</parentid>\n` : ''}      <timestamp>${r.timestamp}</timestamp>
      <contributor>
        <username>Example</username>
        <id>1</id>
      </contributor>
      <comment>fixture</comment>
      <origin>${r.id}</origin>
      <model>wikitext</model>
      <format>text/x-wiki</format>
      <text bytes="${Buffer.byteLength(r.text)}" sha1="" xml:space="preserve">${esc(r.text)}</text>
      <sha1 />
    </revision>`).join('\n');
  return `  <page>
    <title>${esc(p.title)}</title>
    <ns>${p.ns ?? 0}</ns>
    <id>${p.id}</id>
${p.redirect ? `    <redirect title="${esc(p.redirect)}" />\n` : ''}${revisions}
  </page>
`;
}

const bz2 = (s: string | Buffer) => execFileSync('bzip2', ['-9', '-c'], { input: s });

/** The multistream form: each part its own bzip2 stream, concatenated; the index gives each page's stream offset. */
function writeMultistream(name: string, pages: Page[]): void {
  const parts: Buffer[] = [bz2(siteinfo())];
  const index: string[] = [];
  let offset = parts[0]!.length;
  for (let i = 0; i < pages.length; i += 2) {
    const group = pages.slice(i, i + 2);
    for (const p of group) index.push(`${offset}:${p.id}:${p.title}`);
    const part = bz2(group.map(pageXml).join(''));
    parts.push(part);
    offset += part.length;
  }
  parts.push(bz2('</mediawiki>\n'));
  writeFileSync(join(OUT, `${name}-multistream.xml.bz2`), Buffer.concat(parts));
  writeFileSync(join(OUT, `${name}-multistream-index.txt.bz2`), bz2(index.join('\n') + '\n'));
}

const xml = (pages: Page[]) => siteinfo() + pages.map(pageXml).join('') + '</mediawiki>\n';

function cirrus(pages: Page[]): string {
  const lines: string[] = [];
  for (const p of pages) {
    if ((p.ns ?? 0) !== 0 || p.redirect) continue; // the content dump holds articles only
    const text = p.revisions[p.revisions.length - 1]!.text;
    const article = parseWikitext(text, { title: p.title });
    const templates = [...new Set([...text.matchAll(/\{\{\s*([^|{}\n]+?)\s*(?:\||\}\})/g)].map((m) => `Template:${m[1]!.charAt(0).toUpperCase()}${m[1]!.slice(1)}`))];
    const links = [...new Set([...text.matchAll(/\[\[([^\]|#:]+)(?:\|[^\]]*)?\]\]/g)].map((m) => m[1]!.trim().replace(/ /g, '_')))];
    const redirects = base.filter((r) => r.redirect === p.title).map((r) => ({ namespace: 0, title: r.title }));
    lines.push(JSON.stringify({ index: { _type: '_doc', _id: String(p.id) } }));
    lines.push(JSON.stringify({
      version: p.revisions[p.revisions.length - 1]!.id, wiki: 'enwiki', namespace: 0, namespace_text: '', title: p.title, timestamp: p.revisions[p.revisions.length - 1]!.timestamp,
      category: [], template: templates, text: article.text.replace(/\s+/g, ' ').trim(), opening_text: article.text.split('\n\n')[0] ?? '', redirect: redirects,
      outgoing_link: links, language: 'en', page_id: p.id, text_bytes: Buffer.byteLength(text),
    }));
  }
  return lines.join('\n') + '\n';
}

writeMultistream('enwiki-sample-pages-articles', base);
writeFileSync(join(OUT, 'enwiki-sample-cirrussearch-content.json.gz'), gzipSync(cirrus(base), { level: 9 }));
writeFileSync(join(OUT, 'enwiki-sample-adds-changes.xml.gz'), gzipSync(xml(changes), { level: 9 }));
writeFileSync(join(OUT, 'enwiki-sample-deletions.txt'), '# pages deleted since the base dump (titles, one a line)\nThe Atlas (newspaper)\n');
writeFileSync(join(OUT, 'enwiki-sample-later-pages-articles.xml.bz2'), bz2(xml(later)));
console.log(`wrote fixtures to ${OUT}`);
