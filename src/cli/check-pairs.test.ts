import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './testing/run-cli.js';

const SOURCES = resolve('data/samples/audit/sources');

describe('veracite check --pairs (batch, resumable, bad records named)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-pairs-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const pair = (id: string, claim: string, source: string) => JSON.stringify({ id, claim, source });
  // Citations #2 (supported) and #18 (the wrong page) of the shipped audit sample, and #2's claim given the source's text.
  const good = [
    pair('c2', 'Women who weighed more at birth have a somewhat higher risk of breast cancer in adulthood.', join(SOURCES, 'scifact-16322674.txt')),
    pair('c18', 'Loss of Scribble cooperates with the c-myc oncogene to transform epithelial cells by blocking apoptosis.', join(SOURCES, 'scifact-45638119.txt')),
  ];

  it('a bad record stops the run naming file, line and field; what was checked before it is kept; a rerun resumes', async () => {
    const file = join(dir, 'pairs.jsonl');
    const out = join(dir, 'checks.jsonl');
    await writeFile(file, [...good, JSON.stringify({ id: 'bad', claim: 'x', source: 'missing.txt' })].join('\n') + '\n');
    await assert.rejects(runCli(['check', '--pairs', file, '--out', out, '--no-index', '--quiet']), (e: Error) => {
      assert.match(e.message, /pairs\.jsonl:3 field "source": cannot read .*missing\.txt: no such file/);
      return true;
    });
    const first = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(first.map((r) => r.id), ['c2', 'c18']);
    const [c2, c18] = first as { band: string; label: string; decision: { band: string; label: string }; probability: number; flagged: boolean; provenance: { configHash: string } }[];
    // One label per pair: the band, the decision's band, its words; the flag is derived from it.
    for (const c of [c2!, c18!]) {
      assert.equal(c.band, c.decision.band);
      assert.equal(c.label, c.decision.label);
    }
    assert.equal(c2!.flagged, false);
    assert.ok(c18!.band === 'not-supported' || c18!.band === 'needs-review', c18!.band);
    assert.ok(c2!.probability > c18!.probability, `${c2!.probability} vs ${c18!.probability}`);
    assert.equal(c18!.flagged, true);
    assert.match(c2!.provenance.configHash, /^[0-9a-f]{12}$/);

    // Fixed (the path is relative to the pairs file) and run again: only the third pair is checked.
    await writeFile(join(dir, 'page.txt'), 'Loss of Scribble cooperates with oncogenes such as c-myc to transform epithelial cells and induce tumors in vivo by blocking activation of an apoptosis pathway.');
    await writeFile(file, [...good, JSON.stringify({ id: 'bad', claim: 'Loss of Scribble cooperates with the c-myc oncogene to transform epithelial cells by blocking apoptosis.', source: 'page.txt' })].join('\n') + '\n');
    await runCli(['check', '--pairs', file, '--out', out, '--no-index', '--quiet']);
    const all = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { id: string; band: string; flagged: boolean; probability: number });
    assert.deepEqual(all.map((r) => r.id), ['c2', 'c18', 'bad']);
    assert.equal(all[2]!.flagged, false, 'the page that states it is not flagged');
    assert.ok(all[2]!.band === 'supported' || all[2]!.band === 'partly-supported', all[2]!.band);
    assert.ok(all[2]!.probability > all[1]!.probability);

    // Another pairs file whose id "c2" names another claim: refused, --out untouched (batch-resume.ts).
    const other = join(dir, 'other-pairs.jsonl');
    await writeFile(other, JSON.stringify({ id: 'c2', claim: 'Smoking causes lung cancer.', text: 'Smoking causes lung cancer.' }) + '\n');
    const before = await readFile(out, 'utf8');
    await assert.rejects(runCli(['check', '--pairs', other, '--out', out, '--no-index', '--quiet']), /checks\.jsonl already answers id "c2" \(its line 1\) for another claim: "Women who weighed more.*give --out a new file/);
    assert.equal(await readFile(out, 'utf8'), before);
  });

  it('a record with neither or both of "source" and "text", or a line that is not an object, is refused with its line', async () => {
    const file = join(dir, 'both.jsonl');
    await writeFile(file, JSON.stringify({ claim: 'x', source: 'a.txt', text: 'y' }) + '\n');
    await assert.rejects(runCli(['check', '--pairs', file, '--out', join(dir, 'o.jsonl'), '--no-index', '--quiet']), /both\.jsonl:1: give exactly one of "source"/);
    const notObject = join(dir, 'array.jsonl');
    await writeFile(notObject, '\n[1, 2]\n');
    await assert.rejects(runCli(['check', '--pairs', notObject, '--out', join(dir, 'o.jsonl'), '--no-index', '--quiet']), /array\.jsonl:2: expected a JSON object/);
  });
});
