// The audit's flagged citations as a worklist, built in the page from the API's citation views: the same
// CSV and wikitext as `veracite audit --todo / --todo-wikitext` (src/audit/todo.ts; web-logic.test.ts
// checks that the two agree). Citations are numbered as in the article, from 1.

const BAND_LABELS = { supported: 'supported', 'partly-supported': 'partly supported', 'needs-review': 'needs review', 'not-supported': 'not supported', 'could-not-check': 'could not check' };

export const TODO_COLUMNS = ['citation', 'section', 'claim', 'probability of support', 'band', 'why', 'cited source', 'cited URL', 'suggested source', 'done'];

/** The citation's number in the article (views saved before `number` existed have only the 0-based index). */
export function citationNumber(r) {
  return typeof r.number === 'number' ? r.number : r.index + 1;
}

/** The flagged citations among the views, in article order. */
export function todoItems(views) {
  return views
    .filter((r) => r.failedVerification)
    .sort((a, b) => citationNumber(a) - citationNumber(b))
    .map((r) => {
      const best = r.suggestions && r.suggestions[0];
      const s = r.source || {};
      const item = {
        number: citationNumber(r),
        section: r.sectionPath && r.sectionPath.length ? r.sectionPath.join(' › ') : 'lead',
        claim: r.claim,
        band: BAND_LABELS[r.band] || r.band || '',
        reason: r.bandReason || '',
        sourceTitle: s.title || '',
        sourceUrl: s.url || s.archiveUrl || '',
        suggestion: best ? best.url || best.title || best.docId || '' : '',
        // The one decision's proposed tag (src/verify/decision.ts, issue 36): without it, needs review, no template.
        tag: !!(r.decision && r.decision.tag),
      };
      if (r.scoreSignal === 'probability' && typeof r.verifiability === 'number') item.score = r.verifiability;
      return item;
    });
}

export function csvField(x) {
  let s = x === undefined ? '' : typeof x === 'number' ? x.toFixed(3) : x;
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function todoCsv(items) {
  const rows = [TODO_COLUMNS, ...items.map((i) => [`#${i.number}`, i.section, i.claim, i.score, i.band, i.reason, i.sourceTitle, i.sourceUrl, i.suggestion, ''])];
  return rows.map((r) => r.map((f) => csvField(f)).join(',')).join('\r\n') + '\r\n';
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

// A template parameter's value, inert in wikitext (the server's rule, src/util/inert-wikitext.ts): the reason
// may quote the source. Character references survive a paste and are decoded only when the page is rendered.
const REFERENCES = { '<': '&lt;', '>': '&gt;', '[': '&#91;', ']': '&#93;', '{': '&#123;', '}': '&#125;', '=': '&#61;' };
export function templateValue(s) {
  return s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;')
    .replace(/[<>[\]{}=]/g, (c) => REFERENCES[c])
    .replace(/~{3,}/g, (m) => '&#126;'.repeat(m.length))
    .replace(/_(?=_)/g, '&#95;')
    .replace(/:\/\//g, '&#58;//')
    .replace(/\|/g, '{{!}}');
}

function nowiki(s) {
  const t = s.replace(/\s+/g, ' ').replace(/<\/?nowiki\s*>/gi, '');
  // Also behaviour switches (__NOTOC__) and bare URLs, which MediaWiki turns into live links.
  return /[[\]{}<>'|=~&]|^[*#:;]|__|:\/\//.test(t) ? `<nowiki>${t}</nowiki>` : t;
}

export function todoWikitext(items, opts) {
  const month = `${MONTHS[opts.date.getUTCMonth()]} ${opts.date.getUTCFullYear()}`;
  const tagged = items.filter((i) => i.tag).length;
  const head = `<!-- veracite audit of "${opts.title.replace(/-(?=[-!>])/g, '\u2010')}", ${opts.date.toISOString().slice(0, 10)}: ${items.length} citation${items.length === 1 ? '' : 's'} likely failing verification, ${tagged} with a proposed tag (the others: needs review, no tag; tags are proposed only where they were right at least 80% of the time). Read each source before tagging; the audit can be wrong. -->`;
  const lines = items.map((i) =>
    i.tag
      ? `* #${i.number} (${nowiki(i.section)}): ${nowiki(i.claim)}{{failed verification|date=${month}|reason=${templateValue(`veracite: ${i.reason}`)}}}`
      : `* #${i.number} (${nowiki(i.section)}): ${nowiki(i.claim)} (needs review: ${nowiki(i.reason)}${/no tag proposed/.test(i.reason) ? '' : '; no tag proposed'})`,
  );
  return [head, ...lines].join('\n') + '\n';
}

/** A file name from an article title. */
export function fileStem(title) {
  return (title || '').replace(/[^\p{L}\p{N}_-]+/gu, '_').replace(/^_+|_+$/g, '').slice(0, 80) || 'audit';
}
