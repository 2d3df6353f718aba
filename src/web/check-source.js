// "Check a source": one claim against one source (pasted text, an uploaded HTML / PDF / Markdown / text
// file, or a URL the server looks up or fetches), POST /v1/citations/check, shown as `veracite check`
// shows it: the status and why, the probability of support, what the source names of the claim, its
// evidence sentences (coloured by role) and better sources from the index.
import { postJson } from './api.js';
import { clear, fmtScore, h, showError } from './dom.js';
import { roleLegend, sourceCard } from './sources.js';
import { BAND_BADGE } from './audit.js';

const el = (id) => document.getElementById(id);

/** Largest file the server takes (src/server/upload.ts MAX_UPLOAD_BYTES). */
export const MAX_UPLOAD_BYTES = 1024 * 1024;

/** A file's declared type from its extension, then its MIME type; undefined when the server does not read it. */
export function uploadType(name, mime) {
  const ext = (/\.([a-z0-9]+)$/i.exec(name || '') || [])[1];
  const byExt = { html: 'text/html', htm: 'text/html', pdf: 'application/pdf', md: 'text/markdown', markdown: 'text/markdown', txt: 'text/plain', text: 'text/plain' };
  if (ext && byExt[ext.toLowerCase()]) return byExt[ext.toLowerCase()];
  if (['text/html', 'application/pdf', 'text/markdown', 'text/plain'].includes(mime)) return mime;
  return undefined;
}

/** Bytes -> base64, in slices (String.fromCharCode takes a bounded number of arguments). */
export function toBase64(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/**
 * The check's one label, as `veracite check` and the audit show it: the server's band (src/audit/bands.ts),
 * with its reason; the page never bands a score itself. `key` is the band (the status element's data-status).
 */
export function checkStatus(v) {
  const unread = v.sourceStatus !== 'found' || v.verifiability === null || v.verifiability === undefined;
  const band = v.band || (unread ? 'could-not-check' : 'needs-review');
  const words = (BAND_BADGE[band] || ['muted', band])[1];
  if (band === 'could-not-check' && v.language && !v.language.scoredAnyway) {
    return { key: band, label: `${words} (language)`, why: `${v.language.problem}. ${v.howToCheck ? `To check it: ${v.howToCheck}.` : ''}` };
  }
  if (band === 'could-not-check') {
    return { key: band, label: words, why: `the source could not be read (${v.sourceStatus})${v.sourceReason ? `: ${v.sourceReason}` : ''}. "Could not check" is not "does not support".${v.howToCheck ? ` To check it: ${v.howToCheck}.` : ''}` };
  }
  const score = `${v.scoreSignal === 'probability' ? 'probability of support' : 'score'} ${fmtScore(v.verifiability)}`;
  const tag = v.decision && v.decision.tag ? ' + tag' : '';
  return { key: band, label: `${words}${tag}`, why: `${score}${v.bandReason ? `: ${v.bandReason}` : ''}.` };
}

function selectedKind() {
  return document.querySelector('input[name="source-kind"]:checked').value;
}

function updateKind() {
  const kind = selectedKind();
  for (const [k, ids] of Object.entries({ text: ['source-text', 'source-text-label'], file: ['source-file', 'source-file-label'], url: ['source-url', 'source-url-label'] })) {
    for (const id of ids) el(id).hidden = k !== kind;
  }
}

async function sourceOf(kind) {
  if (kind === 'text') {
    const text = el('source-text').value;
    if (!text.trim()) throw Object.assign(new Error("Paste the source's text into the box first."), { field: 'source-text' });
    return { text };
  }
  if (kind === 'url') {
    const url = el('source-url').value.trim();
    if (!url) throw Object.assign(new Error("Enter the source's URL first."), { field: 'source-url' });
    return { url };
  }
  const file = el('source-file').files[0];
  if (!file) throw Object.assign(new Error('Choose a file first.'), { field: 'source-file' });
  const type = uploadType(file.name, file.type);
  if (!type) throw Object.assign(new Error(`${file.name}: the server reads HTML, PDF, Markdown and text files only.`), { field: 'source-file' });
  if (file.size > MAX_UPLOAD_BYTES) throw Object.assign(new Error(`${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MiB; the server takes files up to 1 MiB.`), { field: 'source-file' });
  if (file.size === 0) throw Object.assign(new Error(`${file.name} is empty.`), { field: 'source-file' });
  return { file: { name: file.name, type, base64: toBase64(new Uint8Array(await file.arrayBuffer())) } };
}

function render(v) {
  const status = checkStatus(v);
  const roles = [];
  const signal = v.scoreSignal === 'probability' ? 'P(supports)' : 'score';
  const cited = v.existing
    ? sourceCard('The source', v.existing, v.verifiability !== null ? `${signal} ${fmtScore(v.verifiability)}` : undefined, v.claim, roles)
    : h('article', { class: 'source' }, h('h4', {}, 'The source'), h('p', { class: 'hint' }, `Could not be read (${v.sourceStatus}). ${v.sourceReason || ''}`));
  const better = v.suggestions.length
    ? h('div', { class: 'suggestions' }, v.suggestions.map((s, i) => sourceCard(`Better source ${i + 1}`, s, `${signal} ${fmtScore(s.score)}`, v.claim, roles)))
    : h('article', { class: 'source' }, h('h4', {}, 'Better sources'), h('p', { class: 'hint' }, v.noBetterSource === 'no better source found by search' ? 'None found by search scores above this source.' : 'None in the index scores above this source.'));
  const parts = [
    h('p', { class: 'check-status', id: 'source-status', 'data-status': status.key }, h('span', { class: `label ${status.key}` }, status.label), h('span', { class: 'hint' }, status.why)),
    h('blockquote', { class: 'claim' }, v.claim),
    v.coverage && v.coverage.text ? h('p', { class: 'hint coverage' }, v.coverage.text) : null,
    roleLegend(roles),
    h('div', { class: 'side-by-side' }, cited, better),
    // Better sources from search: a provider that failed is named (nothing better found is not "none exists").
    v.searchFailures && v.searchFailures.length ? h('p', { class: 'hint search-failed' }, `Searching for a better source: ${v.searchFailures.join('; ')}`) : null,
  ];
  clear(el('source-result')).append(...parts.filter(Boolean));
}

export function initSourceCheck() {
  for (const r of document.querySelectorAll('input[name="source-kind"]')) r.addEventListener('change', updateKind);
  updateKind();
  el('source-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    showError(el('source-error'), null);
    const claim = el('source-claim').value.trim();
    if (!claim) {
      showError(el('source-error'), new Error('Write the claim first.'));
      el('source-claim').focus();
      return;
    }
    el('source-submit').disabled = true;
    el('source-result').dataset.state = 'checking';
    try {
      const source = await sourceOf(selectedKind());
      const body = { claim, source };
      const title = el('source-title').value.trim();
      if (title) body.title = title;
      render(await postJson('/v1/citations/check', body));
      el('source-result').dataset.state = 'done';
    } catch (e) {
      if (e.field) el(e.field).focus();
      showError(el('source-error'), e);
      el('source-result').dataset.state = 'error';
    } finally {
      el('source-submit').disabled = false;
    }
  });
}
