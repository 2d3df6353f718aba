// "Audit an article": submit wikitext / HTML / URL, follow the job's events (EventSource) with a progress
// bar, keep the citation table sorted least verifiable first, and show a citation's cited source next to
// the suggested ones.
import { postJson } from './api.js';
import { clear, fmtScore, h, judgedBy, showError } from './dom.js';
import { scoreChart } from './score-chart.js';
import { roleLegend, safeLink, sourceCard } from './sources.js';
import { citationNumber, fileStem, todoCsv, todoItems, todoWikitext } from './todo.js';

const el = (id) => document.getElementById(id);
let current = null; // { id, events: EventSource, results: Map, total, job }

/** Least verifiable first; citations whose source could not be read (no score) after the scored ones. */
export function byVerifiability(a, b) {
  const x = a.verifiability ?? Infinity;
  const y = b.verifiability ?? Infinity;
  return x - y || a.index - b.index;
}

/**
 * The one plain-language line of a citation (as the HTML report's plainLine, src/audit/report-html.ts):
 * what its band means for an editor; "likely fails verification" is said here and only here.
 */
export function plainLine(r) {
  if (r.language && !r.language.scoredAnyway) return `Could not check (language): ${r.language.problem}.`;
  if (r.verifiability === null || r.band === 'could-not-check') return `Could not check: ${r.sourceReason || `source ${r.sourceStatus}`}.`;
  if (r.failedVerification && (r.band === 'not-supported' || r.scoreSignal !== 'probability')) return 'Likely fails verification: the cited source does not appear to support this claim.';
  if (r.failedVerification) return 'Needs review: flagged as likely failing verification, though the probability of support says otherwise.';
  const contradicted = /contradict/.test(r.bandReason || '');
  switch (r.band) {
    case 'supported':
      return 'The cited source supports this claim.';
    case 'partly-supported':
      return 'The cited source supports part of this claim; check the rest.';
    case 'not-supported':
      return contradicted ? 'The cited source appears to contradict this claim.' : 'The cited source does not appear to support this claim.';
    case 'needs-review':
      return contradicted ? 'Needs review: the source appears to contradict this claim, but the signals conflict.' : 'Too close to call: read the source.';
    default:
      return '';
  }
}

function setProgress(done, total) {
  const bar = el('audit-progress');
  bar.setAttribute('max', String(Math.max(total, 1)));
  bar.setAttribute('value', String(done));
  el('audit-progress-text').textContent = total ? `${done} / ${total} citations` : 'reading the article…';
}

function statusText(job) {
  const a = job.article;
  const what = a ? `${a.title || 'Untitled'}: ${a.citations} citations` : 'Article';
  const state = { queued: 'queued', running: 'auditing…', done: 'done', failed: `failed: ${job.error || ''}`, interrupted: `interrupted: ${job.error || ''}` }[job.status];
  return `${what} · ${state}${job.resumedFrom ? ' (resumed)' : ''}${job.provenance ? ` · ${judgedBy(job.provenance)}` : ''}`;
}

function sourceCell(r) {
  const s = r.source || {};
  const label = s.title || s.url || (s.raw || '').slice(0, 80) || 'source';
  return h('td', {}, s.url ? safeLink(s.url, label) : label, r.sourceStatus !== 'found' ? h('span', { class: 'badge muted', title: r.sourceReason || '' }, r.sourceStatus) : null);
}

/** The plain band (src/audit/bands.ts) as a badge: green only for "supported". */
/** The five bands' badge class and words (src/audit/bands.ts BAND_LABELS): the one label of a citation, on every page. */
export const BAND_BADGE = { supported: ['ok', 'supported'], 'partly-supported': ['part', 'partly supported'], 'needs-review': ['part', 'needs review'], 'not-supported': ['warn', 'not supported'], 'could-not-check': ['muted', 'could not check'] };

export function bandBadge(r) {
  const band = r.band || (r.verifiability === null ? 'could-not-check' : undefined);
  if (!band) return null;
  const [cls, label] = BAND_BADGE[band] || ['muted', band];
  return h('span', { class: `badge ${cls}`, 'data-band': band, title: r.bandReason || r.howToCheck || '' }, label);
}

