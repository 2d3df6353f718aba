/**
 * Reference lists and what a reference points to. A "References" section (or "Sources", "Bibliography",
 * "Works cited", "Notes", "Footnotes", "Citations") is back matter, not prose: its entries are the sources
 * that numbered markers ("[3]") point to. An entry's source is its first web link, plus the DOI / arXiv /
 * PubMed ids written in it; an entry with neither is kept (its citation is then reported unverifiable).
 */
import { LinkifyIt } from 'linkify-it';
import { workIdsOf } from '../sources/work-ids.js';
import type { DocumentSource } from './types.js';

const REFERENCE_HEADING = /^(?:\d+(?:\.\d+)*\.?\s+)?(references?|sources|bibliography|works cited|literature cited|citations|notes|footnotes|notes and references|references and notes|endnotes)\s*:?$/i;
/** Back matter that lists links without backing any sentence: neither prose nor references. */
const OTHER_BACK_MATTER = /^(?:\d+(?:\.\d+)*\.?\s+)?(further reading|see also|external links|links|related (?:posts|articles|reading)|about the author)\s*:?$/i;

export type BackMatter = 'references' | 'other' | undefined;

export function backMatterOf(heading: string): BackMatter {
  const h = heading.replace(/\s+/g, ' ').trim();
  if (REFERENCE_HEADING.test(h)) return 'references';
  if (OTHER_BACK_MATTER.test(h)) return 'other';
  return undefined;
}

const linkify = new LinkifyIt({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });

/** http(s) URLs written in plain text, with offsets (linkify-it: balanced brackets, trailing punctuation). */
export function findUrls(text: string): { url: string; start: number; end: number }[] {
  return (linkify.match(text) ?? []).filter((m) => /^https?:$/i.test(m.schema)).map((m) => ({ url: m.url, start: m.index, end: m.lastIndex }));
}

/** The label that numbers a reference entry: "[3] Smith...", "3. Smith...", "3) Smith...". */
const ENTRY_LABEL = /^\s*(?:\[(\d{1,4})\]|(\d{1,4})[.)])\s+/;

export function entryNumber(text: string): { n: number; rest: string } | undefined {
  const m = ENTRY_LABEL.exec(text);
  return m ? { n: Number(m[1] ?? m[2]), rest: text.slice(m[0].length) } : undefined;
}

/**
 * Plain lines of a references block -> numbered entries. A line that starts with a label opens an entry;
 * other lines continue the open one (a wrapped reference).
 */
export function numberedEntries(lines: readonly string[]): Map<number, string> {
  const out = new Map<number, string>();
  let current: number | undefined;
  for (const line of lines) {
    if (!line.trim()) continue;
    const e = entryNumber(line);
    if (e) {
      current = e.n;
      out.set(e.n, e.rest.trim());
    } else if (current !== undefined) out.set(current, `${out.get(current)!} ${line.trim()}`);
  }
  return out;
}

/** A reference's text (and the links found in it by the format's parser) -> the source to look up. */
export function sourceFromReference(raw: string, links: readonly string[] = []): DocumentSource {
  const text = raw.replace(/\s+/g, ' ').trim();
  const urls = [...links.filter((u) => /^https?:\/\//i.test(u)), ...findUrls(text).map((u) => u.url)];
  const source: DocumentSource = { raw: text };
  if (urls[0]) source.url = urls[0];
  const ids = workIdsOf(text, urls);
  if (ids) source.ids = ids;
  const title = titleOf(text);
  if (title) source.title = title;
  return source;
}

/** The quoted title of a reference ("…" or “…”), the usual style for articles and pages. */
function titleOf(text: string): string | undefined {
  const m = /[“"]([^”"]{3,300})[”"]/.exec(text);
  return m ? m[1]!.replace(/[.,]$/, '').trim() : undefined;
}

/** "[1, 3–5]" -> [1, 3, 4, 5]; ranges longer than 20 are not citation ranges and give []. */
export function expandNumbers(label: string): number[] {
  const out: number[] = [];
  for (const part of label.split(/\s*,\s*/)) {
    const range = /^(\d+)\s*[-–]\s*(\d+)$/.exec(part);
    if (range) {
      const a = Number(range[1]);
      const b = Number(range[2]);
      if (b < a || b - a > 20) return [];
      for (let n = a; n <= b; n++) out.push(n);
    } else if (/^\d+$/.test(part)) out.push(Number(part));
    else return [];
  }
  return out;
}

/** "[3]", "[1, 2]", "[4–6]" written in text. */
export const NUMBERED_MARKER = /\[(\d{1,4}(?:\s*[-–,]\s*\d{1,4})*)\]/g;
