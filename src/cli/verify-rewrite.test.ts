/** Counter-claim rewrites are shown only when they read as sentences (issue 36). */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { grammaticalRewrite } from './command-verify.js';

describe('grammaticalRewrite', () => {
  it('leaves out the rewrites issue 36 found, keeps plain ones', () => {
    assert.equal(grammaticalRewrite('Treatment with bleomycin-did not induce lung fibrosis.'), false);
    assert.equal(grammaticalRewrite('Mice lacking the receptor are more unsusceptible to infection.'), false);
    assert.equal(grammaticalRewrite('The the drug lowers blood pressure.'), false);
    assert.equal(grammaticalRewrite('Caloric restriction speeds up methylation drift.'), true);
    assert.equal(grammaticalRewrite('1,000 genomes project enables mapping of rare variants with smaller penetrance effects than common variants.'), true);
  });
});
