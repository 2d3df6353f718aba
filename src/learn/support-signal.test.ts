import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { fitSupportSignal, fitSupportSignalWeights, outOfFold, type SupportSignalRow } from './support-signal.js';
import { supportSignal } from '../audit/support-signal.js';
import { Rng } from '../util/rng.js';

/**
 * Citations shaped like WiCE dev's (12% fail): a failing page rarely words the claim (low similarity) and
 * the NLI model reads less support in it, each with noise; `informative` picks which input carries the label.
 */
function citations(n: number, informative: { support: boolean; similarity: boolean }, seed = 7): SupportSignalRow[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const fails = rng.next() < 0.12;
    const sim = Math.min(1, Math.max(0, (informative.similarity && !fails ? 0.35 : 0.15) + 0.1 * rng.normal()));
    const z = (informative.support && !fails ? 0.5 : -1.5) + rng.normal();
    return { probability: 1 / (1 + Math.exp(-z)), similarity: sim, fails, group: `article ${Math.floor(i / 2)}` };
  });
}

describe('the support signal fit', () => {
  it('weighs both inputs when both tell failing citations, and ranks failing ones low', () => {
    const rows = citations(400, { support: true, similarity: true });
    const w = fitSupportSignalWeights(rows);
    assert.ok(w.support > 0 && w.similarity > 0, JSON.stringify(w));
    const mean = (f: boolean) => {
      const xs = rows.filter((r) => r.fails === f).map((r) => supportSignal(r.probability, r.similarity, w));
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    assert.ok(mean(true) < mean(false) - 1, `failing ${mean(true)} vs supported ${mean(false)}`);
  });

  it('leaves out an input that tells nothing', () => {
    const w = fitSupportSignalWeights(citations(400, { support: false, similarity: true }));
    // Per standard deviation of each input: similarity's sd is ~0.1, logit P's ~1.
    assert.ok(Math.abs(w.support) * 1 < 0.25 * w.similarity * 0.1, JSON.stringify(w));
  });

  it('is deterministic', () => {
    const rows = citations(200, { support: true, similarity: true });
    assert.deepEqual(fitSupportSignalWeights(rows), fitSupportSignalWeights(rows));
  });

  it('needs citations of both kinds', () => {
    const rows = citations(50, { support: true, similarity: true }).map((r) => ({ ...r, fails: false }));
    assert.throws(() => fitSupportSignalWeights(rows), /both kinds/);
  });

  it('reports out-of-fold figures over articles, beside P(supports) alone', () => {
    const rows = citations(400, { support: true, similarity: true });
    const o = outOfFold(rows, 5, [13, 14]);
    assert.deepEqual(o.seeds, [13, 14]);
    // Both inputs together detect better than P(supports) alone, on citations the weights never saw.
    assert.ok(o.rocAuc > o.supportAlone.rocAuc + 0.02, `${o.rocAuc} vs ${o.supportAlone.rocAuc}`);
    assert.ok(o.rocAuc > 0.8 && o.rocAuc <= 1 && o.averagePrecision > 0 && o.precisionAt15Recall > 0, JSON.stringify(o));
    assert.throws(() => outOfFold(rows.slice(0, 6), 5), /at least 5 groups/, 'three articles cannot make five folds');
  });

  it('records what it read and what it was fitted on', () => {
    const rows = citations(120, { support: true, similarity: true });
    const fit = fitSupportSignal(rows, 'wice/claim_dev.jsonl');
    assert.equal(fit.fittedOn.n, 120);
    assert.equal(fit.fittedOn.fails, rows.filter((r) => r.fails).length);
    assert.match(fit.inputs, /logit\(P\(supports\)\).*similarity/);
    assert.deepEqual({ bias: fit.bias, support: fit.support, similarity: fit.similarity }, fitSupportSignalWeights(rows));
  });
});
