import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rng } from '../../util/rng.js';
import { loadSciFactClaims, loadSciFactCorpus } from '../heads/data.js';
import { CON, ENT, NEU } from '../heads/data.js';
import { label } from '../heads/softmax-regression.js';
import { applyRule, contrastNliPairs, countByRule, makeTwins, sciFactContradicted, sciFactSupported } from './index.js';

const rng = () => new Rng(7);
const apply = (rule: Parameters<typeof applyRule>[0], claim: string, premise = '', pool: string[] = []) => applyRule(rule, claim, premise, rng(), pool);

describe('contrast rules', () => {
  it('flips the direction of change, keeping casing and fixing the article', () => {
    assert.equal(apply('direction', 'Alendronate reduces the risk of fractures.'), 'Alendronate increases the risk of fractures.');
    assert.equal(apply('direction', 'Higher doses are better.')?.startsWith('Lower doses'), true);
    assert.equal(apply('direction', 'A mutation leads to an increased risk.'), 'A mutation leads to a decreased risk.');
    assert.equal(apply('direction', 'Statins lower cholesterol.'), 'Statins raise cholesterol.', '"lower" as a verb becomes "raise"');
    assert.equal(apply('direction', 'Aspirin is a drug.'), undefined);
  });
  it('adds or removes negation with the right auxiliary', () => {
    assert.equal(apply('negation', 'Alendronate increases bone density.'), 'Alendronate does not increase bone density.');
    assert.equal(apply('negation', 'Statins lowered mortality.'), 'Statins did not lower mortality.');
    assert.equal(apply('negation', 'Macrophages are seeded before birth.'), 'Macrophages are not seeded before birth.');
    assert.equal(apply('negation', 'Vitamin B12 does not affect kidney disease.'), 'Vitamin B12 affects kidney disease.');
    assert.equal(apply('negation', 'Adults do not need it.'), 'Adults need it.');
  });
  it('swaps an adjective for its antonym (WordNet or the hand list)', () => {
    assert.equal(apply('antonym', 'Amitriptyline is an effective treatment.'), 'Amitriptyline is an ineffective treatment.');
    assert.equal(apply('antonym', 'The effect was large.'), 'The effect was small.');
    assert.equal(apply('antonym', 'A single dose works.'), undefined, 'single -> multiple would make an unsupported claim, not a false one');
  });
  it('changes quantities but never identifiers', () => {
    assert.equal(apply('number', 'Mortality fell by 20% in 2001.')?.includes('2001') || apply('number', 'Mortality fell by 20% in 2001.')?.includes('20%'), true);
    assert.notEqual(apply('number', 'Mortality fell by 20%.'), 'Mortality fell by 20%.');
    assert.equal(apply('number', 'T-helper 17 cells drive colitis.'), undefined);
    assert.equal(apply('number', 'Type 2 diabetes is common.'), undefined);
    // A thousands separator is part of the number: "1,000" becomes another number, never "1,5".
    assert.equal(apply('number', '1,000 genomes project enables mapping of rare variants.'), '500 genomes project enables mapping of rare variants.');
  });
  it('swaps a name the premise mentions for one of the same shape', () => {
    const out = apply('entity', 'Loss of DGKK causes hypospadias.', 'DGKK variants were found.', ['EBI2', 'Paris']);
    assert.equal(out, 'Loss of EBI2 causes hypospadias.');
    assert.equal(apply('entity', 'Loss of DGKK causes hypospadias.', 'Variants were found.', ['EBI2']), undefined, 'the premise must mention the name');
  });
});

describe('twins of SciFact train claims', () => {
  const corpus = loadSciFactCorpus('data/samples/scifact/corpus.jsonl');
  const claims = loadSciFactClaims('data/samples/scifact/claims_train.jsonl');
  it('are seeded and deterministic, one per applicable rule, in the original claim group', () => {
    const supported = sciFactSupported(claims, corpus);
    assert.ok(supported.length > 20);
    const a = makeTwins(supported, 13);
    assert.deepEqual(makeTwins(supported, 13), a);
    assert.notDeepEqual(makeTwins(supported, 14, { tag: 'eval' }).map((t) => t.twin), a.map((t) => t.twin));
    const counts = countByRule(a);
    assert.ok(counts.negation > 0 && counts.direction > 0, JSON.stringify(counts));
    for (const t of a) {
      assert.notEqual(t.twin, t.original);
      assert.ok(supported.some((s) => s.group === t.group && s.claim === t.original));
      assert.equal(t.label, t.rule === 'entity' ? 'neutral' : 'contradiction');
    }
  });
  it('reverse twins: a contradicted claim with its negation toggled is entailed by the same sentences', () => {
    const contradicted = sciFactContradicted(claims, corpus);
    assert.ok(contradicted.length > 5, `${contradicted.length} contradicted claims in the sample`);
    assert.ok(contradicted.every((c) => !sciFactSupported(claims, corpus).some((s) => s.claim === c.claim && s.group === c.group)));
    const { pairs, counts } = contrastNliPairs({ scifact: [], snli: [], rte: [], scifactReverse: contradicted }, 13);
    assert.ok(pairs.length > 0 && counts.scifactReverse_negation! > 0, JSON.stringify(counts));
    assert.equal(counts.scifactReverse_direction, 0, 'only negation: a direction flip of a claim contradicted by "no effect" is still contradicted');
    for (const p of pairs) {
      assert.equal(p.y, label(ENT));
      assert.ok(contradicted.some((c) => c.group === p.group && c.claim !== p.hypothesis && (c.premises.includes(p.premise) || c.premises.join(' ') === p.premise)));
    }
    // The forward twins of supported claims stay contradiction / neutral.
    const forward = contrastNliPairs({ scifact: sciFactSupported(claims, corpus), snli: [], rte: [] }, 13).pairs;
    assert.ok(forward.length > 0 && forward.every((p) => p.y === label(CON) || p.y === label(NEU)));
  });
});
