import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as ts from './evidence-role.js';
import { evidenceSentenceHtml, evidenceSentenceText, roleLegendHtml, roleLegendText } from './render.js';

interface Cases {
  roles: { why: string; p: ts.RoleProbabilities; thresholds?: Partial<ts.RoleThresholds>; role: ts.EvidenceRole | null }[];
  terms: { why: string; claim: string; text: string; terms: string[] }[];
}

type Rule = Pick<typeof ts, 'evidenceRole' | 'verifyEvidenceRoles' | 'verifyRelevanceThreshold' | 'legendEntry' | 'claimTerms' | 'splitTerms' | 'legendFor' | 'ROLE_LEGEND' | 'DEFAULT_ROLE_THRESHOLDS'>;

const cases = JSON.parse(await readFile(join(import.meta.dirname, 'cases.json'), 'utf8')) as Cases;
// The page's copy, loaded as the browser loads it: a plain ES module (the path is not typed on purpose).
const webPath = join(import.meta.dirname, '..', 'web', 'evidence-role.js');
const web = (await import(webPath)) as Rule;

for (const [name, rule] of [
  ['src/highlight (TypeScript)', ts],
  ['src/web/evidence-role.js (the page)', web],
] as [string, Rule][]) {
  describe(`highlighting rule: ${name}`, () => {
    it('gives each case its role', () => {
      for (const c of cases.roles) assert.equal(rule.evidenceRole(c.p, c.thresholds) ?? null, c.role, c.why);
    });

    it('marks the claim words in the sentence and gives the text back whole', () => {
      for (const c of cases.terms) {
        const terms = rule.claimTerms(c.claim);
        const segs = rule.splitTerms(c.text, terms);
        assert.equal(segs.map((s) => s.text).join(''), c.text, c.why);
        assert.deepEqual(segs.filter((s) => s.term).map((s) => s.text.toLowerCase()), c.terms, c.why);
      }
    });

    it("a verdict's evidence: its relevance gate by document, and the columbia rule's own thresholds", () => {
      const ent = (entailment: number, contradiction: number) => ({ entailment, contradiction });
      // The Eiffel Tower case: every sentence far below the gate, one read as a contradiction.
      const irrelevant = [
        { docId: 'brca', score: 0.013, entailment: ent(0.0, 0.95) },
        { docId: 'yeast', score: 0.004, entailment: ent(0.02, 0.9) },
      ];
      assert.deepEqual(rule.verifyEvidenceRoles(irrelevant, { rule: 'concat', across: 'by-document', relevanceThreshold: 0.24 }), ['not-relevant', 'not-relevant']);
      // By document: a document that reaches the gate keeps its stances, even for its weaker sentences.
      const mixed = [
        { docId: 'A', score: 0.9, entailment: ent(0.1, 0.8) },
        { docId: 'B', score: 0.2, entailment: ent(0.9, 0.05) },
        { docId: 'A', score: 0.1, entailment: ent(0.7, 0.1) },
      ];
      assert.deepEqual(rule.verifyEvidenceRoles(mixed, { rule: 'concat', across: 'by-document', relevanceThreshold: 0.24 }), ['contradicts', 'not-relevant', 'supports']);
      // Pooled: the gate reads the best sentence of all of them.
      assert.deepEqual(rule.verifyEvidenceRoles(mixed, { rule: 'concat', across: 'pooled', relevanceThreshold: 0.24 }), ['contradicts', 'supports', 'supports']);
      // An uncalibrated columbia colours at its own thresholds (they apply to raw probabilities); concat at the plain 0.5.
      const weak = [{ docId: 'A', score: 0.9, entailment: ent(0.3, 0.1) }];
      assert.deepEqual(rule.verifyEvidenceRoles(weak, { rule: 'columbia', supportThreshold: 0.275, refuteThreshold: 0.275, relevanceThreshold: 0.4 }), ['supports']);
      // Marks only where the verdict used the sentence, in the direction it read (issue 46 item 2).
      const vitD = [
        { docId: 'alendronate', score: 0.6, entailment: { entailment: 0.7, contradiction: 0.1 } },
        { docId: 'alendronate', score: 0.6, entailment: { entailment: 0.1, contradiction: 0.8 } },
        { docId: 'vitd', score: 0.7, entailment: { entailment: 0.8, contradiction: 0.1 } },
        { docId: 'vitd', score: 0.7, entailment: { entailment: 0.1, contradiction: 0.6 } },
      ];
      const byDoc = { rule: 'concat', across: 'by-document', relevanceThreshold: 0.24 };
      assert.deepEqual(rule.verifyEvidenceRoles(vitD, byDoc, { label: 'SUPPORTS', docId: 'vitd' }), ['neutral', 'neutral', 'supports', 'neutral']);
      assert.deepEqual(rule.verifyEvidenceRoles(vitD, byDoc, { label: 'REFUTES', docId: 'vitd' }), ['neutral', 'neutral', 'neutral', 'contradicts']);
      assert.deepEqual(rule.verifyEvidenceRoles(vitD, byDoc, { label: 'NOT ENOUGH INFO' }), ['neutral', 'neutral', 'neutral', 'neutral']);
      assert.deepEqual(rule.verifyEvidenceRoles(vitD, byDoc), ['supports', 'contradicts', 'supports', 'contradicts'], 'without a reading: each sentence alone');
      // A calibrated columbia's thresholds apply to the calibrator's output, not to a sentence's raw reading:
      // the demo's "1,000 genomes" verdict (SUPPORTS, calibrated) rests on a sentence read as entailment 0.16 /
      // contradiction 0.34, which its 0.275 would have coloured "contradicts". At 0.5 it is neutral.
      const calibrated = { rule: 'columbia', supportThreshold: 0.275, refuteThreshold: 0.275, relevanceThreshold: 0.4, calibrator: { weights: [[0.32, -0.28, -0.03, 1.82], [0.08, 0.37, -0.08, 2.01], [-0.39, -0.09, 0.11, -3.82]], bias: [-0.53, -0.82, 1.35] } };
      assert.deepEqual(rule.verifyEvidenceRoles([{ docId: 'A', score: 0.78, entailment: ent(0.16, 0.34) }, ...weak], calibrated), ['neutral', 'neutral']);
      assert.deepEqual(rule.verifyEvidenceRoles([{ docId: 'A', score: 0.78, entailment: ent(0.1, 0.8) }], calibrated), ['contradicts']);
      assert.deepEqual(rule.verifyEvidenceRoles(weak, { rule: 'concat', supportThreshold: 0.45, refuteThreshold: 0.35, relevanceThreshold: 0.24 }), ['neutral']);
      // A verdict without a gate (uncalibrated) sets nothing aside, however low the scores.
      assert.deepEqual(rule.verifyEvidenceRoles([{ docId: 'A', score: 0.1, entailment: ent(0.1, 0.8) }], { rule: 'concat', relevanceThreshold: 0 }), ['contradicts']);
      assert.deepEqual(rule.verifyEvidenceRoles([{ docId: 'A', score: 0.1, entailment: ent(0.1, 0.8) }]), ['contradicts']);
      // A sentence with a finding (src/verify/findings) is never "supports": the Orai1 case of issue 28, whose
      // best sentence says "decreased tumor metastasis" against the claim's "increases".
      const finding = (decisive: boolean) => [{ decisive }];
      assert.deepEqual(rule.verifyEvidenceRoles([{ docId: 'A', score: 0.95, entailment: ent(0.88, 0.05), findings: finding(true) }, { docId: 'A', score: 0.9, entailment: ent(0.88, 0.05), findings: finding(false) }, { docId: 'A', score: 0.9, entailment: ent(0.88, 0.05), findings: [] }], { rule: 'concat', relevanceThreshold: 0.24 }), ['contradicts', 'neutral', 'supports']);
      // Without entailment (an engine that gives none) the score is relevance, and no gate is needed.
      assert.deepEqual(rule.verifyEvidenceRoles([{ docId: 'A', score: 0.7 }, { docId: 'B', score: 0.1 }]), ['relevant', 'not-relevant']);
    });

    it('legends list the agreement roles or the relevance roles that occur', () => {
      assert.deepEqual(rule.legendFor(['supports', undefined]).map((e) => e.role), ['supports', 'contradicts', 'neutral']);
      assert.deepEqual(rule.legendFor(['not-relevant']).map((e) => e.role), ['relevant', 'not-relevant']);
      assert.deepEqual(rule.legendFor([undefined]), []);
    });

    it('the relevance roles state their threshold: 0.5, or the verdict\'s gate', () => {
      assert.match(rule.legendEntry('not-relevant').description, /relevance < 0\.5$/);
      assert.match(rule.legendEntry('relevant').description, /relevance ≥ 0\.5\)/);
      const gate = rule.verifyRelevanceThreshold({ rule: 'concat', relevanceThreshold: 0.24 });
      assert.equal(gate, 0.24);
      assert.equal(rule.verifyRelevanceThreshold({}), 0.5, 'no gate: the plain 0.5');
      assert.deepEqual(rule.legendFor(['not-relevant'], gate).map((e) => e.description), ['matches the claim (relevance ≥ 0.24); agreement not assessed', 'chosen as best available, but relevance < 0.24']);
      assert.deepEqual(rule.legendFor(['supports'], gate).map((e) => e.description), rule.legendFor(['supports']).map((e) => e.description), 'the agreement roles have no threshold to state');
      // Without entailment a verdict's sentence is read as relevance at the gate, as its legend says.
      assert.deepEqual(rule.verifyEvidenceRoles([{ docId: 'A', score: 0.3 }], { relevanceThreshold: 0.24 }), ['relevant']);
    });
  });
}

