// A source as the audit shows it: its sentences in document order, evidence sentences highlighted.
import { h, fmtScore } from './dom.js';

/** Only http(s) links: a URL from an article's wikitext could be "javascript:". */
export function safeLink(url, text) {
  if (typeof url === 'string' && /^https?:\/\//i.test(url)) return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, text);
  return h('span', {}, text);
}

export function sentencesView(sentences) {
  const p = h('p', { class: 'sentences' });
  let last = -1;
  for (const s of sentences) {
    if (last >= 0 && s.index > last + 1) p.append(h('span', { class: 'gap' }, ' … '));
    p.append(s.evidence ? h('mark', { class: 'evidence', title: s.score !== undefined ? `evidence score ${fmtScore(s.score)}` : 'evidence' }, s.text) : h('span', {}, s.text), ' ');
    last = s.index;
  }
  return p;
}

/** heading: e.g. "Cited source" or "Suggestion 1"; score shown when given. */
export function sourceCard(heading, view, score) {
  return h(
    'article',
    { class: 'source' },
    h('h4', {}, heading, score !== undefined ? h('span', { class: 'score' }, ` score ${fmtScore(score)}`) : null),
    h('p', { class: 'source-title' }, view.url ? safeLink(view.url, view.title || view.url) : view.title),
    sentencesView(view.sentences),
  );
}
