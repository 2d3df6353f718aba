import { strict as assert } from 'node:assert';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { covidFactCases, domainCases, healthVerCases, VALIDATION_DOMAINS, FIT_DOMAINS } from './domains.js';

// Validation domains (issue 28): read in their published formats, never fitted on. Rows written here in those formats.
describe('validation domains: COVID-Fact and HealthVer', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'vc-domains-'));
    await mkdir(join(root, 'covidfact'));
    await mkdir(join(root, 'healthver'));
    const cf = [
      { claim: 'Vitamin D supplementation lowers the risk of severe disease.', label: 'SUPPORTED', evidence: ['Supplementation lowered the risk of severe disease.', 'It was well tolerated.'], gold_source: 'https://example.org/a' },
      { claim: 'Vitamin D supplementation raises the risk of severe disease.', label: 'REFUTED', evidence: ['Supplementation lowered the risk of severe disease.'], gold_source: 'https://example.org/a' },
    ];
    await writeFile(join(root, 'covidfact/COVIDFACT_dataset.jsonl'), cf.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await writeFile(
      join(root, 'healthver/healthver_dev.csv'),
      'id,evidence,claim,label,topic_ip,question\n' +
        '7,"Masks reduced transmission, a trial found. Compliance was high.",Masks reduce transmission,Supports,3,do masks work\n' +
        '8,"Masks reduced transmission, a trial found.",Masks increase transmission,Refutes,3,do masks work\n' +
        '9,"The virus emerged in December 2019.",The virus was made in a lab,Neutral,1,what is the origin\n',
    );
  });
  after(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('maps COVID-Fact labels and keeps a claim and its counter-claim in one group', () => {
    const cases = covidFactCases(root, undefined, 13);
    assert.deepEqual(cases.map((c) => c.gold), ['SUPPORTS', 'REFUTES']);
    assert.equal(cases[0]!.doc.sentences.length, 2);
    assert.equal(cases[0]!.group, cases[1]!.group);
  });

  it('reads HealthVer CSV (quoted commas), maps its three labels and splits the evidence into sentences', () => {
    const cases = healthVerCases(root, undefined, 13);
    assert.deepEqual(cases.map((c) => c.gold), ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO']);
    assert.deepEqual(cases[0]!.doc.sentences, ['Masks reduced transmission, a trial found.', 'Compliance was high.']);
    assert.equal(cases[0]!.group, 'healthver:3');
    assert.deepEqual(domainCases('healthver', root, { limit: 2 }).length, 2);
  });

  it('names the file and line of a bad record', async () => {
    await writeFile(join(root, 'healthver/healthver_dev.csv'), 'id,evidence,claim,label,topic_ip,question\n1,"Some text.",A claim,Maybe,1,q\n');
    assert.throws(() => healthVerCases(root, undefined, 13), /healthver_dev\.csv:2: expected .*Supports, Refutes or Neutral/);
  });

  it('are never among the domains fitted on', () => {
    assert.deepEqual(VALIDATION_DOMAINS.filter((d) => FIT_DOMAINS.includes(d)), []);
  });
});
