// "Check a claim": POST /v1/verify, then the verdict, its confidence and the evidence, each sentence
// coloured by its role for the claim (evidence-role.js) with the claim's words marked.
import { postJson } from './api.js';
import { clear, fmtScore, h, judgedBy, modelLabel, showError } from './dom.js';
import { claimTerms, verifyEvidenceRoles, verifyRelevanceThreshold } from './evidence-role.js';
import { evidenceSpan, roleLegend } from './sources.js';

const LABEL_CLASS = { SUPPORTS: 'supports', REFUTES: 'refutes', 'NOT ENOUGH INFO': 'nei' };

function entailmentOf(e) {
  if (!e.entailment) return null;
  const [name, p] = Object.entries(e.entailment).sort((a, b) => b[1] - a[1])[0];
  return `${name} ${fmtScore(p)}`;
}

/** A document's decision as every surface words it: band, probability of support, why. */
function documentDecision(d) {
  const p = d.probability !== undefined ? ` · P(supports) ${fmtScore(d.probability)}` : '';
  return h('p', { class: `hint decision band-${d.band}` }, h('strong', {}, `${d.label}${p}`), ` as a citation of this claim: ${d.reason}`);
}

function renderVerdict(v) {
  const terms = claimTerms(v.claim || '');
  const roles = [];
  // Each sentence read as the verdict reads it: its relevance gate, and (columbia) its thresholds.
  const verdictConfig = (v.provenance && v.provenance.config && v.provenance.config.verdict) || {};
  // Marks only where the verdict used the sentence and in the direction it read (the deciding document).
  const evidenceRoles = verifyEvidenceRoles(v.evidence, verdictConfig, { label: v.label, docId: v.decidedBy ? v.decidedBy.docId : undefined });
  const relevance = verifyRelevanceThreshold(verdictConfig);
  const roleOf = new Map(v.evidence.map((e, i) => [e, evidenceRoles[i]]));
  const byDoc = new Map();
  for (const e of v.evidence) {
    if (!byDoc.has(e.docId)) byDoc.set(e.docId, { title: e.title, items: [] });
    byDoc.get(e.docId).items.push(e);
  }
  const decided = v.decidedBy && v.decidedBy.docId;
  const decisionOf = new Map((v.documentDecisions || []).map((d) => [d.docId, d.decision]));
  const docs = [...byDoc.entries()].map(([docId, d]) =>
    h(
      'article',
      { class: 'source' },
      h(
        'h4',
        {},
        d.title,
        // By-document verdicts: each document is judged alone and the most relevant one that takes a side decides.
        docId === decided ? h('span', { class: 'badge muted decided', title: 'Each document is judged alone; the most relevant one that takes a side decides the verdict.' }, 'decided the verdict') : null,
      ),
      // What the deciding document names of the claim: a verdict decided on a document that leaves out
      // what the claim is about is one to read with care.
      docId === decided && v.decidedBy.coverage
        ? h('p', { class: 'hint coverage' }, `This document ${v.decidedBy.coverage.text}${v.decidedBy.coverage.missing.length ? ': read the verdict with care.' : '.'}`)
        : null,
      // The one decision for (claim, this document): the band and number "Check a source", the audit and the
      // gadget give the same pair (src/verify/decision.ts).
      decisionOf.has(docId) ? documentDecision(decisionOf.get(docId)) : null,
      h(
        'ul',
        { class: 'evidence-list' },
        d.items.map((e) => {
          const role = roleOf.get(e);
          roles.push(role);
          return h(
            'li',
            {},
            evidenceSpan(e.text, terms, role, undefined, relevance),
            h('span', { class: 'meta' }, ` sentence ${e.sentenceIndex}, evidence score ${fmtScore(e.score)}`, entailmentOf(e) ? `, ${entailmentOf(e)}` : ''),
            // What the sentence states against the claim, in words (src/verify/findings): never read as support.
            (e.findings || []).map((f) => h('p', { class: 'hint finding' }, `Finding: ${f.message}${f.decisive ? '' : ' (not decisive)'}`)),
          );
        }),
      ),
    ),
  );
  const pct = Math.round(v.confidence * 100);
  return h(
    'div',
    { class: 'verdict-box' },
    h(
      'p',
      { class: 'verdict' },
      v.language ? h('span', { class: 'label unchecked', id: 'verdict-language' }, 'could not check (language)') : null,
      h('span', { class: `label ${LABEL_CLASS[v.label] || ''}`, id: 'verdict-label' }, v.label),
      h('span', { class: 'confidence' }, ` confidence ${fmtScore(v.confidence)}`),
      h('meter', { min: 0, max: 1, value: v.confidence, title: `${pct}%` }),
    ),
    // Not English: the models read English only, the label is their guess (src/text/language.ts).
    v.language ? h('p', { class: 'hint language', id: 'verdict-language-why' }, `Could not check (language): ${v.language.problem}. The label is the models' guess.`) : null,
    // A decisive finding decided REFUTES over the model's own reading: say so, with the model's reading.
    v.overruled
      ? h('p', { class: 'hint overruled' }, `Decided by a finding: ${v.overruled.finding.message}. The model alone read ${v.overruled.label} (${fmtScore(v.overruled.probs[v.overruled.label])}).`)
      : null,
    // What the deciding evidence makes of the claim's opposite (its negation, its change the other way).
    v.opposite
      ? h(
          'p',
          { class: 'hint opposite' },
          // A rewrite that does not read as a sentence is shown by its figures only (as the CLI does).
          `Read against its opposite${v.opposite.readsAsSentence === false ? ' (its rewrite does not read as a sentence, so it is not shown)' : `, “${v.opposite.text}”`}: entailment ${fmtScore(v.opposite.entailment)}, the claim ${fmtScore(v.opposite.claimEntailment)}${v.opposite.entailment > v.opposite.claimEntailment ? ' (the evidence favours the opposite).' : '.'}`,
        )
      : null,
    h('h3', {}, v.evidence.length ? 'Evidence' : 'No evidence found'),
    roleLegend(roles, relevance),
    h('div', { class: 'evidence-docs' }, docs),
    h('p', { class: 'provenance' }, `index ${v.provenance.snapshot} · models ${v.provenance.models.map((m) => modelLabel(m.id)).join(', ')} · ${judgedBy(v.provenance)} · ${Math.round(v.timings.totalMs)} ms`),
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
