/** The one decision per (claim, source) pair (issue 36): findings decide, one set of thresholds, tags only where precise. */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { BAND_THRESHOLDS, bandOfProbability, decidePair, tagWikitext } from './decision.js';

const t = BAND_THRESHOLDS;

describe('decidePair', () => {
  it('a decisive finding makes the band not supported, in words, whatever the probability, with a tag', () => {
    const d = decidePair({ probability: 0.8, decisiveFinding: { kind: 'quantity', message: 'the source says 0.7 percent, the claim says 7 percent' } });
    assert.equal(d.band, 'not-supported');
    assert.match(d.reason, /0\.7 percent/);
    assert.ok(d.tag);
    assert.equal(d.probability, 0.8);
  });

  it('bands the probability on one set of thresholds; supported never below the threshold it quotes', () => {
    assert.ok(t.tagBelow <= t.notSupportedBelow && t.notSupportedBelow < t.partlyFrom && t.partlyFrom < t.supportedFrom);
    for (let p = 0; p <= 1; p += 0.01) {
      const d = decidePair({ probability: p });
      assert.equal(d.band, bandOfProbability(p));
      if (d.band === 'supported') assert.ok(p >= t.supportedFrom && d.reason.includes(`supported from ${t.supportedFrom.toFixed(2)}`));
      assert.equal(!!d.tag, p < t.tagBelow, `p ${p}`);
    }
  });

  it('a model contradiction without words is a conflicting signal: needs review, no tag, unless the probability is below the band', () => {
    const d = decidePair({ probability: 0.9, modelContradiction: true });
    assert.equal(d.band, 'needs-review');
    assert.equal(d.tag, undefined);
    assert.equal(decidePair({ probability: 0.3, modelContradiction: true }).band, 'needs-review');
    assert.equal(decidePair({ probability: 0.01, modelContradiction: true }).band, 'not-supported');
  });

  it('a low score above the tag threshold is not supported without a tag (a tag threshold below the band)', () => {
    const lower = { ...t, tagBelow: t.notSupportedBelow / 2 };
    const d = decidePair({ probability: (lower.tagBelow + lower.notSupportedBelow) / 2 }, lower);
    assert.equal(d.band, 'not-supported');
    assert.equal(d.tag, undefined);
    assert.match(d.reason, /no tag proposed/);
    assert.equal(tagWikitext(d, 'May 2026'), undefined);
    assert.match(tagWikitext(decidePair({ probability: 0.01 }), 'May 2026')!, /^\{\{failed verification\|date=May 2026\|reason=veracite: /);
  });
});
