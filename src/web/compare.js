// Blind comparison (SIDE's demo): the claim and two sources as A and B in random order, the existing one
// and the audit's top suggestion, unlabelled; the choice is stored by the server (POST /v1/annotations).
import { getJson, postJson } from './api.js';
import { clear, h } from './dom.js';
import { sentencesView } from './sources.js';

const el = (id) => document.getElementById(id);
let pair = null;
let jobId = null;

function side(name, view) {
  return [h('h4', {}, `Source ${name}`), h('p', { class: 'source-title' }, view.title), sentencesView(view.sentences)];
}

async function loadNext() {
  const status = el('compare-status');
  const box = el('compare-box');
  status.textContent = 'Loading…';
  try {
    pair = await getJson(`/v1/comparisons/next${jobId ? `?job=${encodeURIComponent(jobId)}` : ''}`);
  } catch (e) {
    pair = null;
    box.hidden = true;
    status.textContent = e.message;
    return;
  }
  if (!pair) {
    box.hidden = true;
    status.textContent = 'Nothing left to compare. Audit an article first: pairs come from citations whose source was read and for which the audit found a better-scoring document.';
    return;
  }
  el('compare-claim').textContent = pair.claim;
  el('compare-context').textContent = pair.context.join(' ');
  el('compare-context-box').hidden = pair.context.length === 0;
  clear(el('side-a')).append(...side('A', pair.a));
  clear(el('side-b')).append(...side('B', pair.b));
  el('compare-remaining').textContent = `${pair.remaining} pair${pair.remaining === 1 ? '' : 's'} to compare, this one included.`;
  box.hidden = false;
  status.textContent = '';
}

async function choose(choice) {
  if (!pair) return;
  const buttons = document.querySelectorAll('#compare-box [data-choice]');
  for (const b of buttons) b.disabled = true;
  try {
    await postJson('/v1/annotations', { pairId: pair.pairId, choice });
    await loadNext();
    el('compare-status').textContent = `Saved: ${choice === 'neither' ? 'neither' : choice}. ${el('compare-status').textContent}`;
  } catch (e) {
    el('compare-status').textContent = `Not saved: ${e.message}`;
  } finally {
    for (const b of buttons) b.disabled = false;
  }
}

export function initCompare() {
  for (const b of document.querySelectorAll('#compare-box [data-choice]')) b.addEventListener('click', () => choose(b.dataset.choice));
}

export function showCompare(job) {
  jobId = job || null;
  return loadNext();
}
