// "Check a claim": POST /v1/verify, then the verdict, its confidence and the evidence, highlighted.
import { postJson } from './api.js';
import { clear, fmtScore, h, showError } from './dom.js';

const LABEL_CLASS = { SUPPORTS: 'supports', REFUTES: 'refutes', 'NOT ENOUGH INFO': 'nei' };

function entailmentOf(e) {
  if (!e.entailment) return null;
  const [name, p] = Object.entries(e.entailment).sort((a, b) => b[1] - a[1])[0];
  return `${name} ${fmtScore(p)}`;
}

function renderVerdict(v) {
  const byDoc = new Map();
  for (const e of v.evidence) {
    if (!byDoc.has(e.docId)) byDoc.set(e.docId, { title: e.title, items: [] });
    byDoc.get(e.docId).items.push(e);
  }
  const docs = [...byDoc.values()].map((d) =>
    h(
      'article',
      { class: 'source' },
      h('h4', {}, d.title),
      h('ul', { class: 'evidence-list' }, d.items.map((e) => h('li', {}, h('mark', { class: 'evidence' }, e.text), h('span', { class: 'meta' }, ` sentence ${e.sentenceIndex}, score ${fmtScore(e.score)}`, entailmentOf(e) ? `, ${entailmentOf(e)}` : '')))),
    ),
  );
  const pct = Math.round(v.confidence * 100);
  return h(
    'div',
    { class: 'verdict-box' },
    h(
      'p',
      { class: 'verdict' },
      h('span', { class: `label ${LABEL_CLASS[v.label] || ''}`, id: 'verdict-label' }, v.label),
      h('span', { class: 'confidence' }, ` confidence ${fmtScore(v.confidence)}`),
      h('meter', { min: 0, max: 1, value: v.confidence, title: `${pct}%` }),
    ),
    h('h3', {}, v.evidence.length ? 'Evidence' : 'No evidence found'),
    h('div', { class: 'evidence-docs' }, docs),
    h('p', { class: 'provenance' }, `index ${v.provenance.snapshot} · models ${v.provenance.models.map((m) => m.id).join(', ')} · ${Math.round(v.timings.totalMs)} ms`),
  );
}

export function initClaim() {
  const form = document.getElementById('claim-form');
  const input = document.getElementById('claim-input');
  const out = document.getElementById('claim-result');
  const err = document.getElementById('claim-error');
  const button = document.getElementById('claim-submit');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    showError(err, null);
    button.disabled = true;
    clear(out).append(h('p', { class: 'hint' }, 'Checking…'));
    try {
      clear(out).append(renderVerdict(await postJson('/v1/verify', { claim: input.value })));
    } catch (e) {
      clear(out);
      showError(err, e);
    } finally {
      button.disabled = false;
    }
  });
}
