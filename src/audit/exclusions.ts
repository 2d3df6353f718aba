/**
 * Candidates a recommendation must never offer: the article itself (an index built from Wikipedia holds
 * it, and it trivially "supports" its own sentences) and the source already cited (suggesting it would
 * be no suggestion at all).
 */
import { normalizeUrl } from '../store/url.js';

export interface ExclusionContext {
  articleTitle: string;
  /** The existing source's URLs (cited, archive, archived original), any form. */
  existingUrls: readonly string[];
  /** The index id of the existing source, when it was found there. */
  existingDocId?: string;
  /**
   * The existing source's text (its sentences joined), when it was read: the same page may sit in the
   * index under another id and no URL (a saved copy from --sources, a corpus without URLs), and it must
   * not come back as its own "better source".
   */
  existingText?: string;
}

/** Letters and digits only, lower case: copies of one text that differ in spacing or punctuation compare equal. */
function textKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Shortest text compared: below this two different pages ("Home", a cookie notice) could be equal by chance. */
const MIN_SAME_TEXT = 200;

/** True when one text contains the other whole (a saved page vs. the indexed record of the same page, which may add its title). */
export function sameText(a: string, b: string): boolean {
  const x = textKey(a);
  const y = textKey(b);
  if (Math.min(x.length, y.length) < MIN_SAME_TEXT) return false;
  return x.length <= y.length ? y.includes(x) : x.includes(y);
}

export function normalTitle(title: string): string {
  return title
    .replace(/_/g, ' ')
    .replace(/\s+[-–—|]\s+Wikipedia(,.*)?$/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The article title a Wikipedia URL points at ("https://en.m.wikipedia.org/wiki/Bodmin#History" -> "bodmin"). */
export function wikipediaTitleOf(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`);
  } catch {
    return undefined;
  }
  if (!/(^|\.)wikipedia\.org$/i.test(u.hostname)) return undefined;
  let raw: string | undefined;
  if (u.pathname.startsWith('/wiki/')) raw = u.pathname.slice('/wiki/'.length);
  else raw = u.searchParams.get('title') ?? undefined;
  if (!raw) return undefined;
  try {
    raw = decodeURIComponent(raw);
  } catch {
    /* keep as written */
  }
  return normalTitle(raw);
}

/** Why `doc` must not be suggested, or undefined when it may be. */
export function exclusionReason(doc: { id: string; title: string; url?: string; sentences?: readonly string[] }, ctx: ExclusionContext): string | undefined {
  const article = normalTitle(ctx.articleTitle);
  if (ctx.existingDocId !== undefined && doc.id === ctx.existingDocId) return 'existing source';
  if (ctx.existingText !== undefined && doc.sentences && sameText(ctx.existingText, doc.sentences.join(' '))) return 'existing source (same text)';
  if (doc.url) {
    const n = normalizeUrl(doc.url);
    if (ctx.existingUrls.some((u) => normalizeUrl(u) === n)) return 'existing source';
    if (article && wikipediaTitleOf(doc.url) === article) return 'the article itself';
  }
  if (article && normalTitle(doc.title) === article) return 'the article itself';
  return undefined;
}
