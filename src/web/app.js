// The page's router (#/claim, #/source, #/audit, #/audit/<job>, #/compare, #/compare/<job>) and start-up.
import { getJson } from './api.js';
import { modelLabel } from './dom.js';
import { initAudit, showJob } from './audit.js';
import { initClaim } from './claim.js';
import { initSourceCheck } from './check-source.js';
import { initCompare, showCompare } from './compare.js';

function route() {
  const [, view = 'claim', arg] = location.hash.split('/');
  const name = ['claim', 'source', 'audit', 'compare'].includes(view) ? view : 'claim';
  for (const s of document.querySelectorAll('.view')) s.hidden = s.id !== `view-${name}`;
  for (const a of document.querySelectorAll('nav a')) a.toggleAttribute('aria-current', a.dataset.view === name);
  if (name === 'audit' && arg) showJob(arg);
  if (name === 'compare') showCompare(arg);
}

async function start() {
  let health = null;
  const status = document.getElementById('service-status');
  try {
    health = await getJson('/v1/health');
    status.textContent = `${health.index.documents.toLocaleString()} documents · ${health.models.map((m) => modelLabel(m.id)).join(', ')}${health.fetch ? ' · live fetch on' : ''}`;
  } catch (e) {
    status.textContent = `service unavailable: ${e.message}`;
  }
  initClaim();
  initSourceCheck();
  initAudit(health);
  await initCompare();
  window.addEventListener('hashchange', route);
  route();
  document.body.dataset.ready = 'true';
}

start();
