// Blind comparison (SIDE's demo): the claim and two sources as A and B in random order, the existing one
// and the audit's top suggestion, unlabelled; the choice is stored by the server (POST /v1/annotations).
//
// Keys: A / B (that side supports it better), N (neither), S (skip: another pair), U (undo the last
// choice). Undo without an API to retract annotations: a choice is held in the page for HOLD_MS (or
// until the next choice, or until the page is hidden) before it is sent, and U takes it back. The
// server's stored annotations stay final and append-only; the held pair is passed to
// /v1/comparisons/next as `skip` so it does not come back meanwhile. A server without `skip` (older
// route) gets each choice at once, and skip / undo are switched off with a note.
import { getJson, postJson } from './api.js';
import { clear, h } from './dom.js';
import { roleLegend, sentencesView } from './sources.js';

const el = (id) => document.getElementById(id);
export const HOLD_MS = 6000;

const state = {
  jobId: null,
  pair: null,
  /** { pair, choice, timer } held for undo. */
  held: null,
  /** Pair ids skipped in this session (they come back when the list is reset). */
  skipped: [],
  /** Whether the server's /v1/comparisons/next takes `skip`. */
  canSkip: false,
  busy: false,
};

function choiceText(choice) {
  return choice === 'neither' ? 'neither supports it' : `${choice} supports it better`;
}

function side(name, view, claim, roles) {
  return [h('h4', {}, `Source ${name}`), h('p', { class: 'source-title' }, view.title), sentencesView(view.sentences, claim, roles)];
}

function setStatus(text) {
  el('compare-status').textContent = text;
}

function updateButtons() {
  const undo = el('compare-undo');
  undo.disabled = !state.held;
  undo.title = state.held ? `Take back "${choiceText(state.held.choice)}" (U)` : 'Nothing to undo';
  el('compare-skip').disabled = !state.canSkip || !state.pair;
  el('compare-skip').title = state.canSkip ? 'Show another pair, come back to this one later (S)' : 'This server cannot skip pairs yet';
  for (const b of document.querySelectorAll('#compare-box [data-choice]')) b.disabled = state.busy || !state.pair;
}

function query() {
  const params = new URLSearchParams();
  if (state.jobId) params.set('job', state.jobId);
  if (state.canSkip) for (const id of [...state.skipped, ...(state.held ? [state.held.pair.pairId] : [])]) params.append('skip', id);
  const qs = params.toString();
  return `/v1/comparisons/next${qs ? `?${qs}` : ''}`;
}

/** Why there is no pair: no audit yet, one still running, none with two readable sources, or all done. */
async function explainEmpty() {
  if (state.skipped.length) return `No other pair to show: you skipped ${state.skipped.length}. Press "Show skipped pairs" to go through them again.`;
  try {
    if (state.jobId) {
      const job = await getJson(`/v1/audits/${encodeURIComponent(state.jobId)}`);
      const results = job.results || [];
      const readable = results.filter((r) => r.existing && r.existing.sentences.length).length;
      const comparable = results.filter((r) => r.existing && r.existing.sentences.length && r.suggestions.length && r.suggestions[0].sentences.length).length;
      if (job.status === 'queued' || job.status === 'running') return `This audit is still running (${results.length} of ${job.total || '?'} citations done): pairs appear as citations are audited. Press "Check again" in a moment.`;
      if (comparable === 0) {
        return `This audit has no pair to compare: of its ${results.length} citation${results.length === 1 ? '' : 's'}, ${readable} had a cited source the server could read, and none of ${readable === 1 ? 'it' : 'those'} had a suggested source ranked above it. A pair needs both.`;
      }
      return `All ${comparable} pairs of this audit are compared${state.held ? ' (the last choice is still being held for undo)' : ''}. Thank you.`;
    }
    const { jobs } = await getJson('/v1/audits?limit=1');
    if (!jobs.length) return 'No audit yet: audit an article first (Audit an article), then compare its sources here.';
    return 'Nothing left to compare in the audits on this server: every pair is compared, or no citation had both a readable source and a better-ranked suggestion.';
  } catch (e) {
    return `Nothing to compare (${e.message}).`;
  }
}

async function loadNext(prefix = '') {
  const box = el('compare-box');
  setStatus(`${prefix}Loading…`);
  try {
    state.pair = await getJson(query());
  } catch (e) {
    state.pair = null;
    box.hidden = true;
    setStatus(`${prefix}${e.message}`);
    updateButtons();
    return;
  }
  el('compare-again').hidden = !!state.pair;
  el('compare-reset-skips').hidden = !(state.skipped.length && !state.pair);
  if (!state.pair) {
    box.hidden = true;
    setStatus(`${prefix}${await explainEmpty()}`);
    updateButtons();
    return;
  }
  const pair = state.pair;
  const roles = [];
  el('compare-claim').textContent = pair.claim;
  el('compare-context').textContent = pair.context.join(' ');
  el('compare-context-box').hidden = pair.context.length === 0;
  clear(el('side-a')).append(...side('A', pair.a, pair.claim, roles));
  clear(el('side-b')).append(...side('B', pair.b, pair.claim, roles));
  const legend = roleLegend(roles);
  clear(el('compare-legend')).append(...(legend ? [legend] : []));
  // The held (undoable) pair is passed as skipped too; it is not one the annotator skipped.
  const skipped = Math.max(0, (pair.skipped || 0) - (state.held ? 1 : 0));
  el('compare-remaining').textContent = `${pair.remaining} pair${pair.remaining === 1 ? '' : 's'} to compare, this one included${skipped ? ` (${skipped} skipped)` : ''}.`;
  box.hidden = false;
  setStatus(prefix.trim());
  updateButtons();
}