/** One number and the band: the plain line says the rest (in the detail and the row's tooltip). */
function scoreCell(r) {
  if (r.verifiability === null) return h('td', { class: 'num', title: plainLine(r) }, bandBadge(r));
  return h('td', { class: 'num', title: plainLine(r) }, fmtScore(r.verifiability), bandBadge(r));
}

/** A citation that could not be checked: what to do, and the way to check it here (the source's text or file). */
function howToCheckHere(r) {
  if (r.band !== 'could-not-check' && r.verifiability !== null) return null;
  const go = h('a', { href: '#/source', class: 'button-link' }, 'Check this claim against the source\'s text or a file');
  go.addEventListener('click', () => {
    el('source-claim').value = r.claim;
  });
  return h('p', { class: 'hint todo' }, `To check it: ${r.howToCheck || 'give the source\'s text'}. `, go);
}

/** What the scores are (each result says: the calibrated probability of support, or the raw signal the flags use). */
function scaleOf(results) {
  if (results.length && results.every((r) => r.scoreSignal === 'probability')) return 'probability that the cited source supports the claim (0..1)';
  if (results.some((r) => r.scoreSignal === 'ranker')) return 'source-ranker score (higher = better supported)';
  if (results.some((r) => r.scoreSignal === 'support')) return 'NLI probability of support (0..1)';
  return 'verification score (higher = better supported)';
}

/** The flag threshold on the scale the results are on (the job's provenance). */
function thresholdOf(job, results) {
  const f = job && job.provenance && job.provenance.flagging;
  const probability = results.length > 0 && results.every((r) => r.scoreSignal === 'probability');
  const t = f && (probability ? f.probabilityThreshold : f.threshold);
  return typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

function renderChart() {
  const results = [...current.results.values()].filter((r) => r.verifiability !== null && r.verifiability !== undefined);
  const box = el('score-chart');
  const threshold = thresholdOf(current.job, results);
  const svg = scoreChart(results.map((r) => ({ score: r.verifiability, flagged: !!r.failedVerification })), { threshold, scale: scaleOf(results) });
  box.hidden = !svg;
  if (!svg) return;
  clear(box).append(
    svg,
    h('figcaption', { class: 'hint' }, flaggedCaption(results, threshold)),
  );
}

function renderTable() {
  const rows = [...current.results.values()].sort(byVerifiability).map((r) =>
    h(
      'tr',
      { 'data-citation': r.citationId, 'data-score': r.verifiability ?? '', class: r.failedVerification ? 'flagged' : '' },
      h('td', { class: 'num' }, `#${citationNumber(r)}`),
      h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => renderDetail(r) }, r.claim.length > 160 ? `${r.claim.slice(0, 157)}…` : r.claim)),
      sourceCell(r),
      scoreCell(r),
      h('td', {}, r.suggestions.length ? `${r.suggestions.length}: ${r.suggestions[0].title}` : '—'),
    ),
  );
  const all = [...current.results.values()];
  el('citation-table').tHead.rows[0].cells[3].textContent = all.length && all.every((r) => r.scoreSignal === 'probability' || r.verifiability === null) ? 'Probability of support' : 'Score';
  clear(el('citation-table').tBodies[0]).append(...rows);
  renderChart();
  renderTodo();
}

/** What the red bars are, counted from the results shown (src/report/charts.ts flaggedCaption says the same). */
export function flaggedCaption(results, threshold) {
  const flagged = results.filter((r) => r.failedVerification && r.verifiability !== null && r.verifiability !== undefined);
  if (threshold === undefined) return `Red: ${flagged.length} citations the audit flagged as likely failing verification (the server did not report its threshold).`;
  const above = flagged.filter((r) => r.verifiability > threshold).length;
  const below = flagged.length - above;
  return `Red: ${below} flagged at or below ${fmtScore(threshold)}${above ? `, ${above} above it: the source states otherwise, or the model reads a contradiction (needs review)` : ''}.`;
}

