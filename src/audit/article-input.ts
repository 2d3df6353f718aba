/**
 * `veracite audit <article>` input: a wikitext file, a rendered Wikipedia HTML page, a KILT/WAFER JSONL
 * file (one citation per record), or a URL (only with --fetch; read through the same SSRF-guarded fetch
 * as sources). Everything becomes an AuditInput: a title and the citations to check.
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { fetchPage, type FetchPolicy } from '../sources/http-fetch.js';
import { SettingsError } from '../util/settings-error.js';
import { assertText } from '../util/not-text.js';
import { parseWikipediaHtml, parseWikitext, readKiltWafer, type Article } from '../wiki/index.js';
import type { AuditCitation, AuditInput } from './types.js';
import type { ArticleContent } from '../documents/content-types.js';

export interface ArticleInputOptions {
  title?: string;
  /** Needed for a URL: live fetching is opt-in. */
  fetch?: boolean;
  fetchPolicy?: FetchPolicy;
  contextSentences?: number;
  /** Read at most this many citations (wikitext stops parsing there; ParseOptions.maxCitations). */
  maxCitations?: number;
  /** Reads a fetched article within the parse budgets (documents/document-reader.ts); default: on this thread. */
  reader?: { article(a: ArticleContent): Promise<AuditInput> };
}

export function isUrl(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

/** "Bodmin.txt" / "Clint-Murchison-Sr..txt" -> "Bodmin" / "Clint Murchison Sr."; for wikitext, which has no title of its own. */
export function titleFromFileName(path: string): string {
  return basename(path, extname(path)).replace(/[_]+/g, ' ').replace(/-(?=\S)/g, ' ').trim();
}

export function fromArticle(a: Article, origin: string, format: AuditInput['format']): AuditInput {
  return { title: a.title, origin, format, citations: a.citations, skippedRefs: a.skipped.length, uncitedClaims: a.uncitedClaims.length };
}

export async function loadArticleInput(input: string, opts: ArticleInputOptions = {}): Promise<AuditInput> {
  const parseOpts = { ...(opts.contextSentences !== undefined ? { contextSentences: opts.contextSentences } : {}), ...(opts.maxCitations !== undefined ? { maxCitations: opts.maxCitations } : {}) };
  if (isUrl(input)) {
    if (!opts.fetch) throw new SettingsError('sources.fetch', `${input} is a URL and live fetching is off (the default): turn it on to read the article`);
    const res = await fetchPage(input, opts.fetchPolicy);
    if (!res.ok) throw new Error(`cannot read ${input}: ${res.status} (${res.reason})`);
    const title = opts.title ?? wikiTitleFromUrl(res.finalUrl) ?? '';
    if (opts.reader) return opts.reader.article({ kind: res.kind === 'html' ? 'wikipedia-html' : 'wikipedia-wikitext', content: res.body, origin: input, title, ...parseOpts });
    const article = res.kind === 'html' ? parseWikipediaHtml(res.body, { title, ...parseOpts }) : parseWikitext(res.body, { title, ...parseOpts });
    return fromArticle(article, input, res.kind === 'html' ? 'html' : 'wikitext');
  }
  const lower = input.toLowerCase();
  if (/\.jsonl(\.gz)?$/.test(lower) || lower.endsWith('.json')) {
    const items = await readKiltWafer(input);
    const citations: AuditCitation[] = items.map((it, index) => ({
      id: it.id,
      index,
      claim: it.claim,
      claimPrefix: it.claimPrefix,
      context: it.context,
      sectionPath: it.sectionPath,
      articleTitle: opts.title ?? it.articleTitle,
      source: it.source,
      tags: it.tags,
    }));
    const titles = [...new Set(citations.map((c) => c.articleTitle).filter(Boolean))];
    return { title: opts.title ?? (titles.length === 1 ? titles[0]! : titles.length ? `${titles.length} articles` : basename(input)), origin: input, format: 'kilt', citations, skippedRefs: 0, uncitedClaims: 0 };
  }
  const bytes = await readFile(input);
  assertText(bytes, input);
  const text = bytes.toString('utf8');
  if (/\.x?html?$/.test(lower) || /^\s*(<!doctype html|<html)/i.test(text)) {
    const article = parseWikipediaHtml(text, { ...(opts.title ? { title: opts.title } : {}), ...parseOpts });
    return fromArticle(article, input, 'html');
  }
  return fromArticle(parseWikitext(text, { title: opts.title ?? titleFromFileName(input), ...parseOpts }), input, 'wikitext');
}

export function wikiTitleFromUrl(url: string): string | undefined {
  const m = /\/wiki\/([^?#]+)/.exec(url);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!).replace(/_/g, ' ');
  } catch {
    return m[1]!.replace(/_/g, ' ');
  }
}
