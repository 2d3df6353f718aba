/**
 * The audit as a worklist (issue 31): the citations flagged as likely failing verification, in article
 * order, as CSV (one row per citation, for a spreadsheet) and as a wikitext list (the claim and the
 * {{failed verification}} tag to put after it, once an editor has read the source and agrees).
 *
 * Citations are numbered as everywhere else: their number in the article, from 1. The web page builds the
 * same two files from the API's citation views (src/web/todo.js; web-logic.test.ts checks they agree).
 */
import { inertText } from '../util/inert-wikitext.js';
import { citationBand, decisionOf } from './bands.js';
import type { AuditReport, CitationAudit } from './types.js';

/** One flagged citation as the worklist gives it. */
export interface TodoItem {
  /** The citation's number in the article, from 1. */
  number: number;
  section: string;
  claim: string;
  /** The probability of support (or the score the flag is decided on, without a calibration). */
  score?: number;
  band: string;
  reason: string;
  sourceTitle: string;
  sourceUrl: string;
  /** The best better-supporting source the audit suggests, if any. */
  suggestion: string;
  /** The one decision proposes a {{failed verification}} tag (verify/decision.ts: only where tags are precise); else "needs review" without one. */
  tag: boolean;
}

export const TODO_COLUMNS = ['citation', 'section', 'claim', 'probability of support', 'band', 'why', 'cited source', 'cited URL', 'suggested source', 'done'] as const;

/** The flagged citations of a report, in article order. */
export function todoItems(report: Pick<AuditReport, 'citations'>): TodoItem[] {
  return report.citations
    .filter((c) => c.verification?.flagged)
    .sort((a, b) => a.index - b.index)
    .map((c) => todoItem(c));
}

function todoItem(c: CitationAudit): TodoItem {
  const band = c.band ?? citationBand(c);
  const best = c.recommendations?.suggestions[0];
  const v = c.verification!;
  return {
    number: c.index + 1,
    section: c.sectionPath.length ? c.sectionPath.join(' › ') : 'lead',
    claim: c.claim,
    ...(v.probability !== undefined ? { score: v.probability } : {}),
    band: band.label,
    reason: band.reason,
    sourceTitle: c.source.title ?? c.source.pageTitle ?? '',
    sourceUrl: c.source.url ?? c.source.archiveUrl ?? '',
    suggestion: best ? (best.url ?? best.title ?? best.docId) : '',
    tag: !!(c.decision ?? decisionOf(v)).tag,
  };
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; a leading = + - @ is defused for spreadsheets. */
export function csvField(x: string | number | undefined): string {
  let s = x === undefined ? '' : typeof x === 'number' ? x.toFixed(3) : x;
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The worklist as CSV, with a header row; lines end in CRLF (RFC 4180). */
export function todoCsv(items: readonly TodoItem[]): string {
  const rows = [TODO_COLUMNS as readonly string[], ...items.map((i) => [`#${i.number}`, i.section, i.claim, i.score, i.band, i.reason, i.sourceTitle, i.sourceUrl, i.suggestion, ''])];
  return rows.map((r) => r.map((f) => csvField(f)).join(',')).join('\r\n') + '\r\n';
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A template parameter's value, inert in wikitext (util/inert-wikitext.ts): the reason may quote the source. */
function templateValue(s: string): string {
  return inertText(s);
}

/** Text in a wikitext list item, shown as written (no links, templates or markup from the claim). */
function nowiki(s: string): string {
  const t = s.replace(/\s+/g, ' ').replace(/<\/?nowiki\s*>/gi, '');
  // Also behaviour switches (__NOTOC__) and bare URLs, which MediaWiki turns into live links.
  return /[[\]{}<>'|=~&]|^[*#:;]|__|:\/\//.test(t) ? `<nowiki>${t}</nowiki>` : t;
}

/**
 * The worklist as wikitext: one list item per flagged citation, with its claim and the tag to add after the
 * claim's reference once the source has been read. `date` dates the tags (the audit's date).
 */
export function todoWikitext(items: readonly TodoItem[], opts: { title: string; date: Date }): string {
  const month = `${MONTHS[opts.date.getUTCMonth()]} ${opts.date.getUTCFullYear()}`;
  const tagged = items.filter((i) => i.tag).length;
  const head = `<!-- veracite audit of "${opts.title.replace(/-(?=[-!>])/g, '\u2010')}", ${opts.date.toISOString().slice(0, 10)}: ${items.length} citation${items.length === 1 ? '' : 's'} likely failing verification, ${tagged} with a proposed tag (the others: needs review, no tag; tags are proposed only where they were right at least 80% of the time). Read each source before tagging; the audit can be wrong. -->`;
  const lines = items.map((i) => {
    const reason = templateValue(`veracite: ${i.reason}`);
    return i.tag ? `* #${i.number} (${nowiki(i.section)}): ${nowiki(i.claim)}{{failed verification|date=${month}|reason=${reason}}}` : `* #${i.number} (${nowiki(i.section)}): ${nowiki(i.claim)} (needs review: ${nowiki(i.reason)}${/no tag proposed/.test(i.reason) ? '' : '; no tag proposed'})`;
  });
  return [head, ...lines].join('\n') + '\n';
}