describe('highlighting rule: the page and the TypeScript agree', () => {
  it('on the legend, the thresholds and the stop words', () => {
    assert.deepEqual(web.ROLE_LEGEND, ts.ROLE_LEGEND);
    assert.deepEqual(web.DEFAULT_ROLE_THRESHOLDS, ts.DEFAULT_ROLE_THRESHOLDS);
    // every stop word of src/verify/tfidf.ts, and a few content words
    const probe = 'a an the of and or to in on at by for with from as is are was were be been being it its this that these those which who whom whose what when where why how not no do does did has have had he she they we you i his her their our your than then there here so such into about over under after before between during through up down out off also can could may might must shall should will would tamoxifen x 7 birth';
    assert.deepEqual([...web.claimTerms(probe)], [...ts.claimTerms(probe)]);
    assert.deepEqual([...ts.claimTerms(probe)], ['tamoxifen', '7', 'birth']);
  });
});

describe('mapping the engines\u2019 evidence to probabilities', () => {
  it('verify: per-sentence entailment when present, else the evidence score as relevance', () => {
    assert.equal(ts.verifyEvidenceRole({ score: 0.9, entailment: { entailment: 0.1, contradiction: 0.7 } }), 'contradicts');
    assert.equal(ts.verifyEvidenceRole({ score: 0.36, entailment: { entailment: 0.36, contradiction: 0.1 } }, { support: 0.35, contradict: 0.475 }), 'supports');
    assert.equal(ts.verifyEvidenceRole({ score: 0.2 }), 'not-relevant');
  });
  it('audit: a score is relevance only when it is a probability', () => {
    assert.equal(ts.auditEvidenceRole({ score: 0.8 }, true), 'relevant');
    assert.equal(ts.auditEvidenceRole({ score: 0.8 }, false), undefined);
    assert.equal(ts.auditEvidenceRole({ score: 0.8, support: 0.1, contradict: 0.85 }, true), 'contradicts');
  });
});