/** Sends a held choice now. `keepalive`: the page is going away. */
async function send(held, keepalive = false) {
  clearTimeout(held.timer);
  if (state.held === held) state.held = null;
  updateButtons();
  const body = { pairId: held.pair.pairId, choice: held.choice };
  if (keepalive) {
    fetch('/v1/annotations', { method: 'POST', keepalive: true, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return;
  }
  try {
    await postJson('/v1/annotations', body);
    el('compare-saved').textContent = `Saved: "${held.pair.claim.length > 80 ? `${held.pair.claim.slice(0, 77)}…` : held.pair.claim}": ${choiceText(held.choice)}.`;
  } catch (e) {
    el('compare-saved').textContent = `Not saved (${e.message}): that pair will be offered again.`;
  }
}

async function choose(choice) {
  if (!state.pair || state.busy) return;
  state.busy = true;
  updateButtons();
  try {
    if (!state.canSkip) {
      await postJson('/v1/annotations', { pairId: state.pair.pairId, choice });
      el('compare-saved').textContent = `Saved: ${choiceText(choice)}.`;
      await loadNext();
      return;
    }
    if (state.held) await send(state.held);
    const held = { pair: state.pair, choice, timer: 0 };
    held.timer = setTimeout(() => send(held), HOLD_MS);
    state.held = held;
    await loadNext(`You chose: ${choiceText(choice)}. It is saved in ${HOLD_MS / 1000} s; U (Undo) takes it back. `);
  } catch (e) {
    setStatus(`Not saved: ${e.message}`);
  } finally {
    state.busy = false;
    updateButtons();
  }
}

async function undo() {
  if (!state.held) {
    setStatus('Nothing to undo: choices are saved after a few seconds, or when you make the next one.');
    return;
  }
  const held = state.held;
  clearTimeout(held.timer);
  state.held = null;
  state.pair = held.pair;
  // Show the held pair again, as it was (same A and B).
  const roles = [];
  el('compare-claim').textContent = held.pair.claim;
  el('compare-context').textContent = held.pair.context.join(' ');
  el('compare-context-box').hidden = held.pair.context.length === 0;
  clear(el('side-a')).append(...side('A', held.pair.a, held.pair.claim, roles));
  clear(el('side-b')).append(...side('B', held.pair.b, held.pair.claim, roles));
  const legend = roleLegend(roles);
  clear(el('compare-legend')).append(...(legend ? [legend] : []));
  el('compare-box').hidden = false;
  el('compare-again').hidden = true;
  setStatus(`Undone: "${choiceText(held.choice)}" was not saved. Choose again.`);
  updateButtons();
}

async function skip() {
  if (!state.pair || !state.canSkip || state.busy) return;
  state.skipped.push(state.pair.pairId);
  await loadNext('Skipped. ');
}

function onKey(ev) {
  if (el('view-compare').hidden || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target instanceof HTMLElement && ev.target.closest('input, textarea, select, [contenteditable]')) return;
  const action = { a: () => choose('A'), b: () => choose('B'), n: () => choose('neither'), s: () => skip(), u: () => undo() }[ev.key.toLowerCase()];
  if (!action) return;
  ev.preventDefault();
  action();
}

/** Whether the server's comparison route accepts `skip` (its OpenAPI document lists the parameter). */
async function detectSkip() {
  try {
    const doc = await getJson('/v1/openapi.json');
    const params = doc.paths['/v1/comparisons/next'].get.parameters || [];
    return params.some((p) => p.name === 'skip');
  } catch {
    return false;
  }
}

export async function initCompare() {
  for (const b of document.querySelectorAll('#compare-box [data-choice]')) b.addEventListener('click', () => choose(b.dataset.choice));
  el('compare-skip').addEventListener('click', skip);
  el('compare-undo').addEventListener('click', undo);
  el('compare-again').addEventListener('click', () => loadNext());
  el('compare-reset-skips').addEventListener('click', () => {
    state.skipped = [];
    loadNext();
  });
  document.addEventListener('keydown', onKey);
  // A held choice is sent when the page is hidden or left (fetch keepalive outlives the page).
  const flush = () => state.held && send(state.held, true);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
  window.addEventListener('pagehide', flush);
  state.canSkip = await detectSkip();
  el('compare-keys-undo').hidden = !state.canSkip;
  updateButtons();
}

export function showCompare(job) {
  state.jobId = job || null;
  return loadNext();
}