/** Download links for the flagged citations as a worklist (CSV, wikitext with {{failed verification}} tags). */
function renderTodo() {
  const box = el('audit-todo');
  const items = todoItems([...current.results.values()]);
  for (const a of box.querySelectorAll('a[href^="blob:"]')) URL.revokeObjectURL(a.href);
  box.hidden = items.length === 0;
  if (!items.length) return clear(box);
  const title = (current.job && current.job.article && current.job.article.title) || 'audit';
  const stem = fileStem(title);
  const file = (name, type, text, label) => h('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name, class: 'download' }, label);
  clear(box).append(
    `To-do list of the ${items.length} flagged citation${items.length === 1 ? '' : 's'}: `,
    file(`${stem}-todo.csv`, 'text/csv', todoCsv(items), 'CSV'),
    ' · ',
    file(`${stem}-todo.txt`, 'text/plain', todoWikitext(items, { title, date: new Date() }), 'wikitext with {{failed verification}} tags'),
  );
}

function renderDetail(r) {
  const box = el('citation-detail');
  const roles = [];
  const left = r.existing
    ? sourceCard('Cited source', r.existing, r.verifiability !== null ? `${r.scoreSignal === 'probability' ? 'P(supports)' : 'score'} ${fmtScore(r.verifiability)}` : undefined, r.claim, roles)
    : h('article', { class: 'source' }, h('h4', {}, 'Cited source'), h('p', { class: 'hint' }, `Could not be read (${r.sourceStatus}). ${r.sourceReason || ''}`), howToCheckHere(r));
  const right = r.suggestions.length
    ? h('div', { class: 'suggestions' }, r.suggestions.map((s, i) => sourceCard(`Suggestion ${i + 1}`, s, `${r.scoreSignal === 'probability' ? 'P(supports)' : 'score'} ${fmtScore(s.score)}`, r.claim, roles)))
    : h('article', { class: 'source' }, h('h4', {}, 'Suggestions'), h('p', { class: 'hint' }, r.noBetterSource ? `${r.noBetterSource.charAt(0).toUpperCase()}${r.noBetterSource.slice(1)}.` : 'No indexed document scores above the cited source.'));
  // Element.append writes null as the text "null": only real nodes go in.
  // One number and one line in words; the diagnostics behind "details".
  const number = r.verifiability !== null ? h('span', { class: 'headline' }, `${r.scoreSignal === 'probability' ? 'Probability of support' : 'Score'} `, h('b', {}, fmtScore(r.verifiability))) : null;
  const diag = [
    r.bandReason ? `Why this band: ${r.bandReason}.` : null,
    r.failedVerification ? 'Flagged as likely failing verification (at or below the flag threshold).' : null,
    `Source: ${r.sourceStatus}${r.sourceReason ? ` (${r.sourceReason})` : ''}.`,
    r.scoreSignal && r.scoreSignal !== 'probability' ? `The score is the ${r.scoreSignal} signal the flags use (no calibrated probability).` : null,
    r.coverage ? r.coverage.text : null,
    typeof r.ms === 'number' ? `Audited in ${r.ms} ms.` : null,
  ].filter(Boolean);
  const sides = h('div', { class: 'side-by-side' }, left, right);
  const parts = [
    h('h3', {}, `#${citationNumber(r)}`, r.sectionPath.length ? h('span', { class: 'meta' }, ` · ${r.sectionPath.join(' › ')}`) : null),
    r.resolvedClaim ? h('p', { class: 'hint' }, `Read as: “${r.resolvedClaim}”`) : null,
    h('blockquote', { class: 'claim' }, r.claim),
    h('p', { class: 'verdict-line', 'data-band': r.band || '' }, bandBadge(r), number, h('span', { class: 'plain' }, plainLine(r))),
    h('details', { class: 'diag' }, h('summary', {}, 'details'), h('ul', {}, diag.map((d) => h('li', {}, d))), r.context.length ? h('p', { class: 'hint' }, `Context: ${r.context.join(' ')}`) : null),
    sides,
    // Better sources from search: a provider that failed is named (nothing better found is not "none exists").
    r.searchFailures && r.searchFailures.length ? h('p', { class: 'hint search-failed' }, `Searching for a better source: ${r.searchFailures.join('; ')}`) : null,
  ];
  const legend = roleLegend(roles);
  if (legend) parts.splice(parts.indexOf(sides), 0, legend);
  clear(box).append(...parts.filter(Boolean));
  box.hidden = false;
  box.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

function onJob(job) {
  current.job = job;
  current.total = job.total;
  el('audit-summary').textContent = statusText(job);
  setProgress(current.results.size, job.total);
  renderChart();
}

export function showJob(id) {
  if (current && current.id === id) return;
  if (current) current.events.close();
  current = { id, results: new Map(), total: 0, job: null, events: new EventSource(`/v1/audits/${id}/events`) };
  el('audit-run').hidden = false;
  el('citation-detail').hidden = true;
  el('score-chart').hidden = true;
  el('audit-compare-link').href = `#/compare/${id}`;
  clear(el('citation-table').tBodies[0]);
  clear(el('audit-todo')).hidden = true;
  setProgress(0, 0);
  const es = current.events;
  const mine = current;
  es.addEventListener('status', (e) => onJob(JSON.parse(e.data)));
  es.addEventListener('citation', (e) => {
    const d = JSON.parse(e.data);
    mine.results.set(d.result.citationId, d.result);
    mine.total = d.total;
    setProgress(mine.results.size, d.total);
    renderTable();
  });
  es.addEventListener('done', (e) => {
    es.close();
    onJob(JSON.parse(e.data));
    el('audit-run').dataset.status = mine.job.status;
  });
  es.addEventListener('shutdown', () => {
    es.close();
    el('audit-summary').textContent = 'The server is shutting down: this job will be interrupted. Submit the same article again to resume it.';
  });
  es.onerror = () => {
    // EventSource reconnects by itself (the server replays from Last-Event-ID); say so while it does.
    if (es.readyState === EventSource.CONNECTING) el('audit-progress-text').textContent += ' (reconnecting…)';
  };
}

function updateKind() {
  const kind = document.querySelector('input[name="kind"]:checked').value;
  const isUrl = kind === 'url';
  el('audit-text').hidden = isUrl;
  el('audit-text-label').hidden = isUrl;
  el('audit-text-label').textContent = kind === 'html' ? 'HTML' : 'Wikitext';
  el('audit-url').hidden = !isUrl;
  el('audit-url-label').hidden = !isUrl;
  el('audit-file').hidden = isUrl;
  el('audit-file-label').hidden = isUrl;
}

/** A saved article file as the form reads it: HTML by its name or type, else wikitext; the title from the name. */
export function articleFromFile(name, type) {
  const html = /\.html?$/i.test(name) || /html/.test(type || '');
  const title = name.replace(/\.[^.]+$/, '').replace(/_/g, ' ').trim();
  return { kind: html ? 'html' : 'wikitext', title };
}

/** The chosen file goes into the text box (the server takes the text, as when pasted), with its kind and title. */
async function onFile() {
  const file = el('audit-file').files[0];
  if (!file) return;
  const { kind, title } = articleFromFile(file.name, file.type);
  el('audit-text').value = await file.text();
  const radio = document.querySelector(`input[name="kind"][value="${kind}"]`);
  if (radio) radio.checked = true;
  if (!el('audit-title').value.trim() && title) el('audit-title').value = title;
  updateKind();
}

export function initAudit(health) {
  const fetchOn = !!(health && health.fetch);
  el('kind-url').disabled = !fetchOn;
  el('url-hint').hidden = fetchOn;
  for (const r of document.querySelectorAll('input[name="kind"]')) r.addEventListener('change', updateKind);
  el('audit-file').addEventListener('change', () => void onFile());
  updateKind();
  el('audit-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    showError(el('audit-error'), null);
    const kind = document.querySelector('input[name="kind"]:checked').value;
    const body = kind === 'url' ? { url: el('audit-url').value.trim() } : { [kind]: el('audit-text').value };
    // Said here, in the page's words, rather than sent for the API's validation message.
    const empty = kind === 'url' ? !body.url : !body[kind].trim();
    if (empty) {
      showError(el('audit-error'), new Error(kind === 'url' ? 'Enter the article\'s URL first.' : `Paste the article's ${kind === 'html' ? 'HTML' : 'wikitext'} into the box first.`));
      el(kind === 'url' ? 'audit-url' : 'audit-text').focus();
      return;
    }
    const title = el('audit-title').value.trim();
    if (title) body.title = title;
    el('audit-submit').disabled = true;
    try {
      const job = await postJson('/v1/audits', body);
      location.hash = `#/audit/${job.id}`;
    } catch (e) {
      showError(el('audit-error'), e);
    } finally {
      el('audit-submit').disabled = false;
    }
  });
}