describe('highlight renderers', () => {
  const terms = ts.claimTerms('ALDH1 expression predicts poor prognosis');
  it('HTML: escaped text in a role span with the claim words in <mark>', () => {
    const html = evidenceSentenceHtml('ALDH1 <high> & poor prognosis', terms, 'supports');
    assert.equal(html, '<span class="ev ev-supports" data-role="supports" title="✓ supports: more likely than not, the sentence states the claim"><mark>ALDH1</mark> &lt;high&gt; &amp; <mark>poor</mark> <mark>prognosis</mark></span>');
    assert.equal(evidenceSentenceHtml('no match', terms, undefined), '<span class="ev">no match</span>');
    assert.match(roleLegendHtml(['relevant']), /relevant.*not relevant.*a word of the claim/s);
    assert.equal(roleLegendHtml([undefined]), '');
  });

  it('terminal: role tag and *claim words* without colour; ANSI colour codes with it', () => {
    assert.equal(evidenceSentenceText('ALDH1 predicts poor prognosis.', terms, 'contradicts', { color: false }), '[✗ contradicts] *ALDH1* *predicts* *poor* *prognosis*.');
    const colored = evidenceSentenceText('ALDH1 predicts.', terms, 'supports', { color: true });
    assert.match(colored, /\u001b\[32m\[✓ supports\]\u001b\[39m/);
    assert.match(colored, /\u001b\[1mALDH1\u001b\[22m/);
    assert.equal(roleLegendText(['neutral'], { color: false }).split('\n').length, 4);
  });
});
