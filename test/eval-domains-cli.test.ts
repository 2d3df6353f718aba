/**
 * `veracite eval domains` end to end (issue 28): the verdict layer judged leave-one-domain-out, on a data
 * folder laid out as ../shared/data is, built here from the samples the repository ships (SciFact, SNLI, WiCE:
 * data/samples/calibration, licences in SOURCES.md) and a few RTE, COVID-Fact and HealthVer rows written in
 * their published formats. `--limit` keeps each domain to a handful of cases: this checks the command, not
 * the figures (those are in docs/RESULTS-HISTORY.md).
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliEntryArgs } from '../src/cli/testing/cli-entry.js';

const SAMPLES = join(import.meta.dirname, '..', 'data', 'samples', 'calibration');

function veracite(args: string[]) {
  return spawnSync(process.execPath, [...cliEntryArgs(), ...args], { encoding: 'utf8', timeout: 600_000, env: { ...process.env, NO_COLOR: '1' } });
}

const firstLines = async (from: string, to: string, n: number) => writeFile(to, (await readFile(from, 'utf8')).split('\n').filter((l) => l.trim()).slice(0, n).join('\n') + '\n');

describe('veracite eval domains (CLI)', () => {
  let dir: string;
  let data: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-eval-domains-'));
    data = join(dir, 'data');
    for (const sub of ['scifact', 'nli/snli', 'nli/rte', 'wice', 'covidfact', 'healthver']) await mkdir(join(data, sub), { recursive: true });
    for (const f of ['corpus.jsonl', 'claims_train.jsonl', 'claims_dev.jsonl']) await copyFile(join(SAMPLES, 'scifact', f), join(data, 'scifact', f));
    // The domain reads the 20% of SNLI test held out from the heads: 100 pairs leave about 20.
    await firstLines(join(SAMPLES, 'nli', 'snli_dev.jsonl'), join(data, 'nli/snli/snli_test.jsonl'), 100);
    await firstLines(join(SAMPLES, 'wice', 'claim_dev.jsonl'), join(data, 'wice/claim_dev.jsonl'), 12);
    const rte = [
      ['The company reported revenue of $4 billion in 2019. Its profit rose.', 'The company reported revenue of $4 billion.', 'entailment'],
      ['The bridge opened in 1937 after four years of work.', 'The bridge opened in 1937.', 'entailment'],
      ['Rain fell across the region on Sunday, flooding roads.', 'Roads were flooded on Sunday.', 'entailment'],
      ['The minister resigned on Tuesday.', 'The minister was re-elected on Tuesday.', 'not_entailment'],
      ['Aspirin is widely used to relieve pain.', 'Aspirin causes cancer.', 'not_entailment'],
      ['The team won the final 2-1.', 'The team lost the final.', 'not_entailment'],
    ];
    await writeFile(join(data, 'nli/rte/dev.tsv'), 'index\tsentence1\tsentence2\tlabel\n' + rte.map((r, i) => [i, ...r].join('\t')).join('\n') + '\n');
    const cf = [
      { claim: 'Masks reduce the transmission of the virus.', label: 'SUPPORTED', evidence: ['Mask wearing reduced transmission of the virus in households.'], gold_source: 'a' },
      { claim: 'Masks increase the transmission of the virus.', label: 'REFUTED', evidence: ['Mask wearing reduced transmission of the virus in households.'], gold_source: 'a' },
      { claim: 'Vaccination lowers the risk of severe disease.', label: 'SUPPORTED', evidence: ['Vaccinated patients had a lower risk of severe disease.'], gold_source: 'b' },
      { claim: 'Vaccination raises the risk of severe disease.', label: 'REFUTED', evidence: ['Vaccinated patients had a lower risk of severe disease.'], gold_source: 'b' },
    ];
    await writeFile(join(data, 'covidfact/COVIDFACT_dataset.jsonl'), cf.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await writeFile(
      join(data, 'healthver/healthver_dev.csv'),
      'id,evidence,claim,label,topic_ip,question\n' +
        '1,"Vitamin D supplementation reduced the risk of respiratory infection, a meta-analysis found.",Vitamin D lowers the risk of respiratory infection,Supports,1,does vitamin d help\n' +
        '2,"Vitamin D supplementation reduced the risk of respiratory infection, a meta-analysis found.",Vitamin D raises the risk of respiratory infection,Refutes,1,does vitamin d help\n' +
        '3,"The virus was first reported in December 2019.",Zinc cures the infection,Neutral,2,does zinc cure it\n',
    );
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('judges every domain fitted without it, checks the validation domains, caches the readings and reads them back', async () => {
    const out = join(dir, 'domains.json');
    const cache = join(dir, 'cache');
    const args = ['eval', 'domains', '--data', data, '--health', '--limit', '6', '--cache', cache, '--out', out];
    const r = veracite(args);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /leave-one-domain-out over scifact, snli, rte, wice/);
    assert.match(r.stdout, /covidfact \(final check, never fitted on; \d+ items\)/);
    const d = JSON.parse(await readFile(out, 'utf8')) as { task: string; domains: string[]; verdict: Record<string, { shipped: { items: number; accuracy: number; majority: { accuracy: number } }; lodo: { items: number } }>; review: Record<string, { auroc: number; curve: unknown[] }>; finalCheck: Record<string, { verdict: { items: number } }> };
    assert.equal(d.task, 'verdict-domains');
    assert.equal((d as unknown as { rule: string }).rule, 'concat', 'lite decides by the concat rule');
    assert.deepEqual(d.domains, ['scifact', 'snli', 'rte', 'wice']);
    for (const dom of d.domains) {
      const v = d.verdict[dom]!;
      assert.ok(v.shipped.items > 0 && v.shipped.items === v.lodo.items, dom);
      assert.ok(v.shipped.accuracy >= 0 && v.shipped.accuracy <= 1 && v.shipped.majority.accuracy > 0, dom);
      assert.equal(d.review[dom]!.curve.length, 20, dom);
    }
    // RTE: six rows, all read; COVID-Fact's four and HealthVer's three: validation only, never among the fitted domains.
    assert.equal(d.verdict.rte!.shipped.items, 6);
    assert.deepEqual(Object.keys(d.finalCheck).sort(), ['covidfact', 'healthver', 'scifact-dev']);
    assert.equal(d.finalCheck.covidfact!.verdict.items, 4);
    assert.equal(d.finalCheck.healthver!.verdict.items, 3);
    assert.deepEqual((await readdir(cache)).sort(), ['covidfact', 'healthver', 'rte', 'scifact', 'scifact-dev', 'snli', 'wice'].map((x) => `items-${x}.json`).sort());
    // A second run reads the cached readings instead of the engine.
    const again = veracite(args);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /rte: 6 items from /);
  });

  it('--profile verifier: the domain report of the shipped cross-encoder, read by its own calibration and rule', async () => {
    const out = join(dir, 'domains-verifier.json');
    const r = veracite(['eval', 'domains', '--data', data, '--limit', '3', '--profile', 'verifier', '--cache', join(dir, 'cache-verifier'), '--out', out, '--quiet']);
    assert.equal(r.status, 0, r.stderr);
    // The verifier's calibration (models/engine) chose the columbia rule; lite's the concat rule.
    assert.match(r.stdout, /^verdict rule columbia, leave-one-domain-out over scifact, snli, rte, wice/m);
    const d = JSON.parse(await readFile(out, 'utf8')) as { rule: string; models: { id: string }[]; verdict: Record<string, { shipped: { items: number } }> };
    assert.equal(d.rule, 'columbia');
    assert.ok(d.models.some((m) => m.id === 'verifier'), JSON.stringify(d.models));
    assert.equal(d.verdict.rte!.shipped.items, 3, '--limit 3: three of the six RTE rows');
  });

  it('says which file and line is bad', async () => {
    await writeFile(join(data, 'healthver/healthver_dev.csv'), 'id,evidence,claim,label,topic_ip,question\n1,"Text.",A claim,Unsure,1,q\n');
    const r = veracite(['eval', 'domains', '--data', data, '--health', '--limit', '6', '--cache', join(dir, 'cache'), '--out', join(dir, 'x.json')]);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /healthver_dev\.csv:2: expected "claim", "evidence" and "label" Supports, Refutes or Neutral/);
  });
});
