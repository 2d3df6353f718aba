// "Audit an article": submit wikitext / HTML / URL, follow the job's events (EventSource) with a progress
// bar, keep the citation table sorted least verifiable first, and show a citation's cited source next to
// the suggested ones.
import { postJson } from './api.js';
import { clear, fmtScore, h, judgedBy, showError } from './dom.js';
import { scoreChart } from './score-chart.js';
import { roleLegend, safeLink, sourceCard } from './sources.js';

const el = (id) => document.getElementById(id);
let current = null; // { id, events: EventSource, results: Map, total, job }

/** Least verifiable first; citations whose source could not be read (no score) after the scored ones. */
export function byVerifiability(a, b) {
  const x = a.verifiability ?? Infinity;
  const y = b.verifiability ?? Infinity;
  return x - y || a.index - b.index;
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
const BAND_BADGE = { supported: ['ok', 'supported'], 'partly-supported': ['part', 'partly supported'], 'needs-review': ['part', 'needs review'], 'not-supported': ['warn', 'not supported'], 'could-not-check': ['muted', 'could not check'] };

export function bandBadge(r) {
  const band = r.band || (r.verifiability === null ? 'could-not-check' : undefined);
  if (!band) return null;
  const [cls, label] = BAND_BADGE[band] || ['muted', band];
  return h('span', { class: `badge ${cls}`, 'data-band': band, title: r.bandReason || r.howToCheck || '' }, label);
}

function scoreCell(r) {
  if (r.verifiability === null) return h('td', { class: 'num' }, bandBadge(r));
  return h('td', { class: 'num' }, fmtScore(r.verifiability), bandBadge(r), r.failedVerification && r.band !== 'not-supported' ? h('span', { class: 'badge warn' }, 'failed verification') : null);
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
    h('figcaption', { class: 'hint' }, threshold !== undefined ? `Citations scoring at or below ${fmtScore(threshold)} are flagged as likely failing verification.` : 'Red: citations the audit flagged as likely failing verification (the server did not report its threshold).'),
  );
}

function renderTable() {
  const rows = [...current.results.values()].sort(byVerifiability).map((r) =>
    h(
      'tr',
      { 'data-citation': r.citationId, 'data-score': r.verifiability ?? '', class: r.failedVerification ? 'flagged' : '' },
      h('td', { class: 'num' }, String(r.index + 1)),
      h('td', {}, h('button', { type: 'button', class: 'link', onclick: () => renderDetail(r) }, r.claim.length > 160 ? `${r.claim.slice(0, 157)}…` : r.claim)),
      sourceCell(r),
      scoreCell(r),
      h('td', {}, r.suggestions.length ? `${r.suggestions.length}: ${r.suggestions[0].title}` : '—'),
    ),
  );
  clear(el('citation-table').tBodies[0]).append(...rows);
  renderChart();
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
  const parts = [
    h('h3', {}, `Citation ${r.index + 1}`, r.sectionPath.length ? h('span', { class: 'meta' }, ` · ${r.sectionPath.join(' › ')}`) : null),
    r.resolvedClaim ? h('p', { class: 'hint' }, `Read as: “${r.resolvedClaim}”`) : null,
    h('blockquote', { class: 'claim' }, r.claim),
    r.context.length ? h('details', {}, h('summary', {}, 'Context'), h('p', {}, r.context.join(' '))) : null,
    h('div', { class: 'side-by-side' }, left, right),
  ];
  const legend = roleLegend(roles);
  if (legend) parts.splice(2, 0, legend);
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
}

export function initAudit(health) {
  const fetchOn = !!(health && health.fetch);
  el('kind-url').disabled = !fetchOn;
  el('url-hint').hidden = fetchOn;
  for (const r of document.querySelectorAll('input[name="kind"]')) r.addEventListener('change', updateKind);
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
