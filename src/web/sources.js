// A source as the audit shows it: its sentences in document order, evidence sentences coloured by the
// highlighting rule (evidence-role.js: supports / contradicts / neutral from support and contradiction
// probabilities, else relevant / not relevant from the sentence's score), claim words marked inside.
import { h, fmtScore, probability } from './dom.js';
import { claimTerms, evidenceRole, legendEntry, legendFor, splitTerms } from './evidence-role.js';

/** Only http(s) links: a URL from an article's wikitext could be "javascript:". */
export function safeLink(url, text) {
  if (typeof url === 'string' && /^https?:\/\//i.test(url)) return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, text);
  return h('span', {}, text);
}

/** The role of an evidence sentence from what the API gives: support/contradict when present, else its score as relevance. */
export function roleOfSentence(s) {
  return evidenceRole({ support: probability(s.support), contradict: probability(s.contradict), relevance: probability(s.score) });
}

/** One evidence sentence: a span coloured by `role` (plain when undefined), claim words in <mark>; `relevance`: the threshold of the relevance roles (0.5 unless given). */
export function evidenceSpan(text, terms, role, note, relevance) {
  const e = role ? legendEntry(role, relevance) : undefined;
  const title = [e ? `${e.symbol} ${e.label}: ${e.description}` : '', note || ''].filter(Boolean).join(' · ');
  return h(
    'span',
    { class: role ? `ev ev-${role}` : 'ev', 'data-role': role, title: title || undefined },
    splitTerms(text, terms).map((s) => (s.term ? h('mark', {}, s.text) : s.text)),
  );
}

/** The legend for the roles shown (nothing when no sentence has a role); `relevance` as for evidenceSpan. */
export function roleLegend(roles, relevance) {
  const entries = legendFor(roles, relevance);
  if (!entries.length) return null;
  return h(
    'div',
    { class: 'legend', role: 'note', 'aria-label': 'Evidence highlighting' },
    entries.map((e) => h('span', { class: 'legend-item' }, h('span', { class: `ev ev-${e.role}` }, `${e.symbol} ${e.label}`), ` ${e.description}`)),
    h('span', { class: 'legend-item' }, h('mark', {}, 'word'), ' a word of the claim'),
  );
}

/** `roles`, when given, collects the role of every evidence sentence shown (for one legend per view). */
export function sentencesView(sentences, claim, roles) {
  const terms = claimTerms(claim || '');
  const p = h('p', { class: 'sentences' });
  let last = -1;
  for (const s of sentences) {
    if (last >= 0 && s.index > last + 1) p.append(h('span', { class: 'gap' }, ' … '));
    if (s.evidence) {
      const role = roleOfSentence(s);
      if (roles) roles.push(role);
      p.append(evidenceSpan(s.text, terms, role, s.score !== undefined ? `evidence score ${fmtScore(s.score)}` : 'evidence'));
    } else {
      p.append(h('span', {}, s.text));
    }
    p.append(' ');
    last = s.index;
  }
  return p;
}

/** "Found by OpenAlex search for “query”": a source found by search (`--suggest-from search`); null for an index's. */
export function foundByLine(view) {
  const f = view && view.foundBy;
  if (!f || typeof f !== 'object') return null;
  return `Found by ${f.label || f.provider || 'search'}${f.query ? ` for \u201C${f.query}\u201D` : ''}`;
}

/**
 * Whether a citation template is safe to paste (the server's rule, src/search/cite-template.ts): one
 * {{cite ...}} of " |name=value" parameters whose values hold no markup: no < > [ ] { } (so no "</ref>",
 * "<!--", "[[", "{{"), no ~~~ (a signature), no __ (__NOINDEX__), no line break; a pipe only as {{!}}; "=" and
 * "://" only in |url=. A template from an older or foreign server that fails it is not offered for pasting.
 */
export function inertTemplate(t) {
  if (typeof t !== 'string') return false;
  const m = /^\{\{cite [A-Za-z]+((?: \|[a-z0-9-]+=[^|]*)*)\}\}$/.exec(t.replace(/\{\{!\}\}/g, '\u0001'));
  if (!m) return false;
  return m[1].split(' |').slice(1).every((part) => {
    const eq = part.indexOf('=');
    const value = part.slice(eq + 1);
    return !/[<>[\]{}\r\n]|~~~|__/.test(value) && (part.slice(0, eq) === 'url' || !/=|:\/\//.test(value));
  });
}

/**
 * The server's ready citation for a suggested source ({{cite journal |doi=...}} / {{cite web |url=...}} with its
 * access date, as `veracite audit --suggest-from search` prints it) and a button that copies it.
 */
export function citationBox(template) {
  const box = h('textarea', { readonly: true, rows: 2, class: 'cite', 'aria-label': 'Ready citation for this source' });
  box.value = template;
  const copy = h('button', { type: 'button', class: 'secondary copy' }, 'Copy citation');
  copy.addEventListener('click', () => {
    const done = () => {
      copy.textContent = 'Copied';
      copy.dataset.copied = 'true';
    };
    const select = () => {
      box.focus();
      box.select();
      copy.textContent = document.execCommand && document.execCommand('copy') ? 'Copied' : 'Selected: copy it with Ctrl+C';
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(template).then(done, select);
    else select();
  });
  return h('div', { class: 'cite-box' }, box, copy);
}

/** heading: e.g. "Cited source" or "Suggestion 1"; `scoreText` shown when given. */
export function sourceCard(heading, view, scoreText, claim, roles) {
  const found = foundByLine(view);
  return h(
    'article',
    { class: 'source' },
    h('h4', {}, heading, scoreText ? h('span', { class: 'score' }, ` ${scoreText}`) : null),
    h('p', { class: 'source-title' }, view.url ? safeLink(view.url, view.title || view.url) : view.title),
    found ? h('p', { class: 'hint found-by' }, found) : null,
    // What the source names of the claim (absent without the NLI head): often why its score is low.
    view.names ? h('p', { class: 'hint coverage' }, view.names) : null,
    sentencesView(view.sentences, claim, roles),
    typeof view.template === 'string' && view.template ? (inertTemplate(view.template) ? citationBox(view.template) : h('p', { class: 'hint' }, 'The server\u2019s ready citation holds wikitext markup from its source, so it is not offered for pasting: cite this source by hand.')) : null,
  );
}
