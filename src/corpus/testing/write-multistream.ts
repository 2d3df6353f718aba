/**
 * Writes a multistream dump the way Wikimedia does (tests and benchmarks): the header (everything before
 * the first `<page>`) in its own bzip2 stream, then `perStream` pages a stream, then the closing tag in a
 * stream of its own; and its index, `offset:page id:title` a line, bzip2-compressed. Needs the `bzip2`
 * program.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const bz2 = (s: string) => execFileSync('bzip2', ['-c'], { input: s, maxBuffer: 1 << 30 });

/** Splits export XML into its header, its `<page>` elements (with their indentation) and its tail. */
export function splitExport(xml: string): { head: string; pages: string[]; tail: string } {
  const first = xml.indexOf('  <page>');
  const end = xml.lastIndexOf('</mediawiki>');
  const pages = xml.slice(first, end).split(/(?=  <page>)/);
  return { head: xml.slice(0, first), pages, tail: xml.slice(end) };
}

export function writeMultistream(dump: string, index: string, xml: string, perStream: number): { streams: number; pages: number } {
  const { head, pages, tail } = splitExport(xml);
  const parts: Buffer[] = [bz2(head)];
  const lines: string[] = [];
  let offset = parts[0]!.length;
  for (let i = 0; i < pages.length; i += perStream) {
    const group = pages.slice(i, i + perStream);
    for (const p of group) lines.push(`${offset}:${/<id>(\d+)<\/id>/.exec(p)?.[1] ?? 0}:${/<title>([^<]*)<\/title>/.exec(p)?.[1] ?? ''}`);
    const part = bz2(group.join(''));
    parts.push(part);
    offset += part.length;
  }
  parts.push(bz2(tail));
  writeFileSync(dump, Buffer.concat(parts));
  writeFileSync(index, bz2(lines.join('\n') + '\n'));
  return { streams: parts.length, pages: pages.length };
}
