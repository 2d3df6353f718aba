// The audit's score distribution as a small SVG drawn in the page (the scores arrive one citation at a
// time while the audit runs, so the page draws it itself): flagged citations red, the others grey, the
// flag threshold as a dashed line when the server reports one. Presentation attributes only (the page's
// CSP allows no inline styles). The HTML report draws the same chart on the server (src/report).

const NS = 'http://www.w3.org/2000/svg';
const W = 460;
const H = 180;
const PAD = { left: 36, right: 12, top: 26, bottom: 38 };

function el(tag, attrs = {}, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function fmt(x) {
  return Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/**
 * Equal-width bins over the scores and the threshold. Returns { lo, hi, bins: [{ lo, hi, flagged, other }] }.
 * Exported for the tests.
 */
export function binScores(items, threshold, n = 12) {
  const xs = items.map((i) => i.score);
  if (threshold !== undefined) xs.push(threshold);
  let lo = Math.min(...xs);
  let hi = Math.max(...xs);
  if (hi === lo) {
    lo -= 0.5;
    hi += 0.5;
  }
  const width = (hi - lo) / n;
  const bins = Array.from({ length: n }, (_, i) => ({ lo: lo + i * width, hi: lo + (i + 1) * width, flagged: 0, other: 0 }));
  for (const it of items) {
    const b = bins[Math.min(n - 1, Math.floor((it.score - lo) / width))];
    if (it.flagged) b.flagged++;
    else b.other++;
  }
  return { lo, hi, bins };
}

/**
 * items: [{ score, flagged }]; opts: { threshold?, scale } (scale: what the score is, for the axis).
 * Returns an <svg> element, or null when there is nothing to draw.
 */
export function scoreChart(items, opts = {}) {
  if (!items.length) return null;
  const { lo, hi, bins } = binScores(items, opts.threshold);
  const maxCount = Math.max(1, ...bins.map((b) => b.flagged + b.other));
  const x = (v) => PAD.left + ((v - lo) / (hi - lo)) * (W - PAD.left - PAD.right);
  const y = (c) => H - PAD.bottom - (c / maxCount) * (H - PAD.top - PAD.bottom);
  const flagged = items.filter((i) => i.flagged).length;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', class: 'score-chart', 'aria-label': `Score distribution of ${items.length} scored citations, ${flagged} flagged` });
  svg.append(el('title', {}, `Scores of ${items.length} scored citations (${opts.scale || 'score'})`));
  svg.append(el('text', { x: PAD.left, y: 14, 'font-size': 12, 'font-weight': 600, fill: '#1d2329' }, `Scores of the ${items.length} scored citations`));
  // axes
  svg.append(el('line', { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom, stroke: '#9aa5b1' }));
  svg.append(el('line', { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom, stroke: '#9aa5b1' }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(el('text', { x: x(v), y: H - PAD.bottom + 13, 'font-size': 10, 'text-anchor': 'middle', fill: '#5d6b78' }, fmt(v)));
  }
  svg.append(el('text', { x: (PAD.left + W - PAD.right) / 2, y: H - 6, 'font-size': 11, 'text-anchor': 'middle', fill: '#1d2329' }, opts.scale || 'score'));
  svg.append(el('text', { x: PAD.left - 6, y: PAD.top + 4, 'font-size': 10, 'text-anchor': 'end', fill: '#5d6b78' }, String(maxCount)));
  svg.append(el('text', { x: PAD.left - 6, y: H - PAD.bottom, 'font-size': 10, 'text-anchor': 'end', fill: '#5d6b78' }, '0'));
  // bars: flagged at the bottom, the others stacked on them
  for (const b of bins) {
    const x0 = x(b.lo) + 1;
    const w = Math.max(1, x(b.hi) - x(b.lo) - 2);
    if (b.flagged) svg.append(el('rect', { x: x0, y: y(b.flagged), width: w, height: y(0) - y(b.flagged), fill: '#b42318', 'data-kind': 'flagged' }));
    if (b.other) svg.append(el('rect', { x: x0, y: y(b.flagged + b.other), width: w, height: y(b.flagged) - y(b.flagged + b.other), fill: '#9aa5b1', 'data-kind': 'other' }));
  }
  if (opts.threshold !== undefined) {
    const tx = x(opts.threshold);
    svg.append(el('line', { x1: tx, y1: PAD.top - 4, x2: tx, y2: H - PAD.bottom, stroke: '#b42318', 'stroke-width': 2, 'stroke-dasharray': '5 3', class: 'threshold' }));
    svg.append(el('text', { x: tx + 4, y: PAD.top + 6, 'font-size': 10, fill: '#b42318' }, `flag threshold ${fmt(opts.threshold)}`));
  }
  // legend
  const ly = 14;
  svg.append(el('rect', { x: W - 170, y: ly - 9, width: 10, height: 10, fill: '#b42318' }));
  svg.append(el('text', { x: W - 156, y: ly, 'font-size': 10, fill: '#1d2329' }, `flagged (${flagged})`));
  svg.append(el('rect', { x: W - 86, y: ly - 9, width: 10, height: 10, fill: '#9aa5b1' }));
  svg.append(el('text', { x: W - 72, y: ly, 'font-size': 10, fill: '#1d2329' }, `not (${items.length - flagged})`));
  return svg;
}
